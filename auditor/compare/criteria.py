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

from auditor.compare.ascii import split_normalized
from auditor.compare.text_columns import (
    han_mask,
    is_et_al_column,
    normalize_codes,
    normalize_column,
    normalize_distinct,
)
from auditor.names import v1_surname_cut_column, vancouver_surname_cut_column
from auditor.text import han_title_form

__all__ = [
    "FOUND_FRACTION_MIN",
    "JACCARD_MIN",
    "SUBSET_FRACTION_MIN",
    "AuthorsResult",
    "TitleResult",
    "YearResult",
    "authors_rule",
    "same_surname_sequences",
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


def _filled(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """A plain string array with nulls as `""`."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    return pc.fill_null(column.cast(pa.string()), "")


def _token_sets(entries: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Token sets of normalized strings as CSR: (offsets per entry, distinct token codes)."""
    parents, tokens = split_normalized(entries)
    codes = pc.dictionary_encode(tokens).indices.to_numpy(zero_copy_only=False).astype(np.int64)
    # pd.unique keeps first-occurrence order, so the pairs stay grouped by entry.
    pairs = pd.unique((parents << _SHIFT) | codes)
    offsets = np.zeros(len(entries) + 1, dtype=np.int64)
    np.cumsum(np.bincount(pairs >> _SHIFT, minlength=len(entries)), out=offsets[1:])
    return offsets, pairs & np.int64(0xFFFFFFFF)


def _gather_sets(
    offsets: np.ndarray, tokens: np.ndarray, entry: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(row, token) keys of the token set of `entry[row]` for every row, and the set sizes."""
    sizes = offsets[entry + 1] - offsets[entry]
    out = np.zeros(sizes.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    index = np.arange(out[-1], dtype=np.int64) + np.repeat(offsets[entry] - out[:-1], sizes)
    rows = np.repeat(np.arange(sizes.size, dtype=np.int64), sizes)
    return (rows << _SHIFT) | tokens[index], sizes


def _token_set_sizes(
    codes_a: np.ndarray, codes_b: np.ndarray, dictionary: pa.Array
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """|A|, |B| and |A∩B| per row, for rows given as codes into the normalized `dictionary`."""
    used, inverse = np.unique(np.concatenate([codes_a, codes_b]), return_inverse=True)
    offsets, tokens = _token_sets(pc.take(dictionary, pa.array(used)))
    keys_a, size_a = _gather_sets(offsets, tokens, inverse[: codes_a.size])
    keys_b, size_b = _gather_sets(offsets, tokens, inverse[codes_a.size :])
    # Each side is a set per row, so a key present twice in both together is shared.
    merged = np.sort(np.concatenate([keys_a, keys_b]))
    shared = merged[1:][merged[1:] == merged[:-1]]
    return size_a, size_b, np.bincount(shared >> _SHIFT, minlength=codes_a.size)


def _han_override(
    claimed: pa.Array, register: pa.Array, differ: np.ndarray, match: np.ndarray
) -> None:
    """Two titles that both carry Han compare by exact `han_title_form` (issue 5 item 2).

    Only rows whose raw titles `differ` can change: identical strings have identical forms.
    """
    pick = pa.array(differ)
    left, right = pc.take(claimed, pick), pc.take(register, pick)
    both = np.flatnonzero(han_mask(left) & han_mask(right))
    if both.size == 0:
        return
    index = pa.array(both)
    lefts, rights = pc.take(left, index).to_pylist(), pc.take(right, index).to_pylist()
    form = {s: han_title_form(s) for s in {*lefts, *rights}}
    match[differ[both]] = [form[a] == form[b] for a, b in zip(lefts, rights, strict=True)]


def _normalized_sizes(
    claimed: pa.Array, register: pa.Array
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """|A|, |B| and |A∩B| per row, by normalizing both columns."""
    n = len(claimed)
    codes, dictionary = normalize_distinct(pa.concat_arrays([claimed, register]))
    codes_a, codes_b = codes[:n], codes[n:]
    # Equal normalized titles have equal token sets: only the other rows need token sets.
    nonempty = pc.not_equal(dictionary, "").to_numpy(zero_copy_only=False)[codes_a]
    size_a, size_b, inter = (nonempty.astype(np.int64) for _ in range(3))
    differ = np.flatnonzero(codes_a != codes_b)
    if differ.size:
        # Different raw strings often normalize alike (case, punctuation): compare the forms.
        left = pc.take(dictionary, pa.array(codes_a[differ]))
        right = pc.take(dictionary, pa.array(codes_b[differ]))
        differ = differ[pc.not_equal(left, right).to_numpy(zero_copy_only=False)]
    if differ.size:
        sizes = _token_set_sizes(codes_a[differ], codes_b[differ], dictionary)
        for full, part in zip((size_a, size_b, inter), sizes, strict=True):
            full[differ] = part
    return size_a, size_b, inter


def title_rule(claimed: pa.Array, register: pa.Array) -> TitleResult:
    """criteria v1 §title over aligned title columns (nulls count as empty titles)."""
    claimed, register = _filled(claimed), _filled(register)
    same_raw = pc.equal(claimed, register).to_numpy(zero_copy_only=False)
    # Most real references copy the register's title. Identical ASCII strings have equal token
    # sets, non-empty exactly when they hold a letter or digit: no normalization needed.
    easy = same_raw & pc.string_is_ascii(claimed).to_numpy(zero_copy_only=False)
    letter = pc.match_substring_regex(claimed, "[A-Za-z0-9]").to_numpy(zero_copy_only=False)
    size_a, size_b, inter = ((easy & letter).astype(np.int64) for _ in range(3))
    rest = np.flatnonzero(~easy)
    if rest.size:
        pick = pa.array(rest)
        sizes = _normalized_sizes(pc.take(claimed, pick), pc.take(register, pick))
        for full, part in zip((size_a, size_b, inter), sizes, strict=True):
            full[rest] = part
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
    _han_override(claimed, register, np.flatnonzero(~same_raw), match)
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
    same: np.ndarray = same_len & (np.bincount(rows_c[in_c][differs], minlength=n) == 0)
    return same


def _et_al_entries(names: pa.Array, codes: np.ndarray, dictionary: pa.Array) -> np.ndarray:
    """Mask of claimed entries that are `et al.` markers rather than authors."""
    # Only an entry whose surname is "al", "etal" or "others" can be one; check those whole.
    suspect = pc.is_in(dictionary, value_set=pa.array(["al", "etal", "others"]))
    maybe = np.flatnonzero(suspect.to_numpy(zero_copy_only=False)[codes])
    marker = np.zeros(codes.size, dtype=bool)
    if maybe.size:
        marker[maybe] = is_et_al_column(normalize_column(pc.take(names, pa.array(maybe))))
    return marker


def authors_rule(claimed: pa.Array, register_surnames: pa.Array) -> AuthorsResult:
    """criteria v1 §authors over aligned list columns (claimed names as written, register surnames).

    Both sides are compared after `normalize_text`; an empty surname never matches anything.
    """
    n = len(claimed)
    rows_c, names = _explode(claimed)
    rows_r, flat_r = _explode(register_surnames)
    cut = v1_surname_cut_column(names)
    codes, dictionary = normalize_codes(pa.concat_arrays([cut, _filled(flat_r)]))
    codes_c, codes_r = codes[: len(cut)], codes[len(cut) :]
    keep = ~_et_al_entries(names, codes_c, dictionary)
    rows_c, codes_c = rows_c[keep], codes_c[keep]
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


#: Rows `same_surname_sequences` takes at a time: every name of a million rows cut, joined and
#: normalized at once held 400 MB of transient columns at compare's peak.
SURNAME_ROWS = 1 << 17


def same_surname_sequences(claimed: pa.Array, register_surnames: pa.Array) -> np.ndarray:
    """Per row: the claimed surnames (v1 §authors.claimed_surname) are the register's, in order
    and in number, none empty. The cheap common case auditor/v2 settles without its rules.

    Each row is decided on its own: `SURNAME_ROWS` rows at a time."""
    n = len(claimed)
    if n <= SURNAME_ROWS:
        return _same_surname_sequences(claimed, register_surnames)
    return np.concatenate(
        [
            _same_surname_sequences(
                claimed.slice(lo, SURNAME_ROWS), register_surnames.slice(lo, SURNAME_ROWS)
            )
            for lo in range(0, n, SURNAME_ROWS)
        ]
    )


def _same_surname_sequences(claimed: pa.Array, register_surnames: pa.Array) -> np.ndarray:
    n = len(claimed)
    rows_c, names = _explode(claimed)
    rows_r, flat_r = _explode(register_surnames)
    names = _filled(names)
    cut = vancouver_surname_cut_column(names)
    codes, dictionary = normalize_codes(pa.concat_arrays([cut, _filled(flat_r)]))
    codes_c, codes_r = codes[: len(cut)], codes[len(cut) :]
    empty_code = pc.index(dictionary, "").as_py()
    same = _same_sequences(rows_c, codes_c, rows_r, codes_r, n)
    odd = (codes_c == empty_code) | _et_al_entries(names, codes_c, dictionary)
    has_empty = np.bincount(rows_c[odd], minlength=n) > 0
    result: np.ndarray = same & ~has_empty & (np.bincount(rows_c, minlength=n) > 0)
    return result


def year_rule(claimed: pa.Array, register: pa.Array) -> YearResult:
    """criteria v1 §year: integer equality, compared only when a year is claimed."""
    compared = pc.is_valid(claimed).to_numpy(zero_copy_only=False)
    equal = pc.fill_null(pc.equal(claimed, register), False).to_numpy(zero_copy_only=False)
    return YearResult(compared=compared, match=compared & equal)
