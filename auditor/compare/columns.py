"""Whole-column forms of the text rules: `normalize_text`, claimed surnames, Han detection.

Each function maps an Arrow string column to a column of the same length, with no Python loop
over rows. ASCII strings (almost every Latin title and name) go through Arrow kernels whose
meaning on ASCII is unambiguous; the remaining non-ASCII strings are de-duplicated and sent
through the scalar rule of `auditor.compare.text`, so Unicode details (NFKD, case mapping, letter
categories) are decided by one implementation only. A null input gives `""`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.text import HAN_CLASS, normalize_text

__all__ = [
    "ET_AL_MARKERS",
    "claimed_surname",
    "claimed_surname_column",
    "han_mask",
    "is_et_al_column",
    "normalize_column",
]

# The ASCII characters `str.isspace` accepts: \t \n \v \f \r, the separators \x1c-\x1f, space.
_ASCII_WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f "
_ASCII_DROP = f"[^a-z0-9{_ASCII_WS}]+"
_ASCII_WS_RUN = f"[{_ASCII_WS}]+"
_LEADING_TOKEN = f"^[{_ASCII_WS}]*(?P<tok>[^{_ASCII_WS}]*)"

#: Normalized claimed-author entries that mark a truncated list rather than name an author.
ET_AL_MARKERS: frozenset[str] = frozenset({"et al", "etal", "others", "and others"})


def claimed_surname(name: str | None) -> str:
    """criteria v1 §authors.claimed_surname for one string; `""` when nothing is left.

    The part before the first comma when there is a comma, else the last whitespace token; then
    `normalize_text`. The result may hold several tokens (`"van der Berg, A."` → `"van der berg"`).
    """
    if not name:
        return ""
    if "," in name:
        return normalize_text(name.split(",", 1)[0])
    tokens = name.split()
    return normalize_text(tokens[-1]) if tokens else ""


def _as_array(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(column.type):
        column = column.cast(pa.string())
    return pc.fill_null(column, "")


def _map_strings(
    column: pa.Array | pa.ChunkedArray,
    ascii_fn: Callable[[pa.Array], pa.Array],
    scalar_fn: Callable[[str], str],
) -> pa.Array:
    """Apply `ascii_fn` to the ASCII strings and `scalar_fn` to each distinct non-ASCII string."""
    values = _as_array(column)
    if len(values) == 0:
        return pa.array([], pa.string())
    is_ascii = pc.string_is_ascii(values)
    out = ascii_fn(values)
    if pc.all(is_ascii).as_py():
        return out
    other = pc.filter(values, pc.invert(is_ascii))
    distinct = pc.unique(other)
    mapped = pa.array([scalar_fn(s) for s in distinct.to_pylist()], pa.string())
    slot = pc.index_in(values, value_set=distinct)
    return pc.if_else(is_ascii, out, pc.take(mapped, slot))


def _normalize_ascii(values: pa.Array) -> pa.Array:
    out = pc.ascii_lower(values)
    out = pc.replace_substring_regex(out, _ASCII_DROP, "")
    out = pc.replace_substring_regex(out, _ASCII_WS_RUN, " ")
    return pc.utf8_trim(out, characters=" ")


def normalize_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`normalize_text` over a whole string column."""
    return _map_strings(column, _normalize_ascii, normalize_text)


def _surname_ascii(values: pa.Array) -> pa.Array:
    before_comma = pc.list_element(pc.split_pattern(values, ",", max_splits=1), 0)
    # The last whitespace token is the leading token of the reversed string, reversed back.
    reversed_tok = pc.struct_field(pc.extract_regex(pc.utf8_reverse(values), _LEADING_TOKEN), 0)
    last_token = pc.utf8_reverse(reversed_tok)
    part = pc.if_else(pc.match_substring(values, ","), before_comma, last_token)
    return _normalize_ascii(part)


def claimed_surname_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`claimed_surname` over a whole string column."""
    return _map_strings(column, _surname_ascii, claimed_surname)


def is_et_al_column(normalized: pa.Array) -> np.ndarray:
    """Boolean mask of normalized author entries that are `ET_AL_MARKERS`."""
    markers = pa.array(sorted(ET_AL_MARKERS), pa.string())
    return pc.is_in(normalized, value_set=markers).to_numpy(zero_copy_only=False)


def han_mask(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Boolean mask: the string contains a Han ideograph (null → False)."""
    values = _as_array(column)
    if len(values) == 0:
        return np.zeros(0, dtype=bool)
    found = pc.match_substring_regex(values, f"[{HAN_CLASS}]")
    return pc.fill_null(found, False).to_numpy(zero_copy_only=False)
