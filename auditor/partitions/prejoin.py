"""The snapshot joined once for the whole run, one task per chunk of it, not once per piece.

Why: a piece's identifiers are spread over the whole snapshot (a thesis cites DOIs of every
year and publisher), so a piece that joins on its own decodes the record columns of every row
group that holds one of its hits, which is all of them: 2.6 s of a 6.8 s piece of 100,000 rows
against 10,000,000 records, the same as for 1,000,000 keys (`benchmarks/RESULTS.md`, *cluster*).
Twenty pieces decoded the snapshot twenty times.

Here each piece first writes its distinct keys (`write_keys`); then each chunk of the snapshot
(consecutive row groups of one file, `plan_chunks`) is read by one task (`join_chunk`), which
matches it against the keys of every piece and writes each piece's hits to
`_parts/found/part-P/chunk-C.parquet`. A piece then resolves against its own few files alone
(`snapshot.prejoined`). The snapshot's rule is kept: only definitive rows of primary registers
answer, a later row of a chunk wins, and a later chunk (a later row group, a later file) wins
over an earlier one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from auditor.errors import InputError
from auditor.partitions import layout
from auditor.tables import RECORDS
from auditor.transport.snapshot import (
    IDENTITY,
    SIDE_REGISTERS,
    _connect,
    conform,
    literal_path,
    snapshot_files,
)

__all__ = ["Chunk", "found_files", "join_chunk", "plan_chunks", "write_keys"]

#: Snapshot rows per chunk task: each task reads the keys of the whole run once.
CHUNK_ROWS = 1 << 20
#: The statuses that answer (`snapshot._DEFINITIVE`).
_DEFINITIVE = pa.array(["found", "not_found", "not_covered"], pa.string())
_KEY = ["id_type", "identifier"]


@dataclass(frozen=True)
class Chunk:
    """One join task's share of the snapshot: consecutive row groups of one file."""

    index: int
    """Position in snapshot order: a later chunk wins for the same key."""
    path: str
    row_groups: tuple[int, ...]
    low: str | None = None
    """The least `identifier` of the chunk from the footer (`None`: no statistics)."""
    high: str | None = None


def _bounds(meta: pq.FileMetaData, groups: Sequence[int], column: int) -> tuple[Any, Any]:
    lows, highs = [], []
    for g in groups:
        stats = meta.row_group(g).column(column).statistics
        # A writer may cut long strings in its statistics: then the range is no bound.
        exact = getattr(stats, "is_min_value_exact", True) and getattr(
            stats, "is_max_value_exact", True
        )
        if stats is None or not stats.has_min_max or not exact:
            return None, None
        lows.append(stats.min)
        highs.append(stats.max)
    low, high = min(lows), max(highs)
    return (low, high) if isinstance(low, str) and isinstance(high, str) else (None, None)


def plan_chunks(snapshots: Sequence[str]) -> list[Chunk]:
    """The chunks of the snapshot `paths`, in the order their rows take precedence.

    Reads footers only. Raises `InputError` as `snapshot_files` does.
    """
    chunks: list[Chunk] = []
    for path in snapshot_files(snapshots):
        meta = pq.ParquetFile(path).metadata
        column = meta.schema.to_arrow_schema().get_field_index("identifier")
        cuts: list[list[int]] = [[]]
        rows = 0
        for g in range(meta.num_row_groups):
            if cuts[-1] and rows >= CHUNK_ROWS:
                cuts.append([])
                rows = 0
            cuts[-1].append(g)
            rows += meta.row_group(g).num_rows
        for groups in filter(None, cuts):
            low, high = _bounds(meta, groups, column)
            chunks.append(Chunk(len(chunks), path, tuple(groups), low, high))
    return chunks


def write_keys(out: Path, index: int, references: pa.Table) -> None:
    """Stage the distinct `(id_type, identifier)` of piece `index` (a superset of what its
    resolve asks the snapshot: every row with both)."""
    both = pc.and_(
        pc.fill_null(pc.not_equal(references["id_type"], ""), False),
        pc.fill_null(pc.not_equal(references["identifier"], ""), False),
    )
    keys = references.filter(both).select(_KEY).cast(_key_schema())
    keys = keys.group_by(_KEY, use_threads=False).aggregate([])
    piece = pa.array(np.full(keys.num_rows, index, dtype=np.int32))
    layout.write_part(layout.staged(out, "keys", index), keys.append_column("piece", piece))


def _key_schema() -> pa.Schema:
    return pa.schema([pa.field(name, pa.string()) for name in _KEY])


def _wanted(out: Path, chunk: Chunk) -> pa.Table:
    """The keys of every piece that can be in `chunk` (by its identifier range, when known)."""
    import pyarrow.dataset as ds

    files = sorted(str(p) for p in (out / layout.STAGING / "keys").glob("part-*.parquet"))
    if not files:
        return _key_schema().append(pa.field("piece", pa.int32())).empty_table()
    where = None
    if chunk.low is not None and chunk.high is not None:
        field = pc.field("identifier")
        where = (field >= chunk.low) & (field <= chunk.high)
    return ds.dataset(files, format="parquet").to_table(filter=where)


#: Identity rows read at a time: a 1M-row group's four columns whole would be 100+ MB.
_BATCH = 1 << 16
_IDENTITY = pa.schema([(name, pa.string()) for name in IDENTITY])


def _answers(file: pq.ParquetFile, group: int, asked: pa.Table) -> tuple[pa.Table, np.ndarray]:
    """`(keys, rows)`: the definitive primary rows of one row group whose key is asked, by
    their row number in the group; reads the identity columns alone, a batch at a time."""
    keys, rows, start = [], [], 0
    batches = file.iter_batches(_BATCH, row_groups=[group], columns=list(IDENTITY))
    for batch in batches:
        ident = pa.Table.from_batches([batch]).select(list(IDENTITY)).cast(_IDENTITY)
        answers = pc.fill_null(pc.is_in(ident["status"], value_set=_DEFINITIVE), False)
        for name in sorted(SIDE_REGISTERS):
            # As the snapshot's own join: a row without a register is no primary answer.
            answers = pc.and_(answers, pc.fill_null(pc.not_equal(ident["register"], name), False))
        at = np.flatnonzero(answers.to_numpy(zero_copy_only=False))
        mine = ident.select(_KEY).take(pa.array(at, pa.int64()))
        mine = mine.append_column("_row", pa.array(at + start, pa.int64()))
        hit = mine.join(asked, _KEY, join_type="left semi", use_threads=False)
        keys.append(hit.select(_KEY))
        rows.append(hit["_row"].to_numpy())
        start += batch.num_rows
    if not keys:
        return _key_schema().empty_table(), np.zeros(0, np.int64)
    return pa.concat_tables(keys), np.concatenate(rows)


#: The record columns of the hit rows, a group of columns per query. DuckDB prunes the row
#: groups outside the hits' row numbers and decodes only the rows it needs (0.5 s for 185,000
#: rows of a 1M-row group, where Arrow's `read_row_group` then `take` costs 2.5 s); but it holds
#: the column chunks of what it reads, so all columns at once peak 250 MB above the process, the
#: title alone 110 MB. Names are the `RECORDS` constants; a column the file lacks is skipped
#: (`COLUMNS`), and `conform` makes it null. The path is a parameter.
_WIDE = ("title", "authors", "surnames")
_GROUPS = (*((name,) for name in _WIDE), tuple(n for n in RECORDS.names if n not in _WIDE))
_FETCHES = tuple(
    "SELECT COLUMNS(lambda c: list_contains(["
    + ", ".join(f"'{name}'" for name in (*group, "file_row_number"))
    + "], c)) FROM read_parquet($files, file_row_number = true) AS s"
    " SEMI JOIN hits AS h ON s.file_row_number = h.hit_row"
    for group in _GROUPS
)


def _fetch(path: str, rows: np.ndarray) -> pa.Table:
    """The rows of `path` at file row numbers `rows` (ascending), in that order, as `RECORDS`."""
    columns: dict[str, pa.ChunkedArray] = {}
    con = _connect()
    try:
        con.register("hits", pa.table({"hit_row": pa.array(rows, pa.int64())}))
        for at in range(len(_FETCHES)):
            part = con.sql(_FETCHES[at], params={"files": [literal_path(path)]}).to_arrow_table()
            part = part.take(pc.sort_indices(part["file_row_number"]))
            columns.update((n, part[n]) for n in part.column_names if n != "file_row_number")
    except duckdb.Error as exc:
        raise InputError(f"snapshot {path}: {exc}") from None
    finally:
        con.close()
    return conform(pa.table(columns) if columns else pa.table({"_": pa.nulls(len(rows))}))


def join_chunk(chunk: Chunk, out: str) -> int:
    """Match `chunk` against every piece's keys; write each piece's hits (one row per key,
    the chunk's newest, as `RECORDS`). Returns the rows written. Raises `InputError` for a
    snapshot file that cannot be read."""
    root = Path(out)
    wanted = _wanted(root, chunk)
    if wanted.num_rows == 0:
        return 0
    asked = wanted.select(_KEY).group_by(_KEY, use_threads=False).aggregate([])
    file = pq.ParquetFile(chunk.path)
    starts = np.cumsum(
        [0] + [file.metadata.row_group(g).num_rows for g in range(chunk.row_groups[-1])]
    )
    keys, rows = [], []
    for group in chunk.row_groups:
        hit, at = _answers(file, group, asked)
        keys.append(hit)
        rows.append(at + starts[group])
    hits = pa.concat_tables(keys).append_column("_row", pa.array(np.concatenate(rows), pa.int64()))
    if hits.num_rows == 0:
        return 0
    # A later row wins for the same key (as in `snapshot._newest_hits`): keep each key's last.
    last = hits.group_by(_KEY, use_threads=False).aggregate([("_row", "max")])
    found = _fetch(chunk.path, np.sort(last["_row_max"].to_numpy()))
    return _write_by_piece(root, chunk, found, wanted)


def _write_by_piece(root: Path, chunk: Chunk, found: pa.Table, wanted: pa.Table) -> int:
    at = pa.array(np.arange(found.num_rows), pa.int64())
    pairs = found.select(_KEY).append_column("_at", at).join(wanted, _KEY, use_threads=False)
    written = 0
    pieces = pairs["piece"].to_numpy()
    order = np.argsort(pieces, kind="stable")
    bounds = np.flatnonzero(np.diff(pieces[order])) + 1
    for share in np.split(order, bounds):
        if len(share) == 0:
            continue
        rows = pc.sort_indices(pairs["_at"].take(pa.array(share, pa.int64())))
        mine = found.take(pairs["_at"].take(pa.array(share, pa.int64())).take(rows))
        layout.write_part(_found_path(root, int(pieces[share[0]]), chunk.index), mine)
        written += mine.num_rows
    return written


def _found_path(root: Path, piece: int, chunk: int) -> Path:
    return layout.staged(root, "found", piece).with_suffix("") / f"chunk-{chunk:05d}.parquet"


def found_files(out: Path, index: int) -> list[str]:
    """Piece `index`'s hits, one file per chunk that had any, in chunk order."""
    folder = layout.staged(out, "found", index).with_suffix("")
    return sorted(str(p) for p in folder.glob("chunk-*.parquet"))
