"""Whole-column forms of the text rules: `normalize_text`, Han detection.

Each function maps an Arrow string column to a column (or integer codes) of the same length,
with no Python loop over rows. Distinct strings are mapped once. ASCII strings (almost every
Latin title and name) go through the byte kernels of `auditor.compare.ascii`, whose meaning on
ASCII is unambiguous; the remaining non-ASCII strings go through `auditor.text`
(`fold_many`), so Unicode details (NFKD, case mapping, letter categories) are decided by one
implementation only. A null input gives `""`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.ascii import normalize_ascii
from auditor.text import HAN_CLASS, finish_text, fold_many, normalize_text

__all__ = [
    "ET_AL_MARKERS",
    "han_mask",
    "is_et_al_column",
    "normalize_codes",
    "normalize_column",
    "normalize_distinct",
]

#: Normalized claimed-author entries that mark a truncated list rather than name an author.
ET_AL_MARKERS: frozenset[str] = frozenset({"et al", "etal", "others", "and others"})


def _as_array(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(column.type):
        column = column.cast(pa.string())
    return pc.fill_null(column, "")


def _map_distinct(
    distinct: pa.Array,
    ascii_fn: Callable[[pa.Array], pa.Array],
    batch_fn: Callable[[list[str]], pa.Array],
) -> tuple[pa.Array, np.ndarray]:
    """Mapped values and, for each of `distinct`, the position of its result among them.

    `ascii_fn` runs over the whole array (cheap); the non-ASCII strings get `batch_fn`, and their
    results are appended, so the ASCII kernel's output for them is never pointed at.
    """
    mapped = ascii_fn(distinct)
    where = np.arange(len(distinct), dtype=np.int64)
    other = np.flatnonzero(~pc.string_is_ascii(distinct).to_numpy(zero_copy_only=False))
    if other.size:
        done = batch_fn(pc.take(distinct, pa.array(other)).to_pylist())
        where[other] = len(distinct) + np.arange(other.size)
        mapped = pa.concat_arrays([mapped, done])
    return mapped, where


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


def _map_strings(
    column: pa.Array | pa.ChunkedArray,
    ascii_fn: Callable[[pa.Array], pa.Array],
    batch_fn: Callable[[list[str]], pa.Array],
) -> pa.Array:
    """Map each distinct string once: `ascii_fn` on the ASCII ones, `batch_fn` on the others."""
    values = _as_array(column)
    if len(values) == 0:
        return pa.array([], pa.string())
    # Bibliographies repeat themselves (a claimed title copied from the register, common
    # surnames): the rules are applied to distinct strings and spread back by index.
    encoded = pc.dictionary_encode(values)
    mapped, where = _map_distinct(encoded.dictionary, ascii_fn, batch_fn)
    return pc.take(mapped, pa.array(where[encoded.indices.to_numpy(zero_copy_only=False)]))


def normalize_distinct(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """`normalize_text` of a column as (codes, values): row `i` normalizes to `values[codes[i]]`.

    Equal raw strings share a code; different raw strings may still normalize alike.
    """
    values = _as_array(column)
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64), pa.array([], pa.string())
    encoded = pc.dictionary_encode(values)
    mapped, where = _map_distinct(encoded.dictionary, normalize_ascii, _normalize_other)
    return where[encoded.indices.to_numpy(zero_copy_only=False)], mapped


def normalize_codes(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """`normalize_text` of a column as integer codes into a dictionary of normalized strings.

    Equal normalized strings get equal codes. The dictionary may hold extra unused entries.
    """
    codes, mapped = normalize_distinct(column)
    # Distinct raw strings can normalize alike ("Müller", "muller"): encode the results again.
    again = pc.dictionary_encode(mapped)
    return again.indices.to_numpy(zero_copy_only=False).astype(np.int64)[codes], again.dictionary


def normalize_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`normalize_text` over a whole string column."""
    return _map_strings(column, normalize_ascii, _normalize_other)


def is_et_al_column(normalized: pa.Array) -> np.ndarray:
    """Boolean mask of normalized author entries that are `ET_AL_MARKERS`."""
    markers = pa.array(sorted(ET_AL_MARKERS), pa.string())
    return np.asarray(pc.is_in(normalized, value_set=markers).to_numpy(zero_copy_only=False))


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
