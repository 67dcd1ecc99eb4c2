"""Report formats: Parquet, CSV, HTML and JSON files, console summary, CI annotations, JUnit.

`write_reports` writes every file format into one folder; each format lives in its own module
behind `auditor.report.interface.ReportFormat` and renders the final tables without deciding
anything.
"""

from __future__ import annotations

from pathlib import Path

from auditor.report.csv import CsvReport
from auditor.report.html import HtmlReport
from auditor.report.interface import ReportFormat
from auditor.report.json import JsonReport
from auditor.report.parquet import ParquetReport
from auditor.result import AuditResult

__all__ = ["FORMATS", "write_reports"]

#: The file formats `write_reports` writes, in order.
FORMATS: tuple[ReportFormat, ...] = (ParquetReport(), CsvReport(), HtmlReport(), JsonReport())


def write_reports(result: AuditResult, out_dir: Path) -> list[Path]:
    """Write verdicts/checklist (and duplicates, when any) as Parquet and CSV, `report.html` and
    `report.json` into `out_dir`, each atomically; return the paths written.

    Raises `OSError` when `out_dir` cannot be created or written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for fmt in FORMATS:
        written += fmt.write(result, out_dir)
    return written
