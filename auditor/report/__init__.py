"""Report formats: Parquet, CSV, HTML and JSON files, console summary, CI annotations, JUnit.

`write_reports` writes the reports a run chose (`auditor.report.choice`: `--report`, else the
defaults sized to the run) into one folder; each format lives in its own module behind
`auditor.report.interface.ReportFormat` and renders the final tables without deciding anything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor.report.choice import LISTED_ROWS

if TYPE_CHECKING:
    from auditor.report.view import ReportView

__all__ = ["LISTED_ROWS", "write_reports"]


def write_reports(
    view: ReportView,
    out_dir: Path,
    *,
    finish: Callable[[Path], None] | None = None,
    sign_manifest: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[Path]:
    """Write the reports of `view.choice` into `out_dir` as one set (`auditor.files.report_set`:
    staged, moved in, `manifest.json` last, files of an earlier set that this one lacks
    removed); return the paths written. By default a run of at most `LISTED_ROWS` rows gets
    verdicts, checklist (and duplicates, when any) as Parquet and CSV, `report.html` and
    `report.json`; a larger one no `verdicts.csv`, a summary page and a `report.json` of totals.

    The formats are written side by side in threads. `finish(staging)` runs on the staged set
    before it is moved in (signing `report.json`); `sign_manifest` signs `manifest.json`, whose
    SHA-256 of every file makes one signature cover exactly the set written
    (`auditor.signed_set`). Raises `OSError` naming the path when `out_dir` cannot be created or
    written, or `OutputBusy` when another run is writing into it.
    """
    from auditor.files import report_set, side_by_side
    from auditor.memory import give_back
    from auditor.report.writers import writers

    give_back()  # building the view's columns: freed before the writers' buffers come
    formats = writers(view.choice, out_dir)
    with report_set(out_dir, sign=sign_manifest) as staging:
        written = side_by_side([partial(f.write, view, staging) for f in formats])
        names = [p.name for paths in written for p in paths]
        if finish is not None:
            finish(staging)
    return [out_dir / name for name in names]
