"""The run's summary is the sum of its pieces': counts in the single run's key order, the worst
findings of all, the exit code of the policy over all rows."""

from __future__ import annotations

from typing import Any

from auditor.partitions.totals import PieceTotals, combine
from auditor.report.findings import Finding


def _counts(rows: int, verdicts: dict[str, int], registers: dict[str, int]) -> dict[str, Any]:
    return {
        "rows": rows,
        "by_verdict": verdicts,
        "by_register": registers,
        "by_priority": {"P0": 0, "P1": 0, "P2": 0, "P3": 1},
        "unchecked_reasons": {},
        "checklist_items": 1,
        "duplicate_groups": 9,  # a piece's own count: not the run's
        "by_file": [{"path": "a.bib", "rows": rows, "by_verdict": verdicts}],
    }


def _finding(line: int, verdict: str) -> Finding:
    return Finding("a.bib", line, f"k{line}", verdict, "why")


def test_pieces_add_up() -> None:
    first = PieceTotals(
        _counts(2, {"RESOLVES-AND-MATCHES": 1, "DOES-NOT-RESOLVE": 1}, {"crossref": 2}),
        [_finding(1, "DOES-NOT-RESOLVE")],
        1,
        fails=True,
        unchecked=False,
    )
    second = PieceTotals(
        _counts(3, {"RESOLVES-AND-MATCHES": 2, "DOES-NOT-RESOLVE": 1}, {"arxiv": 1, "crossref": 2}),
        [_finding(9, "RESOLVES-BUT-DIFFERS"), _finding(8, "DOES-NOT-RESOLVE")],
        3,
        fails=False,
        unchecked=True,
    )
    run = combine([first, second], max_findings=2, duplicate_groups=4)
    assert run.counts["rows"] == 5
    assert list(run.counts["by_register"].items()) == [("arxiv", 1), ("crossref", 4)]
    assert run.counts["by_verdict"]["DOES-NOT-RESOLVE"] == 2
    assert run.counts["duplicate_groups"] == 4
    assert run.counts["by_file"] == [
        {"path": "a.bib", "rows": 5, "by_verdict": run.counts["by_verdict"]}
    ]
    # The worst two of all, by severity, then shown by line; the rest counted.
    assert [(f.line, f.verdict) for f in run.findings] == [
        (1, "DOES-NOT-RESOLVE"),
        (8, "DOES-NOT-RESOLVE"),
    ]
    assert run.more == 2
    assert run.exit_code == 1  # a piece fails: findings win over incomplete
    assert combine([second], 2, 0).exit_code == 3


def test_search_use_is_summed_per_index_in_first_seen_order() -> None:
    from auditor.partitions.totals import search_use
    from auditor.result import SearchUse

    pieces = [
        (SearchUse("crossref_search", 3, 1, 0.5), SearchUse("dblp", 1, 0, 2.0)),
        (),
        (SearchUse("s2", 2, 0, 1.0), SearchUse("crossref_search", 4, 2, 0.25)),
    ]
    assert search_use(pieces) == (
        SearchUse("crossref_search", 7, 3, 0.75),
        SearchUse("dblp", 1, 0, 2.0),
        SearchUse("s2", 2, 0, 1.0),
    )
    assert search_use([]) == ()
