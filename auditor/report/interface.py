"""The output interface: every output of a run (files, terminal, CI) is one `ReportFormat`.

An output renders the run's `report.view.ReportView` (built once) and decides nothing: verdicts,
priorities and the policy are computed by the stages. File outputs (Parquet, CSV, HTML, JSON in the
report folder; JUnit at its own path) write atomically through `auditor.files` (a temporary file
beside the target, then `os.replace`), so a reader never sees half a report. Stream outputs (the
console summary, the findings list, GitHub annotations, the `--json` summary) are built with the
stream or console they print on and write no file. What an output needs besides the result (a path,
a stream, the `--fail-on` list) is given to its constructor.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from auditor.files import atomic_write_bytes, atomic_write_text
from auditor.report.view import ReportView

__all__ = ["ReportFormat", "atomic_write_bytes", "atomic_write_text"]


class ReportFormat(ABC):
    """One output of a run: Parquet, CSV, HTML, JSON, JUnit, console, findings, annotations."""

    @abstractmethod
    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write this output of `view` (the run's `ReportView`, built once); return the files
        written (none for a stream).

        `out_dir` is the report folder: file formats write there (created if absent), stream
        outputs may name it. A file is created only when there is something to write (e.g. no
        duplicates file when there are no duplicate groups). Raises `OSError` when a file cannot
        be written.
        """
