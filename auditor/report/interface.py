"""The report-format interface and the atomic file writing every format shares.

A format renders the final tables of an `AuditResult` and decides nothing: verdicts, priorities
and the policy are computed by the stages. Each format writes its files atomically (a temporary
file beside the target, then `os.replace`), so a reader never sees half a report.
"""

from __future__ import annotations

import os
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path

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


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to `path` through a temporary file beside it and `os.replace`; return `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Leave no temporary file behind when the write or the rename fails.
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: Path, text: str, *, bom: bool = False) -> Path:
    """Write `text` as UTF-8 (with a byte-order mark when `bom`) atomically; return `path`."""
    data = text.encode("utf-8")
    return atomic_write_bytes(path, (b"\xef\xbb\xbf" + data) if bom else data)
