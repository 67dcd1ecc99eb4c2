"""Report formats: Parquet, CSV, HTML and JSON files, console summary, CI annotations, JUnit.

`write_reports` writes every file format into one folder; each format lives in its own module
behind `auditor.report.interface.ReportFormat` and renders the final tables without deciding
anything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.report.interface import ReportFormat
    from auditor.report.view import ReportView
    from auditor.result import AuditResult

__all__ = ["FORMATS", "LARGE_FORMATS", "LISTED_ROWS", "row_list", "write_reports"]

#: Above this many rows a page or a JSON list of every row helps nobody (a million rows make a
#: page no browser opens): the tables carry every row, `report.json` the totals.
LISTED_ROWS = 50_000


def row_list(result: AuditResult) -> str:
    """The report file that lists every row for a reader: `report.html`, or `verdicts.csv` for
    a run of more than `LISTED_ROWS` rows (which gets no page)."""
    return "verdicts.csv" if result.verdicts.num_rows > LISTED_ROWS else "report.html"


@cache
def _formats(large: bool) -> tuple[ReportFormat, ...]:
    """The file formats `write_reports` writes, in order: `LARGE_FORMATS` for a run of more than
    `LISTED_ROWS` rows, else `FORMATS`."""
    # imported on first use: `auditor load` needs only `report.terminal`, not jinja2 and Parquet,
    # and a large run no jinja2
    from auditor.report.csv import CsvReport
    from auditor.report.parquet import ParquetReport

    if large:
        from auditor.report.json import JsonSummaryReport

        return (ParquetReport(), CsvReport(), JsonSummaryReport())
    from auditor.report.html import HtmlReport
    from auditor.report.json import JsonReport

    return (ParquetReport(), CsvReport(), HtmlReport(), JsonReport())


def __getattr__(name: str) -> tuple[ReportFormat, ...]:
    if name in ("FORMATS", "LARGE_FORMATS"):
        return _formats(name == "LARGE_FORMATS")
    raise AttributeError(name)


def write_reports(
    view: ReportView,
    out_dir: Path,
    *,
    finish: Callable[[Path], None] | None = None,
    sign_manifest: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[Path]:
    """Write verdicts/checklist (and duplicates, when any) as Parquet and CSV, `report.html` and
    `report.json` into `out_dir` as one set (`auditor.files.report_set`: staged, moved in,
    `manifest.json` last); return the paths written. A run of more than `LISTED_ROWS` rows gets
    no `report.html`, and its `report.json` holds the totals only.

    The formats are written side by side in threads. `finish(staging)` runs on the staged set
    before it is moved in (signing `report.json`); `sign_manifest` signs `manifest.json`, whose
    SHA-256 of every file makes one signature cover the whole set (`auditor.signed_set`).
    Raises `OSError` naming the path when `out_dir` cannot be created or written, or
    `OutputBusy` when another run is writing into it.
    """
    from auditor.files import report_set, side_by_side
    from auditor.memory import give_back

    give_back()  # building the view's columns: freed before the writers' buffers come
    formats = _formats(view.result.verdicts.num_rows > LISTED_ROWS)
    with report_set(out_dir, sign=sign_manifest) as staging:
        written = side_by_side([partial(f.write, view, staging) for f in formats])
        names = [p.name for paths in written for p in paths]
        if finish is not None:
            finish(staging)
    return [out_dir / name for name in names]
