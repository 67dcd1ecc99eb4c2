"""A run's summary from its pieces' totals: counts, the worst findings, the exit code.

Each piece counts its own rows (`report.rows.count_totals`), picks its worst `max_findings`
findings and tells whether the policy fails any of its rows; the driver adds these up. The
counts are the single-process run's (sums keep the same key order), the findings list is the
worst `max_findings` of all (each piece's worst few contain the run's worst few), and the exit
code is the policy's over all rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow.compute as pc

from auditor.checklist.priority import PRIORITY_ORDER
from auditor.report.findings import Finding
from auditor.report.view import ReportView
from auditor.result import AuditResult, SearchUse
from auditor.settings import Settings
from auditor.tables import OUTCOMES, RowState

__all__ = ["PieceTotals", "RunTotals", "combine", "piece_totals", "search_use"]

_OK, _FINDINGS, _INCOMPLETE = 0, 1, 3
_ORDERS: dict[str, tuple[str, ...]] = {
    "by_verdict": tuple(OUTCOMES),
    "by_priority": tuple(PRIORITY_ORDER),
    "by_register": (),
    "unchecked_reasons": (),
}


@dataclass(frozen=True)
class PieceTotals:
    """One piece's share of the summary."""

    counts: dict[str, Any]
    """`count_totals` of the piece (its `duplicate_groups` is not used)."""
    findings: list[Finding]
    """The piece's worst findings, at most `max_findings`."""
    findings_total: int
    """Every finding of the piece, shown or not."""
    fails: bool
    """Whether the policy fails a row of the piece."""
    unchecked: bool
    """Whether the piece has an `UNCHECKED` row."""


@dataclass(frozen=True)
class RunTotals:
    """The whole run's summary, combined on the driver from `PieceTotals`."""

    counts: dict[str, Any]
    findings: list[Finding]
    """The run's worst `max_findings` findings, grouped by file and sorted by line."""
    more: int
    """Findings not listed."""
    exit_code: int
    pieces: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def piece_totals(
    result: AuditResult, view: ReportView, settings: Settings, max_findings: int
) -> PieceTotals:
    """The totals of one finished piece under the run's `fail_on` policy."""
    from auditor import policy
    from auditor.report.findings import worst_findings

    rules = policy.parse_fail_on(settings.fail_on, fail_on_unchecked=settings.fail_on_unchecked)
    shown, more = worst_findings(result, max_findings)
    fails = bool(policy.failing_rows(result.verdicts, result.checklist, rules))
    unchecked = bool(
        rules.unchecked
        and pc.any(pc.equal(result.verdicts["verdict"], RowState.UNCHECKED.value)).as_py()
    )
    return PieceTotals(dict(view.totals), shown, len(shown) + more, fails, unchecked)


def _counts(parts: Sequence[dict[str, int]], order: tuple[str, ...]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for part in parts:
        total.update(part)
    out = {name: total.pop(name, 0) for name in order}
    out.update(sorted(total.items()))
    return out


def _by_file(parts: Sequence[PieceTotals]) -> list[dict[str, Any]]:
    files: dict[str, list[dict[str, Any]]] = {}
    for part in parts:
        for entry in part.counts["by_file"]:
            files.setdefault(entry["path"], []).append(entry)
    return [
        {
            "path": path,
            "rows": sum(e["rows"] for e in entries),
            "by_verdict": _counts([e["by_verdict"] for e in entries], _ORDERS["by_verdict"]),
        }
        for path, entries in files.items()
        if sum(e["rows"] for e in entries) or path
    ]


def _worst(parts: Sequence[PieceTotals], limit: int) -> list[Finding]:
    pool = [f for part in parts for f in part.findings]
    pool.sort(key=lambda f: (f.severity, f.path, f.line or 0, f.key))
    shown = pool[: max(0, limit)]
    return sorted(shown, key=lambda f: (f.path, f.line or 0, f.key))


def combine(parts: Sequence[PieceTotals], max_findings: int, duplicate_groups: int) -> RunTotals:
    """The run's `RunTotals` from every piece's, in piece order."""
    counts: dict[str, Any] = {
        "rows": sum(p.counts["rows"] for p in parts),
        **{
            name: _counts([p.counts[name] for p in parts], order) for name, order in _ORDERS.items()
        },
        "checklist_items": sum(p.counts["checklist_items"] for p in parts),
        "duplicate_groups": duplicate_groups,
        "by_file": _by_file(parts),
    }
    counts = {key: counts[key] for key in parts[0].counts} if parts else counts
    shown = _worst(parts, max_findings)
    total = sum(p.findings_total for p in parts)
    if any(p.fails for p in parts):
        code = _FINDINGS
    elif any(p.unchecked for p in parts):
        code = _INCOMPLETE
    else:
        code = _OK
    return RunTotals(counts, shown, total - len(shown), code, len(parts))


def search_use(pieces: Sequence[Sequence[SearchUse]]) -> tuple[SearchUse, ...]:
    """Each title-search index's use summed over the pieces, indexes in first-seen order.

    Requests and free answers add up to the run's. `waited_seconds` adds up too: the pieces'
    search stages waited that long in all, side by side, not one after another (task
    seconds; the wall time is less when pieces ran at once).
    """
    total: dict[str, SearchUse] = {}
    for uses in pieces:
        for use in uses:
            seen = total.get(use.index)
            total[use.index] = (
                use
                if seen is None
                else SearchUse(
                    use.index,
                    seen.requests + use.requests,
                    seen.free + use.free,
                    seen.waited_seconds + use.waited_seconds,
                )
            )
    return tuple(total.values())
