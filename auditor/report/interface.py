"""The report-format interface (formats write through `auditor.files`).

A format renders the final tables of an `AuditResult` and decides nothing: verdicts, priorities
and the policy are computed by the stages. Each format writes its files atomically (a temporary
file beside the target, then `os.replace`), so a reader never sees half a report.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from auditor.files import atomic_write_bytes, atomic_write_text
from auditor.result import AuditResult

__all__ = ["ReportFormat", "atomic_write_bytes", "atomic_write_text"]


class ReportFormat(ABC):
    """One output format (Parquet, CSV, HTML, JSON)."""

    @abstractmethod
    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Write this format's files into `out_dir` (created if absent); return their paths.

        A file is created only when there is something to write (e.g. no duplicates file when
        there are no duplicate groups). Raises `OSError` when the folder cannot be written.
        """
