"""Whole-column forms of the text rules: `normalize_text`, claimed surnames, Han detection.

Each function maps an Arrow string column to a column (or integer codes) of the same length,
with no Python loop over rows. ASCII strings (almost every Latin title and name) go through the
byte kernels of `auditor.compare.ascii`, whose meaning on ASCII is unambiguous; the distinct
non-ASCII strings go through `auditor.compare.text` (`fold_many`), so Unicode details (NFKD, case
mapping, letter categories) are decided by one implementation only. A null input gives `""`.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.ascii import normalize_ascii, surname_part_ascii
from auditor.compare.text import HAN_CLASS, finish_text, fold_many, normalize_text

__all__ = [
    "ET_AL_MARKERS",
    "claimed_surname",
    "han_mask",
    "is_et_al_column",
    "normalize_codes",
    "normalize_column",
    "surname_cut_column",
]

#: Normalized claimed-author entries that mark a truncated list rather than name an author.
ET_AL_MARKERS: frozenset[str] = frozenset({"et al", "etal", "others", "and others"})


def claimed_surname(name: str | None) -> str:
    """criteria v1 §authors.claimed_surname for one string; `""` when nothing is left.

    The part before the first comma when there is a comma, else the last whitespace token; then
    `normalize_text`. The result may hold several tokens (`"van der Berg, A."` → `"van der berg"`).
    """
    return normalize_text(_surname_part(name)) if name else ""


def _as_array(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(column.type):
        column = column.cast(pa.string())
    return pc.fill_null(column, "")


def _normalize_other(values: list[str]) -> pa.Array:
    """`normalize_text` of non-ASCII strings: Unicode folding in Python over all of them at once,
    then the byte kernel for those that folding left ASCII (most accented Latin)."""
    folded = fold_many(values)
    if folded is None:
        return pa.array([normalize_text(v) for v in values], pa.string())
    folded_arr = pa.array(folded, pa.string())
    out = normalize_ascii(folded_arr)
    still = np.flatnonzero(~pc.string_is_ascii(folded_arr).to_numpy(zero_copy_only=False))
    if still.size == 0:
        return out
    done = pa.array([finish_text(folded[i]) for i in still.tolist()], pa.string())
    where = np.arange(len(folded), dtype=np.int64)
    where[still] = len(folded) + np.arange(still.size)
    return pc.take(pa.concat_arrays([out, done]), pa.array(where))


def normalize_codes(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """`normalize_text` of a column as integer codes into a dictionary of normalized strings;
    equal normalized strings get equal codes."""
    encoded = pc.dictionary_encode(normalize_column(column))
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, encoded.dictionary


def surname_cut_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The raw claimed-surname part of each string (before `normalize_text`), null → `""`."""
    values = _as_array(column)
    if len(values) == 0:
        return pa.array([], pa.string())
    out = surname_part_ascii(values)
    other = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if other.size == 0:
        return out
    done = [_surname_part(v) for v in pc.take(values, pa.array(other)).to_pylist()]
    where = np.arange(len(values), dtype=np.int64)
    where[other] = len(values) + np.arange(other.size)
    return pc.take(pa.concat_arrays([out, pa.array(done, pa.string())]), pa.array(where))


def normalize_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`normalize_text` over a whole string column.

    The byte kernel runs over every string (cheaper than finding repeats first); only the
    non-ASCII strings are de-duplicated and folded in Python.
    """
    values = _as_array(column)
    n = len(values)
    if n == 0:
        return pa.array([], pa.string())
    out = normalize_ascii(values)
    other = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if other.size == 0:
        return out
    encoded = pc.dictionary_encode(pc.take(values, pa.array(other)))
    done = pc.take(_normalize_other(encoded.dictionary.to_pylist()), encoded.indices)
    where = np.arange(n, dtype=np.int64)
    where[other] = n + np.arange(other.size)
    return pc.take(pa.concat_arrays([out, done]), pa.array(where))


def _surname_part(name: str) -> str:
    if "," in name:
        return name.split(",", 1)[0]
    tokens = name.split()
    return tokens[-1] if tokens else ""


def is_et_al_column(normalized: pa.Array) -> np.ndarray:
    """Boolean mask of normalized author entries that are `ET_AL_MARKERS`."""
    markers = pa.array(sorted(ET_AL_MARKERS), pa.string())
    return pc.is_in(normalized, value_set=markers).to_numpy(zero_copy_only=False)


def han_mask(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Boolean mask: the string contains a Han ideograph (null → False)."""
    values = _as_array(column)
    found = np.zeros(len(values), dtype=bool)
    if len(values) == 0:
        return found
    # Only a non-ASCII string can hold a Han ideograph; the regex runs on those alone.
    other = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if other.size:
        hits = pc.match_substring_regex(pc.take(values, pa.array(other)), f"[{HAN_CLASS}]")
        found[other] = hits.to_numpy(zero_copy_only=False)
    return found
