"""JUnit XML: well-formed, a failed case per failing reference, counts that add up."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from auditor import tables
from auditor.policy import failing_rows, parse_fail_on
from auditor.report.junit import write_junit
from auditor.result import AuditResult
from auditor.tables import CRITERIA_V1


def test_counts_match_the_policy(result: AuditResult, tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit(result, path)
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == int(root.get("tests", "-1")) == 9
    failed = [c for c in cases if c.find("failure") is not None]
    expected = failing_rows(result.verdicts, result.checklist, parse_fail_on([]))
    assert len(failed) == int(root.get("failures", "-1")) == len(expected) == 4
    assert [(c.get("file"), c.get("line")) for c in failed] == [
        ("thesis.bib", "9"),
        ("thesis.bib", "17"),
        ("submission2.bib", "8"),
        ("submission2.bib", "15"),
    ]
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert len(skipped) == int(root.get("skipped", "-1")) == 3
    for suite in root.findall("testsuite"):
        n = len(suite.findall("testcase"))
        assert int(suite.get("tests", "-1")) == n
        assert int(suite.get("failures", "-1")) == len(suite.findall("testcase/failure"))


def test_hostile_text_stays_well_formed(tmp_path: Path) -> None:
    verdicts = tables.from_rows(
        [
            {
                "row_id": 0,
                "source_path": "a&b.bib",
                "source_line": 1,
                "key": 'k\x00<x>"]]>',
                "verdict": "DOES-NOT-RESOLVE",
                "title_claimed": "</failure><!--",
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
    path = tmp_path / "j.xml"
    write_junit(result, path)
    case = ET.parse(path).getroot().find("./testsuite/testcase")
    assert case is not None and case.get("name") == 'k<x>"]]>'
    failure = case.find("failure")
    assert failure is not None and "</failure><!--" in (failure.text or "")
