"""`report.json`: the criteria id, run metadata, per-row verdicts, checklist, duplicates, totals.

Stable for diffing: keys are written sorted, rows in input order (checklist in its priority
order), one row per line, floats as JSON numbers or null. `schema_version` changes when a key's
meaning changes. `report.schema.json` beside this module is its JSON Schema.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from auditor.report.interface import ReportFormat, atomic_write_text
from auditor.report.rows import authors_parsed
from auditor.report.view import ReportView
from auditor.signing import sign_report

__all__ = [
    "SCHEMA_VERSION",
    "JsonReport",
    "JsonSummaryReport",
    "dump_report",
    "large_report_dict",
    "report_dict",
    "report_text",
    "sign_report_file",
]

SCHEMA_VERSION = "1.0"


def _clean(value: Any) -> Any:
    """NaN and infinities become null (JSON has no spelling for them)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    return [_clean(row) for row in table.to_pylist()]


def report_dict(view: ReportView) -> dict[str, Any]:
    """The whole JSON report as plain data."""
    result = view.result
    verdicts = _rows(view.rows)
    # Names as written stay in `authors_claimed`; their parse sits beside them (issue #22).
    parsed = authors_parsed(result)
    for row in verdicts:
        row["authors_parsed"] = parsed.get(row["row_id"])
    run = dataclasses.asdict(result.run) if result.run else None
    return {
        "schema_version": SCHEMA_VERSION,
        "criteria_id": result.criteria_id,
        "run": _clean(run),
        "totals": dict(view.totals),
        "verdicts": verdicts,
        "records": _rows(result.records),
        "checklist": _rows(result.checklist),
        "duplicates": _rows(result.duplicates),
    }


def large_report_dict(view: ReportView) -> dict[str, Any]:
    """The JSON report of a run too large to list row by row: run, totals and the tiers' as-of
    range; `rows_in` names the files written that hold the rows themselves (`verdicts.parquet`,
    `checklist.parquet`, … as the run chose)."""
    result = view.result
    run = dataclasses.asdict(result.run) if result.run else None
    # A record without a tier is a lookup that did not happen (offline, a timeout): it holds
    # no register's data, so it is as of nothing.
    stamped = result.records.select(["tier", "retrieved_at"])  # not a copy of every column
    looked = stamped.filter(pc.is_valid(stamped["tier"]))
    stamps = looked.group_by("tier").aggregate(
        [("retrieved_at", "min"), ("retrieved_at", "max"), ("retrieved_at", "count")]
    )
    as_of = {
        row["tier"]: {
            "records": row["retrieved_at_count"],
            "oldest": row["retrieved_at_min"],
            "newest": row["retrieved_at_max"],
        }
        for row in stamps.to_pylist()
    }
    return {
        "schema_version": SCHEMA_VERSION,
        "criteria_id": result.criteria_id,
        "run": _clean(run),
        "totals": dict(view.totals),
        "rows_listed": False,
        "rows_in": list(view.choice.row_files()),
        "records_as_of": as_of,
    }


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _dump(value: Any, depth: int) -> str:
    """Indented objects down to the row lists; each row compact on one line.

    One row per line keeps a diff of two runs to the rows that changed, and lets the C encoder
    do the bulk of the work (an indented `json.dumps` falls back to pure Python).
    """
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict) and value and depth < 2:
        items = [f"{inner}{_compact(k)}: {_dump(value[k], depth + 1)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value and depth < 2:
        return "[\n" + ",\n".join(inner + _compact(v) for v in value) + f"\n{pad}]"
    return _compact(value)


def report_text(view: ReportView) -> str:
    """`report_dict` serialized: sorted keys, one row per line, UTF-8 text, final newline."""
    return dump_report(report_dict(view))


def dump_report(data: dict[str, Any]) -> str:
    """A report dict in `report.json`'s layout: sorted keys, one row per line, final newline."""
    return _dump(data, 0) + "\n"


def sign_report_file(path: Path, key: Ed25519PrivateKey, *, signed_set: bool = False) -> Path:
    """Add an Ed25519 `signature` member to the `report.json` at `path` (see `auditor.signing`),
    keeping its layout; written atomically. `signed_set` adds `"signed_set": "manifest.json"`
    (under the signature): the folder's signed manifest must be checked with it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if signed_set:
        data["signed_set"] = "manifest.json"
    return atomic_write_text(path, dump_report(sign_report(data, key)))


class JsonReport(ReportFormat):
    """Writes `report.json`."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `report.json` atomically."""
        return [atomic_write_text(out_dir / "report.json", report_text(view))]


class JsonSummaryReport(ReportFormat):
    """Writes `report.json` without the per-row lists (see `large_report_dict`)."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write the summary `report.json` atomically."""
        return [atomic_write_text(out_dir / "report.json", dump_report(large_report_dict(view)))]
