"""Column kernels that give exactly what the same Python expression gives row by row.

Stages that once built one dict per row (the checklist) now compute whole columns; these are the
few Python idioms they relied on (`a or b`, `str.strip()`, `urllib.parse.quote`, `str.isdigit`,
lists joined row by row), as Arrow/NumPy passes. Where Arrow's Unicode rules differ from
Python's, the rare non-ASCII values take the Python path, so the results stay the same.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "PY_WHITESPACE",
    "array",
    "concat_lists",
    "constant",
    "digits",
    "first_truthy",
    "holding",
    "keep_lists",
    "quoted",
    "replace_where",
    "singletons",
    "string_bytes",
    "strip",
    "truthy",
]

PY_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""Exactly the characters Python's `str.strip()` removes (`str.isspace`)."""

# `quote`'s always-safe characters plus "/": text made only of them is its own quotation.
_QUOTE_SAFE = r"^[A-Za-z0-9_.~/-]*$"


def array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`values` as one contiguous array (table columns come chunked)."""
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def string_bytes(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """`(offsets, data)` of a `string` array, without a copy: the values' bytes, and int64
    offsets counted from the first value's start (row `i` is `data[offsets[i]:offsets[i + 1]]`;
    a null row spans what its slot spans)."""
    buffers = values.buffers()
    if len(values) == 0 or buffers[1] is None:
        return np.zeros(len(values) + 1, np.int64), np.zeros(0, np.uint8)
    offsets = np.frombuffer(buffers[1], np.int32)[values.offset : values.offset + len(values) + 1]
    start, stop = int(offsets[0]), int(offsets[-1])
    data = buffers[2]
    values_bytes = (
        np.frombuffer(data, np.uint8)[start:stop]
        if data is not None and data.size
        else np.zeros(0, np.uint8)
    )
    return offsets.astype(np.int64) - start, values_bytes


def holding(values: pa.Array | pa.ChunkedArray, chars: bytes) -> np.ndarray:
    """Positions of the strings that hold any of the few ASCII bytes `chars` (nulls hold none),
    found in the character data: a `bytes.find` (memchr) per byte settles the usual case of a
    column that holds none, a comparison per byte finds the strings otherwise. Both are far
    cheaper than a regular expression per string."""
    values = array(values)
    none = np.zeros(0, np.int64)
    if len(values) == 0 or values.null_count == len(values):
        return none
    if not pa.types.is_string(values.type):
        values = values.cast(pa.string())
    offsets = np.frombuffer(
        values.buffers()[1], np.int32, count=len(values) + 1, offset=values.offset * 4
    )
    lo, hi = int(offsets[0]), int(offsets[-1])
    raw = values.buffers()[2]
    text = raw.to_pybytes() if raw is not None else b""
    if all(text.find(bytes([byte]), lo, hi) < 0 for byte in chars):
        return none
    data = np.frombuffer(text, np.uint8)[lo:hi]
    found = np.zeros(len(data), bool)
    for byte in chars:
        found |= data == byte
    # UTF-8 never uses an ASCII byte inside a multi-byte character, so a byte is that character.
    at = np.flatnonzero(found) + lo
    rows = np.searchsorted(offsets, at, side="right") - 1  # ascending: duplicates side by side
    rows = rows[np.r_[True, rows[1:] != rows[:-1]]] if rows.size else rows
    kept: np.ndarray = rows[pc.is_valid(values).to_numpy(zero_copy_only=False)[rows]]
    return kept


def constant(value: str, length: int) -> pa.Array:
    return pa.repeat(pa.scalar(value, pa.string()), length)


def strip(values: pa.Array) -> pa.Array:
    """`str.strip()` of every string."""
    return pc.utf8_trim(values, characters=PY_WHITESPACE)


def truthy(values: pa.Array) -> pa.Array:
    """`bool(value)` of every string or list: not null and not empty."""
    is_list = pa.types.is_list(values.type)
    length = pc.list_value_length(values) if is_list else pc.binary_length(values)
    return pc.fill_null(pc.greater(length, 0), False)


def first_truthy(*columns: pa.Array) -> pa.Array:
    """`a or b or …` of every row: the first truthy value, else the last column's value."""
    out = columns[-1]
    for column in reversed(columns[:-1]):
        out = pc.if_else(truthy(column), column, out)
    return out


def _by_python(values: pa.Array, same: pa.Array, python: Callable[[str], str]) -> pa.Array:
    """`values` where `same` holds, else `python(value)` of each of the others."""
    values = array(values)
    other = array(pc.fill_null(pc.invert(same), False))
    if not pc.any(other).as_py():
        return values
    replaced = [python(v) for v in values.filter(other).to_pylist()]
    return pc.replace_with_mask(values, other, pa.array(replaced, values.type))


def quoted(values: pa.Array) -> pa.Array:
    """`quote(value, safe="/")` of every string (null stays null)."""
    plain = pc.match_substring_regex(values, _QUOTE_SAFE)
    return _by_python(values, pc.fill_null(plain, True), lambda v: quote(v, safe="/"))


def digits(values: pa.Array) -> pa.Array:
    """`value.isdigit()` of every string (null is False); Unicode digits count, as in Python."""
    values = array(values)
    ascii_digits = pc.fill_null(pc.match_substring_regex(values, r"^[0-9]+$"), False)
    ascii_text = pc.fill_null(pc.string_is_ascii(values), True)
    other = pc.invert(ascii_text)
    if not pc.any(other).as_py():
        return ascii_digits
    exact = [v.isdigit() for v in values.filter(other).to_pylist()]
    return pc.replace_with_mask(ascii_digits, other, pa.array(exact, pa.bool_()))


def singletons(values: pa.Array) -> pa.ListArray:
    """`[value]` for every non-null value, `[]` for a null one."""
    values = array(values)
    valid = pc.is_valid(values)
    offsets = np.concatenate([[0], np.cumsum(valid.to_numpy(zero_copy_only=False))])
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values.filter(valid))


def keep_lists(lists: pa.Array, keep: pa.Array) -> pa.ListArray:
    """`lists` where `keep` holds, null elsewhere (no copy of the values)."""
    lists = array(lists)
    null = pc.invert(pc.and_(array(keep), pc.is_valid(lists)))
    # Fresh offsets from 0: Arrow takes no validity mask beside the offsets of a slice.
    start = lists.offsets[0]
    offsets = pc.subtract(lists.offsets, start)
    return pa.ListArray.from_arrays(offsets, lists.values.slice(start.as_py()), mask=null)


def replace_where(
    values: pa.Array, where: pa.Array, table: pa.Table, compute: Callable[[pa.Table], pa.Array]
) -> pa.Array:
    """`values` with the rows `where` holds replaced by `compute(table.filter(where))`.

    `compute` sees only those rows: rare cases cost nothing on the others.
    """
    values, where = array(values), array(where)
    if not pc.any(where).as_py():
        return values
    return pc.replace_with_mask(values, where, array(compute(table.filter(where))))


def concat_lists(*columns: pa.Array) -> pa.ListArray:
    """Row by row, the lists of `columns` one after another (a null list counts as `[]`)."""
    columns = tuple(array(c) for c in columns)
    length = len(columns[0])
    counts = [pc.fill_null(pc.list_value_length(c), 0).to_numpy().astype(np.int64) for c in columns]
    flats = [pc.list_flatten(c) for c in columns]
    rows = np.concatenate([np.repeat(np.arange(length), n) for n in counts])
    # A stable sort by row keeps each row's lists in column order, each list in its order.
    order = np.argsort(rows, kind="stable")
    values = pa.concat_arrays([f.cast(flats[0].type) for f in flats]).take(pa.array(order))
    offsets = np.concatenate([[0], np.cumsum(sum(counts))]).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), values)
