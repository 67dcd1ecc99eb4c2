"""Writing files atomically: a temporary file beside the target, then `os.replace`.

A reader (a CI job, a browser, the next run) never sees half a file, and a failed write leaves
no temporary file behind. Every file the auditor writes goes through here.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["atomic_write_bytes", "atomic_write_parquet", "atomic_write_text", "table_bytes"]


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


def table_bytes(table: pa.Table) -> bytes:
    """The Parquet file of `table` as bytes (schema and column types kept)."""
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def atomic_write_parquet(path: Path, table: pa.Table) -> Path:
    """Write `table` as Parquet at `path` atomically; return `path`."""
    return atomic_write_bytes(path, table_bytes(table))
