"""CSV outputs that open cleanly in Excel and LibreOffice.

UTF-8 with a byte-order mark (so Excel detects the encoding), lists joined with `; `, nulls as
empty cells. Text a spreadsheet would run as a formula gets a `'` in front: bibliography text is
untrusted, and a user may open the file splitting on `;`, tab or `|` rather than `,`, so every
piece that *starts* a cell under any of those splits is guarded, not only the cell's start
(`harmless;=1+1;x` becomes `harmless;'=1+1;x`). A piece starts a formula when its first
non-space character is `=`, `+`, `-`, `@` or a control character (tab, CR, LF …).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from auditor.column_idioms import string_bytes
from auditor.files import atomic_write_with, side_by_side
from auditor.report.interface import ReportFormat
from auditor.report.view import TABLES, ReportView, report_tables
from auditor.report.words import update_text

__all__ = ["CsvReport", "LIST_SEPARATOR", "csv_bytes", "table_csv"]

#: How list cells (authors, links, sources tried) are joined.
LIST_SEPARATOR = "; "

_OPTIONS = pacsv.WriteOptions(quoting_style="needed")

#: Where a spreadsheet may start a cell: the text's start, or after a delimiter it may split on.
_PIECE_START = re.compile("(^|[,;\t|])( *)(?=[=+\\-@\x00-\x1f\x7f])")


def _defuse(value: str | None) -> str | None:
    """Put `'` before every piece of `value` a spreadsheet would evaluate (CSV injection)."""
    if not value:
        return value
    return _PIECE_START.sub(r"\1\2'", value)


#: The same test as `_PIECE_START` for Arrow's RE2 (no look-ahead): which cells need `_defuse`.
_NEEDS_DEFUSING = "(^|[,;\t|]) *[=+\\-@\x00-\x1f\x7f]"


def _defuse_column(column: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """`_defuse` over a whole column: the cells that may start a formula are found over its
    bytes, RE2 checks those, and only the cells it matches are rewritten; a column with none is
    returned as it is (joining its chunks cost as much as the scan)."""
    if column.null_count == len(column):
        return column  # nothing to scan (a column no row filled costs a full scan otherwise)
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    starts = np.cumsum([0, *(len(chunk) for chunk in chunks)])
    maybe = np.concatenate(
        [np.zeros(0, np.int64)]
        + [
            _may_start_a_formula(chunk) + start
            for chunk, start in zip(chunks, starts, strict=False)
        ]
    )
    if maybe.size == 0:
        return column
    found = pc.match_substring_regex(column.take(pa.array(maybe)), _NEEDS_DEFUSING)
    hits = maybe[pc.fill_null(found, False).to_numpy(zero_copy_only=False)]
    if hits.size == 0:
        return column
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    risky = np.zeros(len(column), dtype=bool)
    risky[hits] = True
    at = pa.array(hits)
    fixed = pa.array([_defuse(v) for v in column.take(at).to_pylist()], pa.string())
    return pc.replace_with_mask(column, risky, fixed)


# Bytes `_NEEDS_DEFUSING` looks for after a piece's start, and the bytes before such a byte that
# may end what comes before the piece (a delimiter, or a space that may run back to one).
_FORMULA_BYTES = (0x3D, 0x2B, 0x2D, 0x40, 0x7F)
_BEFORE_BYTES = (0x2C, 0x3B, 0x09, 0x7C, 0x20)


def _may_start_a_formula(column: pa.Array) -> np.ndarray:
    """Rows of a `string` column (others: every row) where `_NEEDS_DEFUSING` may match: a
    formula byte at the cell's start or after a delimiter or a space. A superset of the
    regex's matches, found over the bytes with no scan per cell."""
    if not pa.types.is_string(column.type):
        return np.arange(len(column), dtype=np.int64)
    offsets, values = string_bytes(column)
    if values.size == 0:
        return np.zeros(0, dtype=np.int64)
    formula = values < 0x20
    for byte in _FORMULA_BYTES:
        formula |= values == byte
    at = np.flatnonzero(formula)
    if at.size == 0:
        return at
    starts = offsets[:-1]
    starting = np.zeros(values.size + 1, dtype=bool)
    starting[starts] = True
    before = values[np.maximum(at - 1, 0)]
    maybe = starting[at] | (before < 0x20)  # \t is a delimiter, other controls are formulas
    for byte in _BEFORE_BYTES:
        maybe |= before == byte
    rows = np.searchsorted(starts, at[maybe], side="right") - 1
    return np.unique(rows)


def _updates_text(column: pa.ChunkedArray) -> pa.Array:
    """Update lists (retractions, corrections) as one line per update; only the rows that have
    a list are converted to Python (most rows of a large run have none)."""
    flat = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    filled = pc.is_valid(flat)
    texts = [LIST_SEPARATOR.join(map(update_text, v)) for v in flat.filter(filled).to_pylist()]
    return pc.replace_with_mask(
        pa.nulls(len(flat), pa.string()), filled, pa.array(texts, pa.string())
    )


def _flatten(table: pa.Table) -> pa.Table:
    """Lists joined with `LIST_SEPARATOR`, strings defused; other types unchanged.

    Each column on its own, two at a time in threads (Arrow kernels let go of the GIL): the
    columns of a large table are the longest step of writing its CSV.
    """
    with ThreadPoolExecutor(max_workers=2) as pool:
        flat = list(pool.map(_flat_column, table.schema, table.columns))
    return pa.Table.from_arrays(
        [column for _, column in flat], schema=pa.schema([field for field, _ in flat])
    )


def _flat_column(
    field: pa.Field, column: pa.ChunkedArray
) -> tuple[pa.Field, pa.ChunkedArray | pa.Array]:
    out: pa.ChunkedArray | pa.Array = column
    if pa.types.is_list(field.type) and pa.types.is_struct(field.type.value_type):
        out = _updates_text(column)
        field = pa.field(field.name, pa.string())
    elif pa.types.is_list(field.type):
        out = pc.binary_join(column, LIST_SEPARATOR)
        field = pa.field(field.name, pa.string())
    if pa.types.is_string(field.type):
        out = _defuse_column(out)
    return field.with_nullable(True), out


def table_csv(table: pa.Table) -> str:
    """`table` as CSV text (header row, lists joined, formulas defused), without a BOM."""
    return csv_bytes(table).decode("utf-8")


def csv_bytes(table: pa.Table, *, bom: bool = False) -> bytes:
    """`table_csv` as UTF-8 bytes (with a byte-order mark when `bom`), never decoded to text."""
    sink = io.BytesIO()
    if bom:
        sink.write(b"\xef\xbb\xbf")
    pacsv.write_csv(_flatten(table), sink, _OPTIONS)
    return sink.getvalue()


class CsvReport(ReportFormat):
    """Writes `verdicts.csv`, `checklist.csv` and (when any) `duplicates.csv`: those of them
    named in `tables`."""

    def __init__(self, tables: Sequence[str] = TABLES) -> None:
        self.tables = tuple(tables)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write the CSV files, each UTF-8 with BOM; `duplicates.csv` only when there are groups."""
        tables = report_tables(view, self.tables)
        return side_by_side(
            [
                partial(atomic_write_with, out_dir / f"{name}.csv", partial(_write_csv, table))
                for name, table in tables.items()
            ]
        )


#: Rows flattened and written at a time: the flat copy of a whole million-row table (lists
#: joined, formulas defused) was half a gigabyte beside the table itself.
_SLICE_ROWS = 1 << 16


def _write_csv(table: pa.Table, handle: BinaryIO) -> None:
    """`table` as CSV with a byte-order mark, streamed into `handle` a slice at a time."""
    handle.write(b"\xef\xbb\xbf")
    first = _flatten(table.slice(0, _SLICE_ROWS))
    with pacsv.CSVWriter(handle, first.schema, write_options=_OPTIONS) as writer:
        writer.write_table(first)
        for start in range(_SLICE_ROWS, table.num_rows, _SLICE_ROWS):
            writer.write_table(_flatten(table.slice(start, _SLICE_ROWS)))
