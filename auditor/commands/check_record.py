"""`auditor check --id X` with no claim to compare: what is this record?

The identifier is resolved as an audit would (snapshots, cache, then the live register;
`--offline` stops before the network) and the record found is printed: register, tier and as-of
time, title, authors, year, venue and updates (a retraction first of all). Nothing is compared,
so there is no verdict; the exit code says whether the record could be looked at.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor.errors import Reason
from auditor.exitcodes import ExitCode
from auditor.registers.updates import RETRACTION_TYPES
from auditor.report.words import reason_text, update_text
from auditor.vocabulary import RecordStatus, UpdateRelation

__all__ = ["lookup_exit_code", "lookable", "record_report", "render_record"]

#: Record columns the report shows, in this order.
_SHOWN = ("title", "authors", "year", "container_title", "volume", "issue", "pages", "doi")


def lookable(references: pa.Table) -> pa.Table:
    """The classified one-row `references` with no claim, made ready to look up: a missing
    title makes a row INVALID for comparison, yet the record can still be looked at."""
    if references["row_reason"][0].as_py() != Reason.MISSING_TITLE:
        return references
    for name in ("row_state", "row_reason"):
        index = references.schema.get_field_index(name)
        empty = pa.nulls(references.num_rows, references.schema.field(name).type)
        references = references.set_column(index, references.schema.field(name), empty)
    return references


def record_report(references: pa.Table, records: pa.Table) -> dict[str, Any]:
    """The record of the one-row classified `references`, as a JSON-ready dict.

    Keys: `id` (as given), `id_type`, `identifier`, `status` (`found`, `not_found`,
    `unreachable`, `not_covered`), `reason`, `register`, `tier`, `retrieved_at`, the record's
    fields (`title`, `authors`, …) and `updates`. A found record wins over the others that the
    lookup left (the DOI system's answer beside Crossref's, say).
    """
    ref = references.slice(0, 1).to_pylist()[0]
    rows = [
        r
        for r in records.to_pylist()
        if (r["id_type"], r["identifier"]) == (ref["id_type"], ref["identifier"])
    ]
    rows.sort(key=lambda r: r["status"] != RecordStatus.FOUND)
    record = rows[0] if rows else {}
    status = record.get("status") or RecordStatus.NOT_COVERED.value
    report: dict[str, Any] = {
        "id": ref["id_raw"],
        "id_type": ref["id_type"],
        "identifier": ref["identifier"],
        "status": status,
        "reason": record.get("reason") or (ref.get("row_reason") if not rows else None),
    }
    for name in ("register", "tier", "retrieved_at", *_SHOWN, "updates"):
        report[name] = record.get(name)
    return report


def _text(value: object) -> str:
    if value is None or value == []:
        return "-"
    return "; ".join(map(str, value)) if isinstance(value, list) else str(value)


def render_record(report: dict[str, Any]) -> str:
    """The human form of `record_report` (the caller escapes control characters)."""
    why = f" ({reason_text(report['reason'])})" if report.get("reason") else ""
    lines = [
        f"reference  {_text(report['id_type'])} {_text(report['identifier'] or report['id'])}",
        f"record     {report['status']}{why}",
    ]
    if report.get("register"):
        lines.append(
            f"register   {report['register']} (tier {_text(report['tier'])}, "
            f"as of {_text(report['retrieved_at'])})"
        )
    lines.extend(f"update     {update_text(u)}" for u in report.get("updates") or [])
    if report["status"] == RecordStatus.FOUND:
        labels = {"container_title": "venue"}
        lines.extend(f"{labels.get(n, n):<10} {_text(report[n])}" for n in _SHOWN if report[n])
    return "\n".join(lines)


def lookup_exit_code(report: dict[str, Any]) -> int:
    """0 for a record found (or an identifier no leg covers), 1 for no such record or a
    retracted work, 3 when the register could not be consulted."""
    if any(
        u.get("type") in RETRACTION_TYPES and u.get("relation") == UpdateRelation.UPDATED_BY
        for u in report.get("updates") or []
    ):
        return ExitCode.FINDINGS
    status = report["status"]
    if status == RecordStatus.NOT_FOUND:
        return ExitCode.FINDINGS
    if status == RecordStatus.UNREACHABLE:
        return ExitCode.INCOMPLETE
    return ExitCode.OK
