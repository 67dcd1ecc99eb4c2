"""JUnit XML: one test suite per input file, one test case per reference.

A reference that fails the `--fail-on` policy is a failed test case; one that could not be
checked (`UNCHECKED`, `INVALID`, `NOT COVERED`) or whose work is retracted or under concern
(`auditor.alerts`) but not failed by the policy is skipped with its reason; the rest pass. A
retracted work's failure message is `RETRACTED`, whatever its fields' verdict.
Text is escaped by `xml.etree`; characters XML 1.0 forbids are dropped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

from auditor.alerts import ALERT_CODES, alert_column
from auditor.policy import failing_rows, parse_fail_on
from auditor.report.interface import ReportFormat, atomic_write_bytes
from auditor.report.view import ReportView
from auditor.report.words import reason_text
from auditor.result import AuditResult
from auditor.tables import RowState, Verdict

__all__ = ["JunitReport", "junit_xml", "write_junit"]

_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_SKIPPED = {RowState.UNCHECKED.value, RowState.INVALID.value, Verdict.NOT_COVERED.value}


def _clean(text: Any) -> str:
    return _XML_FORBIDDEN.sub("", "" if text is None else str(text))


def _case(suite: ET.Element, row: dict[str, Any], failing: bool) -> str:
    """Append the test case of `row`; return its state (passed, failed, skipped)."""
    name = row.get("key") or f"row {row['row_id']}"
    case = ET.SubElement(
        suite,
        "testcase",
        name=_clean(name),
        classname=_clean(row["source_path"]),
        file=_clean(row["source_path"]),
        line=str(row.get("source_line") or 0),
        time="0",
    )
    why = reason_text(row.get("reason")) or (
        "the fields agree" if row["verdict"] == Verdict.MATCHES else "no reason"
    )
    detail = (
        f"{row['verdict']}: {why}; "
        f"identifier {row.get('identifier') or '-'}; line {row.get('source_line') or '?'}; "
        f"title {row.get('title_claimed') or '-'}"
    )
    alert = row.get("alert")
    if alert:  # a retracted work reads as one, not as its verdict
        detail = f"{alert}: {reason_text(ALERT_CODES[alert])}; verdict {detail}"
    if failing:
        ET.SubElement(
            case, "failure", message=_clean(alert or row["verdict"]), type="auditor"
        ).text = _clean(detail)
        return "failed"
    if row["verdict"] in _SKIPPED or alert:  # a retracted work the policy lets by: no pass
        ET.SubElement(case, "skipped", message=_clean(detail))
        return "skipped"
    return "passed"


def junit_xml(result: AuditResult, fail_on: Sequence[str] = ()) -> bytes:
    """The JUnit XML document (UTF-8 bytes with declaration)."""
    failing = set(failing_rows(result.verdicts, result.checklist, parse_fail_on(fail_on)))
    # Only the columns a test case names become Python values.
    columns = ["row_id", "source_path", "source_line", "key", "verdict", "reason", "identifier"]
    verdicts = result.verdicts.select([*columns, "title_claimed"])
    verdicts = verdicts.append_column("alert", alert_column(verdicts, result.checklist))
    rows = verdicts.take(pc.sort_indices(verdicts["row_id"])).to_pylist()
    root = ET.Element("testsuites", name="auditor")
    suites: dict[str, tuple[ET.Element, dict[str, int]]] = {}
    for row in rows:
        path = row["source_path"]
        if path not in suites:
            element = ET.SubElement(root, "testsuite", name=_clean(path))
            suites[path] = (element, {"tests": 0, "failures": 0, "skipped": 0})
        element, counts = suites[path]
        state = _case(element, row, row["row_id"] in failing)
        counts["tests"] += 1
        counts["failures"] += state == "failed"
        counts["skipped"] += state == "skipped"
    grand = {"tests": 0, "failures": 0, "skipped": 0}
    for element, counts in suites.values():
        for name, value in counts.items():
            element.set(name, str(value))
            grand[name] += value
        element.set("errors", "0")
        element.set("time", "0")
    for name, value in grand.items():
        root.set(name, str(value))
    root.set("errors", "0")
    ET.indent(root)
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document + b"\n"


def write_junit(result: AuditResult, path: Path, fail_on: Sequence[str] = ()) -> None:
    """Write the JUnit XML report to `path` atomically."""
    atomic_write_bytes(path, junit_xml(result, fail_on))


class JunitReport(ReportFormat):
    """`--junit FILE`: the JUnit XML at its own path; `--report junit` (`path` `None`):
    `junit.xml` in the report folder, in its manifest."""

    def __init__(self, path: Path | None, fail_on: Sequence[str] = ()) -> None:
        self.path = path
        self.fail_on = tuple(fail_on)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write the JUnit XML to `path` (else `out_dir/junit.xml`) atomically; return it."""
        path = out_dir / "junit.xml" if self.path is None else self.path
        write_junit(view.result, path, self.fail_on)
        return [path]
