"""Report formats: Parquet, CSV, HTML and JSON files, console summary, CI annotations, JUnit.

`write_reports` writes every file format into one folder; each format lives in its own module
behind `auditor.report.interface.ReportFormat` and renders the final tables without deciding
anything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from auditor.report.interface import ReportFormat
    from auditor.result import AuditResult

__all__ = ["FORMATS", "write_reports"]


@cache
def _formats() -> tuple[ReportFormat, ...]:
    # imported on first use: `auditor load` needs only `report.terminal`, not jinja2 and Parquet
    from auditor.report.csv import CsvReport
    from auditor.report.html import HtmlReport
    from auditor.report.json import JsonReport
    from auditor.report.parquet import ParquetReport

    return (ParquetReport(), CsvReport(), HtmlReport(), JsonReport())


def __getattr__(name: str) -> tuple[ReportFormat, ...]:
    #: `FORMATS`: the file formats `write_reports` writes, in order.
    if name == "FORMATS":
        return _formats()
    raise AttributeError(name)


def write_reports(
    result: AuditResult, out_dir: Path, *, finish: Callable[[Path], None] | None = None
) -> list[Path]:
    """Write verdicts/checklist (and duplicates, when any) as Parquet and CSV, `report.html` and
    `report.json` into `out_dir` as one set (`auditor.files.report_set`: staged, moved in,
    `manifest.json` last); return the paths written.

    `finish(staging)` runs on the staged set before it is moved in (signing `report.json`).
    Raises `OSError` naming the path when `out_dir` cannot be created or written, or
    `OutputBusy` when another run is writing into it.
    """
    from auditor.files import report_set

    with report_set(out_dir) as staging:
        names: list[str] = []
        for fmt in _formats():
            names += [p.name for p in fmt.write(result, staging)]
        if finish is not None:
            finish(staging)
    return [out_dir / name for name in names]
