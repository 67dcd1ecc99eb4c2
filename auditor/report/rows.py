"""The report's view of a run: verdict rows joined with what a reader needs, and the totals.

`build_report_verdicts` makes the table behind `verdicts.parquet`/`.csv`, the HTML table and the
JSON rows: every `tables.VERDICTS` column, in input order, plus the columns of `REPORT_EXTRA`
joined from the references, the records relied on and the checklist. `count_totals` counts it for
the summaries. Both are called once per run, by `report.view.build_view`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.alerts import alert_column
from auditor.checklist import PRIORITY_ORDER, priority_rank
from auditor.patches import record_keys
from auditor.result import AuditResult  # a value type: result.py imports nothing back
from auditor.tables import RowState

__all__ = [
    "NO_REGISTER",
    "REPORT_EXTRA",
    "REPORT_VERDICTS",
    "authors_parsed",
    "build_report_verdicts",
    "count_totals",
]

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
        pa.field("alert", pa.string()),  # RETRACTED | UNDER CONCERN (`auditor.alerts`), or null
    ]
)

#: Schema of `verdicts.parquet`: `tables.VERDICTS` (but `record_key`, the join key of the
#: records, which a reader has in `id_type`/`identifier`/`register`) then `REPORT_EXTRA`.
REPORT_VERDICTS = pa.schema(
    [*(f for f in tables.VERDICTS if f.name != "record_key"), *REPORT_EXTRA]
)

#: The register label of rows that no register answered for.
NO_REGISTER = "none"


def _record_at(verdicts: pa.Table, records: pa.Table) -> pa.Array:
    """The index in `records` of the record each verdict row relied on (null: none), joined on
    `record_key` alone (the first record of that key wins)."""
    if records.num_rows == 0:
        return pa.nulls(verdicts.num_rows, pa.int32())
    own = record_keys(records["register"], records["id_type"], records["identifier"])
    return pc.index_in(verdicts["record_key"], value_set=own).combine_chunks()


def _priorities(verdicts: pa.Table, checklist: pa.Table) -> tuple[pa.Array, pa.Array]:
    """`(most urgent priority, item count)` per verdict row from the checklist."""
    items = pa.table({"row_id": checklist["row_id"], "rank": priority_rank(checklist["priority"])})
    per_row = items.group_by("row_id").aggregate([("rank", "min"), ("rank", "count")])
    at = pc.index_in(verdicts["row_id"], value_set=per_row["row_id"])
    order = pa.array([*PRIORITY_ORDER, None], pa.string())
    best = per_row["rank_min"].combine_chunks().take(at)
    priority = order.take(pc.fill_null(best, len(PRIORITY_ORDER)))
    count = pc.fill_null(per_row["rank_count"].combine_chunks().take(at), 0).cast(pa.int32())
    return priority, count


def _ascending(row_ids: pa.ChunkedArray) -> bool:
    """Whether the row ids are distinct and in order (as the stages hand them over)."""
    values = row_ids.to_numpy()
    return row_ids.null_count == 0 and bool(np.all(values[1:] > values[:-1]))


def _reference_columns(
    verdicts: pa.Table, refs: pa.Table, names: tuple[str, ...]
) -> dict[str, pa.ChunkedArray | pa.Array]:
    """`names` of the reference of each verdict row, by row id; as they are when the references
    hold the same rows in the same order (the usual case: nothing to look up)."""
    if refs["row_id"].equals(verdicts["row_id"]):
        return {name: refs[name] for name in names}
    at = pc.index_in(verdicts["row_id"], value_set=refs["row_id"])
    return {name: refs[name].combine_chunks().take(at) for name in names}


def authors_parsed(result: AuditResult) -> dict[int, list[dict[str, str | None] | None]]:
    """`references.author_names` by row id, for the rows whose source gave name structure: the
    parsed form the JSON and HTML reports show beside the names as written."""
    refs = result.references
    if "author_names" not in refs.column_names:
        return {}
    present = refs.filter(pc.is_valid(refs["author_names"]))
    ids = present["row_id"].to_pylist()
    return dict(zip(ids, present["author_names"].to_pylist(), strict=True))


def build_report_verdicts(result: AuditResult) -> tuple[pa.Table, pa.Array]:
    """One row per input row, in input order, with the `REPORT_VERDICTS` columns, joined with
    Arrow kernels over whole columns (`report.view.build_view` calls it once per run); and for
    each row the index in `result.records` of the record it relied on (null: none)."""
    verdicts = result.verdicts
    if not _ascending(verdicts["row_id"]):
        verdicts = verdicts.take(pc.sort_indices(verdicts["row_id"]))
    refs = result.references
    at = _record_at(verdicts, result.records)
    records = result.records
    priority, count = _priorities(verdicts, result.checklist)
    extra = {
        **_reference_columns(verdicts, refs, ("source_format", "entry_type", "id_raw")),
        "record_status": records["status"].combine_chunks().take(at),
        "agency": records["agency"].combine_chunks().take(at),
        "priority": priority,
        "checklist_items": count,
        "alert": alert_column(verdicts, result.checklist),
    }
    columns = [
        verdicts.column(f.name) if f.name in verdicts.column_names else extra[f.name]
        for f in REPORT_VERDICTS
    ]
    return pa.Table.from_arrays(columns, schema=REPORT_VERDICTS), at


def _count(values: pa.ChunkedArray | pa.Array, order: tuple[str, ...] = ()) -> dict[str, int]:
    """Counts with every name of `order` present (zeros included), then the rest sorted."""
    counter: Counter[str] = Counter()
    for item in pc.value_counts(pc.fill_null(values, NO_REGISTER)).to_pylist():
        counter[str(item["values"])] += int(item["counts"])
    out = {name: counter.pop(name, 0) for name in order}
    out.update(sorted(counter.items()))
    return out


def count_totals(result: AuditResult, rows: pa.Table) -> dict[str, Any]:
    """Counts of `rows` (`build_report_verdicts(result)`) for the summaries: by verdict,
    register, priority, UNCHECKED reason and file.

    Keys and their order are stable (verdicts in `tables.OUTCOMES` order, priorities P0…P3, the
    rest sorted), so two runs' JSON diff cleanly.
    """
    table = rows.select(["source_path", "verdict", "reason", "register"])
    inputs = [i.path for i in result.run.inputs] if result.run else []
    seen = pc.unique(table["source_path"]).to_pylist()
    paths = list(dict.fromkeys([*inputs, *seen]))
    by_file = []
    for path in paths:
        mine = table.filter(pc.equal(table["source_path"], path))
        by_file.append(
            {
                "path": path,
                "rows": mine.num_rows,
                "by_verdict": _count(mine["verdict"], tables.OUTCOMES),
            }
        )
    unchecked = table.filter(pc.equal(table["verdict"], RowState.UNCHECKED.value))["reason"]
    duplicates = result.duplicates
    return {
        "rows": table.num_rows,
        "by_verdict": _count(table["verdict"], tables.OUTCOMES),
        "by_register": _count(table["register"]),
        "by_priority": _count(result.checklist["priority"], PRIORITY_ORDER),
        "unchecked_reasons": _count(unchecked),
        "checklist_items": result.checklist.num_rows,
        "duplicate_groups": len(pc.unique(duplicates["group_id"])),
        "by_file": by_file,
    }
