"""The findings list: one line per finding, worst first under the cap, by file and line, safe."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from auditor import tables
from auditor.report.findings import (
    SEVERITY,
    Finding,
    FindingsList,
    findings,
    select,
    worst_findings,
)
from auditor.report.view import build_view
from auditor.result import AuditResult
from tests.properties import examples


def _result(rows: list[dict[str, object]]) -> AuditResult:
    base = {"criteria_id": tables.CRITERIA_V1}
    verdicts = tables.from_rows([{**base, **r} for r in rows], tables.VERDICTS)
    empty = tables.empty
    return AuditResult(
        references=empty(tables.REFERENCES),
        records=empty(tables.RECORDS),
        verdicts=verdicts,
        checklist=empty(tables.CHECKLIST),
        duplicates=empty(tables.DUPLICATES),
        run=None,
    )


def _row(i: int, path: str, line: int, key: str, verdict: str, reason: str | None = None):
    return {
        "row_id": i,
        "source_path": path,
        "source_line": line,
        "key": key,
        "verdict": verdict,
        "reason": reason,
    }


ROWS = [
    _row(0, "b.bib", 30, "late", "UNCHECKED", "timeout"),
    _row(1, "a.bib", 73, "zhang2021quantum", "DOES-NOT-RESOLVE", "not_found"),
    _row(2, "a.bib", 12, "early", "RESOLVES-BUT-DIFFERS", "year_differs"),
    _row(3, "a.bib", 5, "fine", "RESOLVES-AND-MATCHES"),
    _row(4, "a.bib", 6, "nodoi", "NOT COVERED", "no_identifier"),
    _row(5, "b.bib", 2, "broken", "INVALID", "parse_error"),
]


def _print(result: AuditResult, limit: int = 20, **console: object) -> str:
    stream = io.StringIO()
    out = Console(file=stream, width=200, **console)  # type: ignore[arg-type]
    assert FindingsList(out, limit).write(build_view(result), Path("reports/x")) == []
    return stream.getvalue()


def test_one_line_per_finding_grouped_by_file_and_sorted_by_line():
    lines = _print(_result(ROWS)).splitlines()
    assert [line.split()[0] for line in lines] == ["a.bib:12", "a.bib:73", "b.bib:2", "b.bib:30"]
    columns = [c.strip() for c in lines[1].split("  ") if c.strip()]
    assert columns == [
        "a.bib:73",
        "zhang2021quantum",
        "DOES-NOT-RESOLVE",
        "the register has no such record",
    ]
    assert not any("fine" in line or "nodoi" in line for line in lines)  # not findings


def test_the_cap_keeps_the_worst_and_counts_the_rest():
    text = _print(_result(ROWS), limit=2)
    lines = text.splitlines()
    assert [line.split()[2] for line in lines[:2]] == ["RESOLVES-BUT-DIFFERS", "DOES-NOT-RESOLVE"]
    assert lines[2] == "… 2 more in reports/x/report.html"
    assert _print(_result(ROWS), limit=0).splitlines() == ["… 4 more in reports/x/report.html"]


def test_worst_first_order_before_the_cap():
    order = [f.verdict for f in findings(_result(ROWS))]
    assert order == ["DOES-NOT-RESOLVE", "RESOLVES-BUT-DIFFERS", "INVALID", "UNCHECKED"]
    shown, more = select(findings(_result(ROWS)), 3)
    assert (len(shown), more) == (3, 1)


def test_untrusted_keys_and_paths_are_escaped_and_stripped():
    hostile = _row(0, "x[bold]\x1b[31m.bib", 1, "[link=http://evil]k\u202e\r\n", "INVALID")
    text = _print(_result([hostile]), force_terminal=True, color_system="truecolor")
    assert "\x1b[31m" not in text and "\r" not in text and "\u202e" not in text
    assert "[bold]" in text and "[link=http://evil]k" in text  # shown literally, not as markup
    assert "\x1b]8;" not in text  # no hyperlink escape was made


def test_colour_only_on_a_terminal_and_never_under_no_color(monkeypatch):
    colour = _print(_result(ROWS[:2]), force_terminal=True, color_system="truecolor")
    assert "\x1b[" in colour
    assert "\x1b[" not in _print(_result(ROWS[:2]))  # a file is not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in _print(_result(ROWS[:2]), force_terminal=True)


def test_nothing_to_say_prints_nothing():
    assert _print(_result([ROWS[3], ROWS[4]])) == ""


def test_a_row_without_a_line_shows_its_file():
    row = _row(0, "a.bib", 1, "k", "INVALID", "parse_error")
    row["source_line"] = None
    assert _print(_result([row])).split()[0] == "a.bib"


def _checklist(items: list[tuple[int, str, str]]):
    text = "{} on 2010; pending human check."
    rows = [
        {"row_id": i, "priority": p, "reason_code": code, "text": text.format(code)}
        for i, p, code in items
    ]
    return tables.from_rows(rows, tables.CHECKLIST)


def test_a_retracted_work_is_a_finding_even_when_every_field_matches():
    # The default --fail-on fails a P0 item; the terminal must say so, not only the HTML.
    rows = [ROWS[3], ROWS[2], ROWS[4]]
    items = [(3, "P0", "work_retracted"), (2, "P0", "work_retracted"), (2, "P3", "year_differs")]
    result = _result(rows)
    result = AuditResult(
        references=result.references,
        records=result.records,
        verdicts=result.verdicts,
        checklist=_checklist(items),
    )
    lines = _print(result).splitlines()
    assert [line.split()[1:3] for line in lines] == [["fine", "RETRACTED"], ["early", "RETRACTED"]]
    assert lines[0].endswith("work_retracted on 2010")  # the item's words, without the coda
    assert "year differs" not in lines[0]
    assert "RESOLVES-BUT-DIFFERS: the year differs" in lines[1]  # the verdict is not hidden
    assert [f.verdict for f in findings(result)][0] == "RETRACTED"


def test_another_p0_item_keeps_a_finding_verdict_and_labels_a_match_p0():
    result = _result([ROWS[1], ROWS[3]])
    result = AuditResult(
        references=result.references,
        records=result.records,
        verdicts=result.verdicts,
        checklist=_checklist([(1, "P0", "doi_refuted"), (3, "P0", "doi_refuted")]),
    )
    assert sorted(f.verdict for f in findings(result)) == ["DOES-NOT-RESOLVE", "P0"]


_VERDICTS = [*tables.OUTCOMES, "RESOLVES-AND-MATCHES", "NOT COVERED"]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["b.bib", "a.bib", ""]),
            st.one_of(st.none(), st.integers(0, 3)),
            st.sampled_from(["k", "é", "", "Z"]),
            st.sampled_from(_VERDICTS),
            st.sampled_from(["timeout", "not_found", None]),
            st.sampled_from([None, "work_retracted", "doi_refuted"]),
        ),
        max_size=40,
    ),
    st.integers(0, 45),
)
def test_the_worst_few_are_those_a_stable_sort_of_every_finding_puts_first(
    rows: list[tuple[str, int | None, str, str, str | None, str | None]], limit: int
) -> None:
    verdicts = [
        {**_row(i, path, 0, key, verdict, reason), "source_line": line}
        for i, (path, line, key, verdict, reason, _) in enumerate(rows)
    ]
    items = [(i, "P0", code) for i, (*_, code) in enumerate(rows) if code]
    plain = _result(verdicts)
    result = AuditResult(
        references=plain.references,
        records=plain.records,
        verdicts=plain.verdicts,
        checklist=_checklist(items),
    )
    assert findings(result) == _row_by_row(result)
    assert worst_findings(result, limit) == select(_row_by_row(result), limit)


def _row_by_row(result: AuditResult) -> list[Finding]:
    """`findings` as it was written before it went column-wise: the reference."""
    from auditor.report.findings import _finding, _urgent_finding, shown_path
    from auditor.report.words import reason_text

    urgent: dict[int, tuple[str, str]] = {}
    for item in result.checklist.to_pylist():
        if item["priority"] == "P0":
            urgent.setdefault(item["row_id"], (str(item["reason_code"]), str(item["text"] or "")))
    out = []
    for row in result.verdicts.to_pylist():
        row["path"] = shown_path(str(row.get("source_path") or ""))
        row["name"] = str(row.get("key") or f"row {row['row_id']}")
        if row["row_id"] in urgent:
            out.append(_urgent_finding(row, urgent[row["row_id"]]))
        elif row["verdict"] in SEVERITY:
            out.append(_finding(row, str(row["verdict"]), reason_text(row.get("reason"))))
    return sorted(out, key=lambda f: (f.severity, f.path, f.line or 0, f.key))


def test_a_run_too_large_for_a_page_points_at_the_verdicts_table(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import auditor.report.choice

    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 3)
    lines = _print(_result(ROWS), limit=2).splitlines()
    # a large run writes no verdicts.csv by default (#36): the Parquet table lists every row
    assert lines[2] == "… 2 more in reports/x/verdicts.parquet"
