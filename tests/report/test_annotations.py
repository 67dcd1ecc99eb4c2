"""GitHub workflow commands: one error per failing reference, on its line, escaped."""

from __future__ import annotations

import re

from auditor import tables
from auditor.report.annotations import escape_data, escape_property, github_annotations
from auditor.result import AuditResult
from auditor.tables import CRITERIA_V1

_LINE = re.compile(r"^::(error|warning) file=([^,]+),line=(\d+),title=[^:]+::(.+)$")


def test_one_error_per_failing_row_on_its_line(result: AuditResult) -> None:
    lines = github_annotations(result).splitlines()
    parsed = [_LINE.match(line) for line in lines]
    assert all(parsed), lines
    errors = [(m[2], int(m[3])) for m in parsed if m and m[1] == "error"]
    assert errors == [
        ("thesis.bib", 9),
        ("thesis.bib", 17),
        ("submission2.bib", 8),
        ("submission2.bib", 15),
    ]
    warnings = [(m[2], int(m[3])) for m in parsed if m and m[1] == "warning"]
    assert warnings == [("thesis.bib", 33), ("thesis.bib", 41)]


def test_fail_on_decides_the_errors(result: AuditResult) -> None:
    text = github_annotations(result, fail_on=["P0"])
    assert [line.split(",")[0:2] for line in text.splitlines() if line.startswith("::error")] == [
        ["::error file=submission2.bib", "line=15"]
    ]


def test_nothing_to_say_is_empty() -> None:
    verdicts = tables.from_rows(
        [
            {
                "row_id": 0,
                "source_path": "a.bib",
                "verdict": "RESOLVES-AND-MATCHES",
                "criteria_id": CRITERIA_V1,
            }
        ],
        tables.VERDICTS,
    )
    clean = AuditResult(
        references=tables.empty(tables.REFERENCES),
        records=tables.empty(tables.RECORDS),
        verdicts=verdicts,
        checklist=tables.empty(tables.CHECKLIST),
    )
    assert github_annotations(clean) == ""


def test_untrusted_text_cannot_inject_a_command() -> None:
    verdicts = tables.from_rows(
        [
            {
                "row_id": 0,
                "source_path": "a,b:c.bib",
                "source_line": 3,
                "key": "k\n::error file=x::owned",
                "verdict": "DOES-NOT-RESOLVE",
                "criteria_id": CRITERIA_V1,
            }
        ],
        tables.VERDICTS,
    )
    result = AuditResult(
        references=tables.empty(tables.REFERENCES),
        records=tables.empty(tables.RECORDS),
        verdicts=verdicts,
        checklist=tables.empty(tables.CHECKLIST),
    )
    [line] = github_annotations(result).splitlines()
    assert line.startswith("::error file=a%2Cb%3Ac.bib,line=3,")
    assert "%0A::error" in line
    assert escape_data("50%\r\n") == "50%25%0D%0A"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"


def test_terminal_control_characters_never_reach_the_log() -> None:
    hostile = "k\x1b]0;owned\x07\x1b[2J\x9b31m\u202e"
    verdicts = tables.from_rows(
        [
            {
                "row_id": 0,
                "source_path": "a\x1b[1m.bib",
                "source_line": 3,
                "key": hostile,
                "verdict": "DOES-NOT-RESOLVE",
                "criteria_id": CRITERIA_V1,
            }
        ],
        tables.VERDICTS,
    )
    result = AuditResult(
        references=tables.empty(tables.REFERENCES),
        records=tables.empty(tables.RECORDS),
        verdicts=verdicts,
        checklist=tables.empty(tables.CHECKLIST),
    )
    text = github_annotations(result)
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]", text)
    assert "\\x1b]0;owned\\x07" in text
