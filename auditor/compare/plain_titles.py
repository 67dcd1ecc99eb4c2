"""Plain titles over a column: which titles are plain, and their words as integer codes.

A plain title is printable ASCII without markup, entities, TeX residue or a notice label
(`RETRACTED: …`). On one, `forms.title_words` is a few byte rules (lowercase; `-` and `/` read
as spaces; what is not a letter, digit or space deleted; split on spaces) and then
`american_word` of each word, so its words can be computed for a whole column with Arrow
kernels, `american_word` called once per distinct word that a spelling rule can change at all.
Equal codes are equal (American) words, so word sets, joined words and word edits can be
compared as integers (`auditor.compare.title_columns`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.forms import SPELLING_WORDS, american_word, title_main

__all__ = [
    "Sets",
    "Words",
    "as_strings",
    "common_words",
    "encode",
    "plain_strings",
    "read_words",
    "same_words",
    "word_sets",
]

# Printable ASCII only, so that the only `str.isspace` character is the space and `str.lower`
# is ASCII lowercasing; without `<` and `&` (markup, entities: `strip_markup` is the identity),
# `\` and `$` (TeX residue: `_clean` leaves the text as it is) and, to be safe, TeX's braces.
_NOT_PLAIN = r"[^ -~]|[<&\\${}]"
# Every subtitle or trailing note `title_main` finds starts at one of these (on ASCII text).
_SEPARATORS = r"[:\-.?)\]]"
# Every notice label `forms._NOTICE_PREFIX` removes holds one of these words.
_NOTICE_WORDS = "retract|withdrawn|concern"
# A word `american_word` can change is a `SPELLING_WORDS` key or matches one of its rules: each
# rule's match ends in these suffixes (every doubled-l stem ends in `l`), or holds `ae`, or
# starts with `oe`. A superset: the words it admits are looked up, the others stay as written.
_SPELLING_KEYS = pa.array(SPELLING_WORDS, pa.string())
_SPELLING_RULE_WORDS = r"(is|ys)(e|es|ed|ing|ation|ations|er|ers|able)$|ll(ing|ed|er|ers)$|ae|^oe"


def _bools(column: pa.Array) -> np.ndarray:
    out: np.ndarray = pc.fill_null(column, False).to_numpy(zero_copy_only=False)
    return out


@dataclass(frozen=True)
class Words:
    """Each plain string's words as integer codes: equal codes, equal (American) words."""

    offsets: np.ndarray
    codes: np.ndarray
    spelt: pa.Array
    """The distinct words, spelt as `american_word` spells them: `codes` index it."""
    length: np.ndarray
    """The length of each string's words joined without spaces."""


def _american(words: pa.Array) -> pa.Array:
    """`american_word` of each distinct word, called only where a spelling rule may apply."""
    maybe = _bools(pc.is_in(words, value_set=_SPELLING_KEYS)) | _bools(
        pc.match_substring_regex(words, _SPELLING_RULE_WORDS)
    )
    rows = np.flatnonzero(maybe)
    if rows.size == 0:
        return words
    spelt = pa.array([american_word(w) for w in words.take(rows).to_pylist()], pa.string())
    where = np.arange(len(words), dtype=np.int64)
    where[rows] = len(words) + np.arange(rows.size)
    return pa.concat_arrays([words.cast(pa.string()), spelt]).take(pa.array(where))


def _part_words(strings: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """(the words of plain strings (see `_NOT_PLAIN`) as `title_words` reads them, before their
    spelling; each string's offsets into them)."""
    text = pc.replace_substring(pc.ascii_lower(strings), "-", " ")
    text = pc.replace_substring(text, "/", " ")
    text = pc.replace_substring_regex(text, "[^a-z0-9 ]+", "")
    split = pc.split_pattern(text, " ")
    flat = pc.list_flatten(split)
    keep = _bools(pc.greater(pc.binary_length(flat), 0))  # runs of spaces leave empty pieces
    kept = np.zeros(keep.size + 1, dtype=np.int64)
    np.cumsum(keep, out=kept[1:])
    return flat.filter(pa.array(keep)), kept[split.offsets.to_numpy()]


def read_words(parts: list[pa.Array]) -> Words:
    """The words of the plain strings of `parts`, one after another, as `title_words` has them.

    Part by part (a few thousand strings each), so that the intermediate columns stay small;
    the words of all parts are then encoded with one dictionary."""
    pieces, offsets, start = [], [np.zeros(1, dtype=np.int64)], 0
    for part in parts:
        words, at = _part_words(part)
        pieces.append(words)
        offsets.append(at[1:] + start)
        start += int(at[-1])
    dictionary, indices = encode(pieces)
    del pieces
    spelt = pc.dictionary_encode(_american(dictionary))
    codes = spelt.indices.to_numpy()[indices]
    total = np.zeros(codes.size + 1, dtype=np.int64)
    np.cumsum(pc.binary_length(spelt.dictionary).to_numpy()[codes], out=total[1:])
    bounds = np.concatenate(offsets)
    return Words(bounds, codes, spelt.dictionary, total[bounds[1:]] - total[bounds[:-1]])


def same_words(words: Words, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether strings `a[k]` and `b[k]` have the same words once joined without spaces (equal
    words or not): compared only where the joined lengths are equal."""
    same = np.zeros(a.size, dtype=bool)
    maybe = np.flatnonzero(words.length[a] == words.length[b])
    if maybe.size:
        same[maybe] = _bools(pc.equal(_joined(words, a[maybe]), _joined(words, b[maybe])))
    return same


def _joined(words: Words, which: np.ndarray) -> pa.Array:
    """The words of each string `which[k]` joined without spaces."""
    at, _ = _ranges(words.offsets, which)
    offsets = np.zeros(which.size + 1, dtype=np.int64)
    np.cumsum(words.offsets[which + 1] - words.offsets[which], out=offsets[1:])
    values = words.spelt.take(pa.array(words.codes[at]))
    return pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), values), "")


def plain_strings(strings: pa.Array) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per distinct string: whether it is plain; and the plain strings with a subtitle, with
    their main titles (`title_main`: plain too, being part of a plain string)."""
    # One pass of the regular expression engine for both: a title is rarely either.
    either = pc.match_substring_regex(strings, f"{_NOT_PLAIN}|(?i:{_NOTICE_WORDS})")
    plain = _bools(pc.is_valid(strings)) & ~_bools(either)
    maybe = np.flatnonzero(plain & _bools(pc.match_substring_regex(strings, _SEPARATORS)))
    mains = [title_main(v) for v in strings.take(pa.array(maybe, pa.int64())).to_pylist()]
    held = [k for k, main in enumerate(mains) if main is not None]
    return plain, maybe[held], [m for m in mains if m is not None]


def _ranges(offsets: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions, owner) of the elements of ranges `which` of `offsets`, in order."""
    sizes = offsets[which + 1] - offsets[which]
    owner = np.repeat(np.arange(which.size), sizes)
    starts = np.repeat(offsets[which] - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    return starts + np.arange(owner.size), owner


@dataclass(frozen=True)
class Sets:
    """Each string's distinct word codes, ascending: string `i`'s are `codes[starts[i] :
    starts[i + 1]]`, each below `width`."""

    starts: np.ndarray
    codes: np.ndarray
    width: int


def word_sets(words: Words) -> Sets:
    width = int(words.codes.max(initial=0)) + 1
    strings = len(words.offsets) - 1
    keys = np.repeat(np.arange(strings, dtype=np.int64), np.diff(words.offsets)) * width
    keys += words.codes
    keys.sort()
    keys = keys[np.diff(keys, prepend=-1) != 0]  # (string, code), each once
    starts = np.zeros(strings + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys // width, minlength=strings), out=starts[1:])
    return Sets(starts, keys % width, width)


def common_words(sets: Sets, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(|A ∩ B|, |A ∪ B|) of the word sets of strings `a[k]` and `b[k]`."""
    at_a, pair_a = _ranges(sets.starts, a)
    at_b, pair_b = _ranges(sets.starts, b)
    # Pair-major, code-ascending: the keys of the B sets are sorted as they come.
    keys_a = pair_a * sets.width + sets.codes[at_a]
    keys_b = pair_b * sets.width + sets.codes[at_b]
    found = np.searchsorted(keys_b, keys_a)
    hit = found < keys_b.size
    hit[hit] = keys_b[found[hit]] == keys_a[hit]
    both = np.bincount(pair_a[hit], minlength=a.size)
    sizes = np.diff(sets.starts)
    return both, sizes[a] + sizes[b] - both


def as_strings(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    strings: pa.Array = column.cast(pa.string())
    return strings


def encode(parts: list[pa.Array]) -> tuple[pa.Array, np.ndarray]:
    """(the distinct strings of `parts`, the index of each of their values in them, -1 for a
    null): one dictionary for all, without a copy of them all (Arrow encodes a chunked column
    with one dictionary for every chunk; were it ever otherwise, one chunk of them all)."""
    if not sum(len(p) for p in parts):
        return pa.array([], pa.string()), np.zeros(0, dtype=np.int64)
    encoded = pc.dictionary_encode(pa.chunked_array(parts, pa.string()))
    if not _one_dictionary(encoded):
        encoded = pc.dictionary_encode(pa.chunked_array([pa.concat_arrays(parts)]))
    strings: pa.Array = encoded.chunk(0).dictionary
    index = np.concatenate(
        [pc.fill_null(p.indices, -1).to_numpy(zero_copy_only=False) for p in encoded.chunks]
    )
    return strings, index.astype(np.int64)


def _one_dictionary(encoded: pa.ChunkedArray) -> bool:
    """Whether every chunk of `encoded` holds the very same dictionary (the same buffers)."""
    if not encoded.num_chunks:
        return False
    first = [None if b is None else b.address for b in encoded.chunk(0).dictionary.buffers()]
    return all(
        [None if b is None else b.address for b in chunk.dictionary.buffers()] == first
        for chunk in encoded.chunks
    )
