"""The report's view of a run: verdict rows joined with what a reader needs, and the totals.

`report_verdicts` is the table behind `verdicts.parquet`/`.csv`, the HTML table and the JSON rows:
every `tables.VERDICTS` column, in input order, plus the columns of `REPORT_EXTRA` joined from the
references, the records relied on and the checklist. `totals` counts it for the summaries.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.checklist import PRIORITY_ORDER
from auditor.result import AuditResult
from auditor.tables import RowState

__all__ = ["REPORT_EXTRA", "REPORT_VERDICTS", "NO_REGISTER", "report_verdicts", "totals"]

#: Columns the reports add after the `tables.VERDICTS` columns.
REPORT_EXTRA = pa.schema(
    [
        pa.field("source_format", pa.string()),  # bibtex | ris | csv
        pa.field("entry_type", pa.string()),  # article, JOUR, …
        pa.field("id_raw", pa.string()),  # the identifier as written in the source
        pa.field("record_status", pa.string()),  # found | not_found | unreachable | not_covered
        pa.field("agency", pa.string()),  # DOI registration agency when the record names it
        pa.field("priority", pa.string()),  # most urgent checklist priority of the row, or null
        pa.field("checklist_items", pa.int32()),  # how many checklist items the row has
    ]
)

#: Schema of `verdicts.parquet`: `tables.VERDICTS` then `REPORT_EXTRA`.
REPORT_VERDICTS = pa.schema([*tables.VERDICTS, *REPORT_EXTRA])

#: The register label of rows that no register answered for.
NO_REGISTER = "none"


def _rank(priority: str | None) -> int:
    return PRIORITY_ORDER.index(priority) if priority in PRIORITY_ORDER else len(PRIORITY_ORDER)


def _records_by_key(records: pa.Table) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Records keyed by (register, id_type, identifier) and by (id_type, identifier)."""
    index: dict[tuple[Any, ...], dict[str, Any]] = {}
    for rec in records.to_pylist():
        index.setdefault((rec["register"], rec["id_type"], rec["identifier"]), rec)
        index.setdefault((rec["id_type"], rec["identifier"]), rec)
    return index


def report_verdicts(result: AuditResult) -> pa.Table:
    """One row per input row, in input order, with the `REPORT_VERDICTS` columns."""
    refs = {row["row_id"]: row for row in result.references.to_pylist()}
    recs = _records_by_key(result.records)
    priority: dict[int, str] = {}
    count: Counter[int] = Counter()
    for row_id, prio in zip(
        result.checklist["row_id"].to_pylist(),
        result.checklist["priority"].to_pylist(),
        strict=True,
    ):
        count[row_id] += 1
        if _rank(prio) < _rank(priority.get(row_id)):
            priority[row_id] = prio
    rows = sorted(result.verdicts.to_pylist(), key=lambda r: r["row_id"])
    for row in rows:
        ref = refs.get(row["row_id"], {})
        rec = recs.get(
            (row.get("register"), row.get("id_type"), row.get("identifier"))
        ) or recs.get((row.get("id_type"), row.get("identifier")))
        rec = rec or {}
        row["source_format"] = ref.get("source_format")
        row["entry_type"] = ref.get("entry_type")
        row["id_raw"] = ref.get("id_raw")
        row["record_status"] = rec.get("status")
        row["agency"] = rec.get("agency")
        row["priority"] = priority.get(row["row_id"])
        row["checklist_items"] = count.get(row["row_id"], 0)
    return pa.Table.from_pylist(rows, schema=REPORT_VERDICTS)


def _count(values: list[Any], order: tuple[str, ...] = ()) -> dict[str, int]:
    """Counts with every name of `order` present (zeros included), then the rest sorted."""
    counter = Counter(NO_REGISTER if v is None else str(v) for v in values)
    out = {name: counter.pop(name, 0) for name in order}
    out.update(sorted(counter.items()))
    return out


def totals(result: AuditResult, verdicts: pa.Table | None = None) -> dict[str, Any]:
    """Counts for the summaries: by verdict, register, priority, UNCHECKED reason and file.

    Keys and their order are stable (verdicts in `tables.OUTCOMES` order, priorities P0…P3, the
    rest sorted), so two runs' JSON diff cleanly. `verdicts` is `report_verdicts(result)` when the
    caller already has it.
    """
    table = report_verdicts(result) if verdicts is None else verdicts
    rows = table.select(["source_path", "verdict", "reason", "register"]).to_pylist()
    inputs = [i.path for i in result.run.inputs] if result.run else []
    paths = list(dict.fromkeys([*inputs, *(r["source_path"] for r in rows)]))
    by_file = [
        {
            "path": path,
            "rows": sum(1 for r in rows if r["source_path"] == path),
            "by_verdict": _count(
                [r["verdict"] for r in rows if r["source_path"] == path], tables.OUTCOMES
            ),
        }
        for path in paths
    ]
    unchecked = [r["reason"] for r in rows if r["verdict"] == RowState.UNCHECKED]
    duplicates = result.duplicates
    return {
        "rows": len(rows),
        "by_verdict": _count([r["verdict"] for r in rows], tables.OUTCOMES),
        "by_register": _count([r["register"] for r in rows]),
        "by_priority": _count(result.checklist["priority"].to_pylist(), PRIORITY_ORDER),
        "unchecked_reasons": _count(unchecked),
        "checklist_items": result.checklist.num_rows,
        "duplicate_groups": len(set(duplicates["group_id"].to_pylist())),
        "by_file": by_file,
    }
