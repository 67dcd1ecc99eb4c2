"""The editor's screening view (`--report submissions`): `submissions.parquet`/`.csv`, the index
`submissions.html` and one report folder per manuscript.

Each manuscript (one input file) gets the run's other reports written on its own rows, in a
folder named by `submissions_table.folder_names` (no separator or `..` from a file name, two
files of one name told apart). When the output folder holds an earlier run's
`submissions.parquet` and `verdicts.parquet`, each manuscript's `changes` says what moved since:
counts, references added or removed, verdicts changed. The index is the autoescaped template
`submissions.html.j2`; CSV cells are defused as in `verdicts.csv`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from auditor.files import atomic_write_parquet
from auditor.report.choice import ReportChoice
from auditor.report.csv import csv_bytes
from auditor.report.interface import ReportFormat, atomic_write_bytes, atomic_write_text
from auditor.report.submissions_table import (
    COUNTS,
    MANUSCRIPTS,
    SUBMISSIONS,
    changes_since,
    folder_names,
    submission_rows,
)
from auditor.report.view import ReportView, build_view
from auditor.result import AuditResult

__all__ = ["SubmissionsReport", "manuscript_result"]


def manuscript_result(result: AuditResult, path: str) -> AuditResult:
    """`result` cut down to the rows read from `path` (records kept whole: a join table)."""
    mine = result.verdicts.filter(pc.equal(result.verdicts["source_path"], path))
    ids = mine["row_id"]

    def rows_of(table: pa.Table) -> pa.Table:
        return table.filter(pc.is_in(table["row_id"], value_set=ids.combine_chunks()))

    run = result.run
    if run is not None:
        inputs = tuple(i for i in run.inputs if i.path == path)
        problems = tuple(p for p in run.load_problems if p.path == path)
        run = dataclasses.replace(run, inputs=inputs, load_problems=problems)
    return dataclasses.replace(
        result,
        references=rows_of(result.references),
        verdicts=mine,
        checklist=rows_of(result.checklist),
        duplicates=rows_of(result.duplicates),
        run=run,
    )


def _reference_verdicts(rows: pa.Table) -> dict[str, dict[str, str]]:
    """`{file: {reference: verdict}}`; a reference is named by its key, else its label, title
    or row number within the file."""
    out: dict[str, dict[str, str]] = {}
    cols = ("source_path", "key", "source_label", "title_claimed", "verdict")
    for n, row in enumerate(rows.select([c for c in cols if c in rows.column_names]).to_pylist()):
        name = row.get("key") or row.get("source_label") or row.get("title_claimed") or f"#{n + 1}"
        out.setdefault(row["source_path"], {})[str(name)] = row["verdict"]
    return out


def _previous(out_dir: Path) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, str]]]:
    """The earlier run's submissions by file and its reference verdicts; empty when the folder
    holds none or they cannot be read (a first run, or a damaged file: nothing to compare)."""
    try:
        before = pq.read_table(out_dir / "submissions.parquet").to_pylist()
        refs = pq.read_table(out_dir / "verdicts.parquet")
    except (OSError, pa.ArrowException):
        return {}, {}
    return {r["source_path"]: r for r in before}, _reference_verdicts(refs)


class SubmissionsReport(ReportFormat):
    """Writes the screening table and index, and each manuscript's reports in its folder."""

    def __init__(
        self,
        out_dir: Path,
        reports: tuple[str, ...],
        writers: Callable[[ReportChoice, Path], list[ReportFormat]],
    ) -> None:
        self.out_dir = out_dir
        """The final report folder, where an earlier run's tables are read from."""
        self.reports = reports
        """The reports written per manuscript (the run's own but this one)."""
        self.writers = writers
        """`report.writers.writers`, passed in: the registry imports this module."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `submissions.parquet`, `submissions.csv`, `submissions.html` and the folders."""
        from auditor.report.html import TEMPLATES

        result = view.result
        inputs = [i.path for i in result.run.inputs] if result.run else []
        paths = list(dict.fromkeys([*inputs, *pc.unique(view.rows["source_path"]).to_pylist()]))
        folders = folder_names(paths)
        table = self._with_changes(submission_rows(view.rows, paths, folders), view.rows)
        written = [
            atomic_write_parquet(out_dir / "submissions.parquet", table),
            atomic_write_bytes(out_dir / "submissions.csv", csv_bytes(table, bom=True)),
        ]
        page = TEMPLATES.get_template("submissions.html.j2").render(
            rows=table.to_pylist(),
            counts=COUNTS,
            compared=(self.out_dir / "submissions.parquet").exists(),
        )
        written.append(atomic_write_text(out_dir / "submissions.html", page))
        for path, folder in folders.items():
            own = build_view(manuscript_result(result, path), self.reports, view.choice.fail_on)
            sub = out_dir / MANUSCRIPTS / folder
            sub.mkdir(parents=True)
            for report in self.writers(own.choice, sub):
                report.write(own, sub)
        return written

    def _with_changes(self, table: pa.Table, rows: pa.Table) -> pa.Table:
        before, refs_before = _previous(self.out_dir)
        if not before:
            return table
        refs_now = _reference_verdicts(rows)
        changes = [
            changes_since(
                r,
                before.get(r["source_path"]),
                refs_now.get(r["source_path"], {}),
                refs_before.get(r["source_path"], {}),
            )
            for r in table.to_pylist()
        ]
        index = SUBMISSIONS.get_field_index("changes")
        return table.set_column(index, SUBMISSIONS.field("changes"), pa.array(changes, pa.string()))
