"""A worker reads its own piece of the references: its row groups, or its bibliography files.

Runs on the worker, never on the driver. A Parquet piece is read with `read_row_groups` through
fsspec (a local file or an object-store URL), so a worker holds only its rows; bibliography
files are read by the loaders and their `row_id`s shifted to the piece's offset. Either way the
table is the one the single-process run would hold for those rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from auditor.errors import InputError
from auditor.load import LoadOutcome, load_files
from auditor.load.table import load_table_piece
from auditor.partitions.plan import Piece, _fs, file_digest
from auditor.result import InputFile
from auditor.tables import DEFAULT_CRITERIA

__all__ = ["ReadOptions", "count_rows", "read_piece"]


@dataclass(frozen=True)
class ReadOptions:
    """How the inputs are read (the `audit` command's `--input-format`, `--map`, legs)."""

    input_format: str | None = None
    csv_map: Mapping[str, str] | None = None
    encoding: str | None = None
    closed_legs: frozenset[str] = frozenset()
    criteria: str = DEFAULT_CRITERIA
    """The run's criteria id: whether a manuscript's citation by identifier needs a title."""


def _read_table(piece: Piece, options: ReadOptions) -> LoadOutcome:
    import pyarrow.parquet as pq

    path = piece.paths[0]
    fs, inner = _fs(path)
    try:
        with fs.open(inner, "rb") as handle:
            raw = pq.ParquetFile(handle).read_row_groups(list(piece.row_groups))
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InputError(f"{path}: cannot read as parquet ({exc})") from None
    loaded = load_table_piece(
        path,
        raw,
        first_line=piece.first_line,
        offset=piece.offset,
        column_map=options.csv_map,
        closed_legs=options.closed_legs,
    )
    digest = file_digest(path) if piece.first_of_file else ""
    inputs = (InputFile(path, digest, "parquet", loaded.table.num_rows),)
    return LoadOutcome(loaded.table, loaded.problems, inputs)


def _load(piece: Piece, options: ReadOptions) -> LoadOutcome:
    if piece.byte_range:
        from auditor.partitions.ranges import load_range

        return load_range(piece, options)
    return load_files(
        list(piece.paths),
        fmt=options.input_format,
        encoding=options.encoding,
        csv_map=options.csv_map,
        closed_legs=options.closed_legs,
        criteria=options.criteria,
    )


def count_rows(piece: Piece, options: ReadOptions) -> int:
    """Rows the bibliography files of `piece` load to (the plan's counting step)."""
    rows: int = _load(piece, options).table.num_rows
    return rows


def read_piece(piece: Piece, options: ReadOptions) -> LoadOutcome:
    """The classified `references` rows of `piece`, with the single-process run's `row_id`s.

    Raises `InputError` for a file that cannot be read, as `load_files` does.
    """
    if piece.is_table:
        return _read_table(piece, options)
    loaded = _load(piece, options)
    table = loaded.table
    if piece.offset:
        at = table.schema.get_field_index("row_id")
        shifted = pc.add(table["row_id"], pa.scalar(piece.offset, pa.int64()))
        table = table.set_column(at, table.schema.field(at), shifted)
    return LoadOutcome(table, loaded.problems, loaded.inputs)
