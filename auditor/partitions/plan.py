"""Which task reads what: references cut into pieces from file metadata, never from rows.

A Parquet references table (a file, a folder of `*.parquet`, a glob, or an fsspec URL such as
`s3://bucket/refs/`) is cut at row-group boundaries into pieces of about `partition_rows` rows;
only the footers are read here. Bibliography files are grouped, in order, into pieces of about
`partition_bytes` bytes by their sizes, so many small files share a task and a large one has its
own; a large BibTeX file is then cut into byte ranges on the workers
(`auditor.partitions.ranges`). Each piece knows its first `row_id` (Parquet: from the footers;
bibliographies: after a counting step on the workers, `auditor.partitions.read.count_rows`), so
the row ids are the ones the single-process run gives.

The driver holds this plan (one small object per piece), not the references.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from auditor.errors import InputError

__all__ = ["Piece", "expand", "file_digest", "plan_pieces"]

_PARQUET = (".parquet", ".pq")
_GLOB = frozenset("*?[")


@dataclass(frozen=True)
class Piece:
    """One task's share of the references."""

    index: int
    """Position in the plan: the `part-NNNNN` of every file the piece writes."""
    paths: tuple[str, ...]
    """A Parquet piece: one table (local path or URL); else the bibliography files, in order."""
    row_groups: tuple[int, ...] = ()
    """The Parquet row groups this piece reads (empty for bibliography files)."""
    first_line: int = 1
    """`source_line` of the piece's first row in its Parquet file, or the first line of its
    byte range."""
    rows: int | None = None
    """Rows in the piece; `None` for bibliography files until counted."""
    offset: int = 0
    """The `row_id` of the piece's first row."""
    size: int = 0
    """Bytes (bibliography files) or uncompressed bytes of the row groups (Parquet)."""
    first_of_file: bool = True
    """Whether the piece holds the first rows of its file (it digests the file)."""
    byte_range: tuple[int, ...] = ()
    """`(first byte, end byte)` of one range of a large BibTeX file (`ranges`); else empty."""

    @property
    def is_table(self) -> bool:
        """Whether the piece is row groups of a Parquet table."""
        return bool(self.row_groups) or (
            len(self.paths) == 1 and self.paths[0].lower().endswith(_PARQUET)
        )


def _fs(path: str) -> tuple[Any, str]:
    """`(fsspec filesystem, path inside it)` of a local path or URL."""
    from fsspec.core import url_to_fs

    fs, inner = url_to_fs(path)
    return fs, inner


def file_digest(path: str) -> str:
    """SHA-256 of the file at `path` (a local path or fsspec URL), read a megabyte at a time."""
    import hashlib

    fs, inner = _fs(path)
    sha = hashlib.sha256()
    with fs.open(inner, "rb") as handle:
        while chunk := handle.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def _shown(fs: Any, inner: str, given: str) -> str:
    """A found file named as the user would: a URL keeps its protocol, a local path stays."""
    return str(fs.unstrip_protocol(inner)) if "://" in given else inner


def expand(inputs: Sequence[str]) -> list[str]:
    """Every file the inputs name, in order: a folder gives its Parquet files (sorted, nested
    folders included: a hive-partitioned dataset), a glob its matches (sorted).

    Raises `InputError` for an input that names nothing.
    """
    out: list[str] = []
    for given in inputs:
        fs, inner = _fs(given)
        if _GLOB & set(inner):
            found = sorted(fs.glob(inner))
        elif fs.isdir(inner):
            found = sorted(p for p in fs.find(inner) if p.lower().endswith(_PARQUET))
        else:
            found = [inner] if fs.exists(inner) else []
        if not found:
            raise InputError(f"{given}: no such file, or no Parquet files in it")
        out.extend(_shown(fs, p, given) for p in found)
    return out


def _table_pieces(path: str, rows_per_piece: int, start: int, offset: int) -> list[Piece]:
    """The pieces of one Parquet file: consecutive row groups up to `rows_per_piece` rows."""
    import pyarrow.parquet as pq

    fs, inner = _fs(path)
    try:
        with fs.open(inner, "rb") as handle:
            meta = pq.ParquetFile(handle).metadata
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read as parquet ({exc})") from None
    # Consecutive row groups, cut where the next one would pass `rows_per_piece`.
    cuts: list[list[int]] = [[]]
    rows = 0
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        if cuts[-1] and rows + n > rows_per_piece:
            cuts.append([])
            rows = 0
        cuts[-1].append(g)
        rows += n
    pieces: list[Piece] = []
    line = 1
    for groups in cuts:
        rows = sum(meta.row_group(g).num_rows for g in groups)
        size = sum(meta.row_group(g).total_byte_size for g in groups)
        index = start + len(pieces)
        pieces.append(Piece(index, (path,), tuple(groups), line, rows, offset, size, line == 1))
        line += rows
        offset += rows
    return pieces


def _file_groups(paths: Iterable[str], partition_bytes: int) -> list[list[tuple[str, int]]]:
    """Consecutive files grouped until a group would pass `partition_bytes`."""
    groups: list[list[tuple[str, int]]] = []
    total = 0
    for path in paths:
        fs, inner = _fs(path)
        size = int(fs.size(inner) or 0)
        if not groups or total + size > partition_bytes:
            groups.append([])
            total = 0
        groups[-1].append((path, size))
        total += size
    return groups


def plan_pieces(inputs: Sequence[str], partition_rows: int, partition_bytes: int) -> list[Piece]:
    """The pieces of a run's inputs, in row order (see the module docstring).

    Tables and bibliographies are not mixed in one run (as `load_tables` rules). Raises
    `InputError` for an input that names nothing or a table that cannot be read.
    """
    files = expand(inputs)
    tables = [f for f in files if PurePosixPath(f).suffix.lower() in _PARQUET]
    if tables and len(tables) != len(files):
        other = next(f for f in files if f not in tables)
        raise InputError(f"{other}: not a references table; audit tables and bibliographies apart")
    if tables:
        pieces: list[Piece] = []
        offset = 0
        for path in tables:
            made = _table_pieces(path, max(partition_rows, 1), len(pieces), offset)
            offset += sum(p.rows or 0 for p in made)
            pieces.extend(made)
        return pieces
    return [
        Piece(n, tuple(p for p, _ in group), size=sum(s for _, s in group))
        for n, group in enumerate(_file_groups(files, max(partition_bytes, 1)))
    ]


def with_counts(pieces: Sequence[Piece], counts: Sequence[int]) -> list[Piece]:
    """Bibliography pieces with their counted rows and the row offsets those give."""
    out: list[Piece] = []
    offset = 0
    for piece, rows in zip(pieces, counts, strict=True):
        out.append(dataclasses.replace(piece, rows=rows, offset=offset))
        offset += rows
    return out
