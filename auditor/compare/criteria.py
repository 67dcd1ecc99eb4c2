"""The field rules of reference-resolution/v1 §comparison, over whole aligned columns.

Each rule takes the claimed column and the register column of the same rows and returns NumPy
arrays of the same length. Token sets and surname multisets are built by exploding list columns
into `(row, token code)` pairs packed into one int64 key, so set size, intersection and multiset
overlap are hash look-ups and `bincount`s rather than a Python loop over rows.

Thresholds are compared by integer cross-multiplication (`100·|A∩B| ≥ 85·|A∪B|`), so the
boundary cases the criteria name (exactly 0.85, exactly 0.60, exactly 2/3) are decided exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.columns import (
    claimed_surname_column,
    han_mask,
    is_et_al_column,
    normalize_column,
    normalize_pair,
)
from auditor.compare.text import han_title_form

__all__ = [
    "FOUND_FRACTION_MIN",
    "JACCARD_MIN",
    "SUBSET_FRACTION_MIN",
    "AuthorsResult",
    "TitleResult",
    "YearResult",
    "authors_rule",
    "title_rule",
    "year_rule",
]

#: criteria v1 §title.jaccard_threshold (0.85), exact.
JACCARD_MIN = Fraction(17, 20)
#: criteria v1 §title.subset_register_fraction_min (0.6), exact.
SUBSET_FRACTION_MIN = Fraction(3, 5)
#: criteria v1 §authors.found_fraction_min (published as 0.6666666666666666, i.e. 2/3), exact.
FOUND_FRACTION_MIN = Fraction(2, 3)

_SHIFT = np.int64(32)


@dataclass(frozen=True)
class TitleResult:
    """Per-row title decision."""

    match: np.ndarray
    """bool: the v1 rule holds (or, for two Han titles, their `han_title_form`s are equal)."""
    score: np.ndarray
    """float64 Jaccard of the normalized token sets; NaN when both sets are empty."""
    empty: np.ndarray
    """bool: either token set is empty after `normalize_text` (the title cannot match)."""


@dataclass(frozen=True)
class AuthorsResult:
    """Per-row author decision."""

    compared: np.ndarray
    """bool: at least one claimed author remains after dropping `et al.` markers."""
    match: np.ndarray
    """bool: first-author surnames equal and found fraction ≥ 2/3 (meaningful where compared)."""


@dataclass(frozen=True)
class YearResult:
    """Per-row year decision."""

    compared: np.ndarray
    """bool: a claimed year is present."""
    match: np.ndarray
    """bool: the register year is present and equal (meaningful where compared)."""


def _explode(lists: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Parent row index (int64) and flat values of a list column; null lists give no values."""
    parents = pc.list_parent_indices(lists).to_numpy(zero_copy_only=False).astype(np.int64)
    return parents, pc.list_flatten(lists)


def _shared_codes(left: pa.Array, right: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """Integer codes of two string arrays under one shared dictionary."""
    both = pa.concat_arrays([left, right]) if len(left) + len(right) else pa.array([], pa.string())
    encoded = pc.dictionary_encode(both)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return codes[: len(left)], codes[len(left) :], encoded.dictionary


def _token_pairs(normalized: pa.Array) -> tuple[np.ndarray, pa.Array]:
    parents, tokens = _explode(pc.split_pattern(normalized, " "))
    keep = pc.not_equal(tokens, "")
    return parents[keep.to_numpy(zero_copy_only=False)], pc.filter(tokens, keep)


def _han_override(claimed: pa.Array, register: pa.Array, match: np.ndarray) -> None:
    """Two titles that both carry Han compare by exact `han_title_form` (issue 5 item 2)."""
    both = np.flatnonzero(han_mask(claimed) & han_mask(register))
    if both.size == 0:
        return
    index = pa.array(both)
    left = pc.take(claimed, index).to_pylist()
    right = pc.take(register, index).to_pylist()
    match[both] = [han_title_form(a) == han_title_form(b) for a, b in zip(left, right, strict=True)]


def _token_set_sizes(left: pa.Array, right: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """|A|, |B| and |A∩B| per row of two aligned normalized columns."""
    n = len(left)
    rows_a, tokens_a = _token_pairs(left)
    rows_b, tokens_b = _token_pairs(right)
    codes_a, codes_b, _ = _shared_codes(tokens_a, tokens_b)
    # A token set per row: distinct (row, token) keys.
    keys_a = pd.unique((rows_a << _SHIFT) | codes_a)
    keys_b = pd.unique((rows_b << _SHIFT) | codes_b)
    size_a = np.bincount(keys_a >> _SHIFT, minlength=n)
    size_b = np.bincount(keys_b >> _SHIFT, minlength=n)
    shared = keys_a[pd.Index(keys_b).get_indexer(keys_a) >= 0]
    return size_a, size_b, np.bincount(shared >> _SHIFT, minlength=n)


def title_rule(claimed: pa.Array, register: pa.Array) -> TitleResult:
    """criteria v1 §title over aligned title columns (nulls count as empty titles)."""
    norm_a, norm_b = normalize_pair(claimed, register)
    # Equal normalized titles have equal token sets: Jaccard 1 (or undefined when empty). Only
    # the other rows need token sets, and most real references copy the register's title.
    nonempty = pc.not_equal(norm_a, "").to_numpy(zero_copy_only=False)
    same = pc.equal(norm_a, norm_b).to_numpy(zero_copy_only=False)
    size_a = size_b = inter = nonempty.astype(np.int64)
    differ = np.flatnonzero(~same)
    if differ.size:
        size_a, size_b, inter = size_a.copy(), size_b.copy(), inter.copy()
        pick = pa.array(differ)
        sizes = _token_set_sizes(pc.take(norm_a, pick), pc.take(norm_b, pick))
        for full, part in zip((size_a, size_b, inter), sizes, strict=True):
            full[differ] = part
    union = size_a + size_b - inter
    jaccard_ok = (union > 0) & (inter * JACCARD_MIN.denominator >= JACCARD_MIN.numerator * union)
    # criteria v1 §title: A ⊆ B and |A|/|B| ≥ 0.60; an empty B makes the fraction undefined.
    subset_ok = (
        (size_b > 0)
        & (inter == size_a)
        & (size_a * SUBSET_FRACTION_MIN.denominator >= SUBSET_FRACTION_MIN.numerator * size_b)
    )
    match = jaccard_ok | subset_ok
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(union > 0, inter / np.maximum(union, 1), np.nan)
    _han_override(claimed, register, match)
    return TitleResult(match=match, score=score, empty=(size_a == 0) | (size_b == 0))


def _first_code(rows: np.ndarray, codes: np.ndarray, n: int, missing: int) -> np.ndarray:
    """Code of the first element of each row (`rows` is non-decreasing); `missing` elsewhere."""
    first = np.full(n, missing, dtype=np.int64)
    if rows.size:
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        first[rows[starts]] = codes[starts]
    return first


def _multiset_overlap(keys_c: np.ndarray, keys_r: np.ndarray, n: int) -> np.ndarray:
    """Per row, Σ over surnames of min(claimed count, register count): each register name once."""
    counts_c = pd.Series(keys_c).value_counts(sort=False)
    counts_r = pd.Series(keys_r).value_counts(sort=False)
    where = pd.Index(counts_r.index).get_indexer(counts_c.index)
    common = where >= 0
    overlap = np.minimum(counts_c.to_numpy()[common], counts_r.to_numpy()[where[common]])
    rows = counts_c.index.to_numpy()[common] >> _SHIFT
    return np.bincount(rows, weights=overlap, minlength=n).astype(np.int64)


def _same_sequences(
    rows_c: np.ndarray, codes_c: np.ndarray, rows_r: np.ndarray, codes_r: np.ndarray, n: int
) -> np.ndarray:
    """Per row: the claimed and register surname code sequences are identical."""
    same_len = np.bincount(rows_c, minlength=n) == np.bincount(rows_r, minlength=n)
    # Both flat arrays are grouped by row in order, so rows of equal length line up.
    in_c, in_r = same_len[rows_c], same_len[rows_r]
    differs = codes_c[in_c] != codes_r[in_r]
    return same_len & (np.bincount(rows_c[in_c][differs], minlength=n) == 0)


def _claimed_surnames(claimed: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Rows and surnames of the claimed authors, `et al.` / `and others` entries dropped."""
    rows, names = _explode(claimed)
    surnames = claimed_surname_column(names)
    # Only an entry whose surname is "al", "etal" or "others" can be a marker; check those whole.
    maybe = pc.is_in(surnames, value_set=pa.array(["al", "etal", "others"])).to_numpy(
        zero_copy_only=False
    )
    marker = np.zeros(len(names), dtype=bool)
    if maybe.any():
        idx = np.flatnonzero(maybe)
        marker[idx] = is_et_al_column(normalize_column(pc.take(names, pa.array(idx))))
    keep = ~marker
    return rows[keep], pc.filter(surnames, pa.array(keep))


def authors_rule(claimed: pa.Array, register_surnames: pa.Array) -> AuthorsResult:
    """criteria v1 §authors over aligned list columns (claimed names as written, register surnames).

    Both sides are compared after `normalize_text`; an empty surname never matches anything.
    """
    n = len(claimed)
    rows_c, names_c = _claimed_surnames(claimed)
    rows_r, flat_r = _explode(register_surnames)
    codes_c, codes_r, dictionary = _shared_codes(names_c, normalize_column(flat_r))
    empty_code = pc.index(dictionary, "").as_py()  # -1 when no empty surname occurs
    n_claimed = np.bincount(rows_c, minlength=n)
    first_c = _first_code(rows_c, codes_c, n, missing=-1)
    first_r = _first_code(rows_r, codes_r, n, missing=-2)
    first_eq = (first_c == first_r) & (first_c != empty_code) & (first_c >= 0)
    usable_c, usable_r = codes_c != empty_code, codes_r != empty_code
    same_seq = _same_sequences(rows_c, codes_c, rows_r, codes_r, n)
    # The multiset count decides only rows with a first-author match, two or more claimed
    # names, and surname lists that are not simply identical (then every non-empty one is found).
    need = ~same_seq & first_eq & (n_claimed >= 2)
    sel_c, sel_r = need[rows_c] & usable_c, need[rows_r] & usable_r
    found = _multiset_overlap(
        (rows_c[sel_c] << _SHIFT) | codes_c[sel_c],
        (rows_r[sel_r] << _SHIFT) | codes_r[sel_r],
        n,
    )
    found = np.where(same_seq, np.bincount(rows_c[usable_c], minlength=n), found)
    enough = found * FOUND_FRACTION_MIN.denominator >= FOUND_FRACTION_MIN.numerator * n_claimed
    compared = n_claimed > 0
    # criteria v1 §authors: with one claimed author, first-author equality alone.
    match = compared & first_eq & ((n_claimed == 1) | enough)
    return AuthorsResult(compared=compared, match=match)


def year_rule(claimed: pa.Array, register: pa.Array) -> YearResult:
    """criteria v1 §year: integer equality, compared only when a year is claimed."""
    compared = pc.is_valid(claimed).to_numpy(zero_copy_only=False)
    equal = pc.fill_null(pc.equal(claimed, register), False).to_numpy(zero_copy_only=False)
    return YearResult(compared=compared, match=compared & equal)
