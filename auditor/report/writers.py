"""The writers of each report in `choice.REPORTS`: the registry's other half.

Kept apart from `choice` so that the writers, which render a `view.ReportView`, import the choice
and not the other way round. Each writer is imported on first use: `auditor load` needs no
jinja2, nor a run that asks for no page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from auditor.report.choice import ReportChoice
from auditor.report.interface import ReportFormat

__all__ = ["writers"]


def _parquet(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.parquet import ParquetReport

    return [ParquetReport(("verdicts", "duplicates"))]


def _csv(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.csv import CsvReport

    return [CsvReport(("verdicts", "duplicates"))]


def _checklist(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.csv import CsvReport
    from auditor.report.parquet import ParquetReport

    return [ParquetReport(("checklist",)), CsvReport(("checklist",))]


def _html(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    if choice.large:  # a page of a million rows helps nobody: the summary page
        from auditor.report.summary_page import HtmlSummaryReport

        return [HtmlSummaryReport()]
    from auditor.report.html import HtmlReport

    return [HtmlReport()]


def _json(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.json import JsonReport, JsonSummaryReport

    return [JsonSummaryReport() if choice.large else JsonReport()]


def _junit(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.junit import JunitReport

    return [JunitReport(None, choice.fail_on)]


def _submissions(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    from auditor.report.submissions import SubmissionsReport

    own = tuple(n for n in choice.names if n != "submissions")
    return [SubmissionsReport(out_dir, own, writers)]


_MAKERS: dict[str, Callable[[ReportChoice, Path], list[ReportFormat]]] = {
    "parquet": _parquet,
    "csv": _csv,
    "checklist": _checklist,
    "html": _html,
    "json": _json,
    "junit": _junit,
    "submissions": _submissions,
}


def writers(choice: ReportChoice, out_dir: Path) -> list[ReportFormat]:
    """The writers of every report `choice` names, in `choice.REPORTS` order; `out_dir` is the
    final report folder (the submissions report compares with the earlier run it holds)."""
    return [w for name in choice.names for w in _MAKERS[name](choice, out_dir)]
