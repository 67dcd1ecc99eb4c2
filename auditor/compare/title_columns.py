"""auditor/v2's title rule over whole columns, for the pairs whose decision can be proved.

`v2.title_rule` decides one pair at a time in Python; on a large run that is most of the compare
stage. Most pairs are plain: two printable-ASCII titles without markup, entities, TeX, notice
labels (`RETRACTED: …`) or subtitles. On such a title `title_words` is a few byte rules
(lowercase; `-` and `/` read as spaces; what is not a letter, digit or space deleted; split on
spaces) and then `american_word` of each word, so its words can be computed for a whole column
with Arrow kernels and `american_word` called once per distinct word that a spelling rule can
change at all. The Jaccard score, the equality of the joined words and the word distance then
follow from integer word codes, with the results `compare_titles` gives.

A subtitle `title_main` finds on a plain title is looked for by `title_main` itself (on the
distinct strings that hold a character a subtitle starts with); the main title it returns is
plain too, and its words are computed with the others'.

`decide_pairs` (a list of pairs) and `decide_rows` (two columns, each distinct pair decided
once) return exactly what `title_rule` returns, pair for pair: the pairs that cannot be proved
plain (a null, non-ASCII, markup, TeX, a notice word, no words at all) are decided by the rule
itself, through the function given (the title pool's `decide`, which may share them with
worker processes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.forms import SPELLING_WORDS, american_word, title_main
from auditor.compare.v2 import Field
from auditor.compare.word_edits import near_misses
from auditor.errors import Reason

__all__ = [
    "FINDINGS",
    "TitleDecisions",
    "TitleRows",
    "decide_pairs",
    "decide_rows",
    "title_decisions",
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


# Strings read and pairs scored at a time (see `_decisions`), and distinct pairs decided at a
# time by `decide_rows`: what a share holds (a few MB per 10,000 pairs) is let go before the next.
_SHARE = 16_384
_PAIRS = 32_768

#: The findings of `TitleDecisions.kinds`: same title, near miss, another title.
FINDINGS = (None, Reason.TITLE_NEAR_MISS, Reason.TITLE_DIFFERS)


@dataclass(frozen=True)
class TitleDecisions:
    """The column form's decisions of `n` pairs; only rows where `decided` is set mean anything."""

    decided: np.ndarray
    """Whether the pair was decided here (else it is left to `title_rule`)."""
    same: np.ndarray
    near: np.ndarray
    """Not the same title, but at most `NEAR_MISS_MAX_WORDS` word edits apart."""
    score: np.ndarray
    """The Jaccard score of the two word sets (float64)."""

    def kinds(self) -> np.ndarray:
        """Per pair, the index of its finding in `FINDINGS` (0: the same title, no finding)."""
        kinds: np.ndarray = np.where(self.same, 0, np.where(self.near, 1, 2))
        return kinds

    def field(self, k: int) -> Field | None:
        """Pair `k`'s `Field` as `title_rule` gives it; `None` when not decided here."""
        if not self.decided[k]:
            return None
        score = float(self.score[k])
        if self.same[k]:
            return Field(True, True, None, score)
        finding = Reason.TITLE_NEAR_MISS if self.near[k] else Reason.TITLE_DIFFERS
        return Field(True, False, finding, score)


def _bools(column: pa.Array) -> np.ndarray:
    out: np.ndarray = pc.fill_null(column, False).to_numpy(zero_copy_only=False)
    return out


@dataclass(frozen=True)
class _Words:
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


def _words(parts: list[pa.Array]) -> _Words:
    """The words of the plain strings of `parts`, one after another, as `title_words` has them.

    Part by part (a few thousand strings each), so that the intermediate columns stay small;
    the words of all parts are then encoded with one dictionary."""
    pieces, offsets, start = [], [np.zeros(1, dtype=np.int64)], 0
    for part in parts:
        words, at = _part_words(part)
        pieces.append(words)
        offsets.append(at[1:] + start)
        start += int(at[-1])
    dictionary, indices = _encode(pieces)
    del pieces
    spelt = pc.dictionary_encode(_american(dictionary))
    codes = spelt.indices.to_numpy()[indices]
    total = np.zeros(codes.size + 1, dtype=np.int64)
    np.cumsum(pc.binary_length(spelt.dictionary).to_numpy()[codes], out=total[1:])
    bounds = np.concatenate(offsets)
    return _Words(bounds, codes, spelt.dictionary, total[bounds[1:]] - total[bounds[:-1]])


def _same(words: _Words, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether strings `a[k]` and `b[k]` have the same words once joined without spaces (equal
    words or not): compared only where the joined lengths are equal."""
    same = np.zeros(a.size, dtype=bool)
    maybe = np.flatnonzero(words.length[a] == words.length[b])
    if maybe.size:
        same[maybe] = _bools(pc.equal(_joined(words, a[maybe]), _joined(words, b[maybe])))
    return same


def _joined(words: _Words, which: np.ndarray) -> pa.Array:
    """The words of each string `which[k]` joined without spaces."""
    at, _ = _ranges(words.offsets, which)
    offsets = np.zeros(which.size + 1, dtype=np.int64)
    np.cumsum(words.offsets[which + 1] - words.offsets[which], out=offsets[1:])
    values = words.spelt.take(pa.array(words.codes[at]))
    return pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), values), "")


def _plain(strings: pa.Array) -> tuple[np.ndarray, np.ndarray, list[str]]:
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
class _Sets:
    """Each string's distinct word codes, ascending: string `i`'s are `codes[starts[i] :
    starts[i + 1]]`, each below `width`."""

    starts: np.ndarray
    codes: np.ndarray
    width: int


def _sets(words: _Words) -> _Sets:
    width = int(words.codes.max(initial=0)) + 1
    strings = len(words.offsets) - 1
    keys = np.repeat(np.arange(strings, dtype=np.int64), np.diff(words.offsets)) * width
    keys += words.codes
    keys.sort()
    keys = keys[np.diff(keys, prepend=-1) != 0]  # (string, code), each once
    starts = np.zeros(strings + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys // width, minlength=strings), out=starts[1:])
    return _Sets(starts, keys % width, width)


def _common(sets: _Sets, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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


def _strings(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    strings: pa.Array = column.cast(pa.string())
    return strings


def _encoded(claimed: pa.Array, register: pa.Array) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """(the distinct strings of both columns, each row's claimed and register string in them);
    a null is the index one past the last string."""
    strings, index = _encode([_strings(claimed), _strings(register)])
    index = np.where(index < 0, len(strings), index)
    return strings, index[: len(claimed)], index[len(claimed) :]


def _encode(parts: list[pa.Array]) -> tuple[pa.Array, np.ndarray]:
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


def title_decisions(claimed: pa.Array, register: pa.Array) -> TitleDecisions:
    """The decisions of the pairs `(claimed[k], register[k])` that can be proved plain."""
    return _decisions(*_encoded(claimed, register))


def _decisions(strings: pa.Array, claimed: np.ndarray, register: np.ndarray) -> TitleDecisions:
    """`title_decisions` of the pairs `(strings[claimed[k]], strings[register[k]])`."""
    n = len(claimed)
    plain, subtitled, mains = _plain(strings)
    chosen = np.flatnonzero(plain)
    # The plain strings a share at a time (slices when all are plain: no copy), then the mains.
    parts = [
        strings.slice(low, _SHARE)
        if chosen.size == len(strings)
        else strings.take(pa.array(chosen[low : low + _SHARE]))
        for low in range(0, chosen.size, _SHARE)
    ]
    words = _words([*parts, pa.array(mains, pa.string())])
    del parts
    empty = np.diff(words.offsets) == 0  # no words: `title_rule` names it empty
    # A string's slot among the plain ones, and its main title's (-1: none; a null is the last).
    slot = np.full(len(strings) + 1, -1, dtype=np.int64)
    slot[chosen] = np.where(empty[: chosen.size], -1, np.arange(chosen.size))
    main = np.full(len(strings) + 1, -1, dtype=np.int64)
    at = chosen.size + np.arange(len(mains))
    main[subtitled] = np.where(empty[at], -1, at)  # no words: never the same words
    rows = np.flatnonzero((slot[claimed] >= 0) & (slot[register] >= 0))
    a, b = slot[claimed[rows]], slot[register[rows]]
    main_a, main_b = main[claimed[rows]], main[register[rows]]
    same = _same(words, a, b)
    # A trailing subtitle on one side only: the other side is that side's main title.
    for longer, shorter in ((main_a, b), (main_b, a)):
        asked = np.flatnonzero(~same & (longer >= 0))
        same[asked] = _same(words, longer[asked], shorter[asked])
    out = TitleDecisions(
        np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.zeros(n)
    )
    out.decided[rows], out.same[rows] = True, same
    out.near[rows[~same]] = near_misses(words.offsets, words.codes, a[~same], b[~same])
    out.score[rows] = _scores(_sets(words), a, b)
    return out


def _scores(sets: _Sets, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Jaccard score of the word sets of strings `a[k]` and `b[k]`, a share of the pairs at
    a time (its arrays, several per word of the pair, stay a few MB however many pairs)."""
    score = np.zeros(a.size)
    for low in range(0, a.size, _SHARE):
        both, union = _common(sets, a[low : low + _SHARE], b[low : low + _SHARE])
        # float64 division of two integers is correctly rounded, as Python's `int / int` is.
        score[low : low + _SHARE] = both.astype(np.float64) / union.astype(np.float64)
    return score


def _fields(decisions: TitleDecisions) -> list[Field | None]:
    """Every pair's `Field` (`None`: not decided here); one shared `Field` per distinct answer
    (a `Field` is frozen, and scores repeat: they are ratios of small counts)."""
    kinds = decisions.kinds()
    kinds[~decisions.decided] = -1
    made: dict[tuple[int, float], Field] = {}
    out: list[Field | None] = []
    for kind, score in zip(kinds.tolist(), decisions.score.tolist(), strict=True):
        if kind < 0:
            out.append(None)
            continue
        got = made.get((kind, score))
        if got is None:
            got = made[kind, score] = Field(True, kind == 0, FINDINGS[kind], score)
        out.append(got)
    return out


def decide_pairs(
    claimed: Sequence[str | None],
    register: Sequence[str | None],
    rule: Callable[[Sequence[str | None], Sequence[str | None]], list[Field]],
) -> list[Field]:
    """`title_rule` of each pair, in order: the plain pairs decided here, the others by `rule`
    (a function of the two lists of the pairs left, answering `title_rule` of each)."""
    decisions = title_decisions(pa.array(claimed, pa.string()), pa.array(register, pa.string()))
    left = np.flatnonzero(~decisions.decided).tolist()
    decided = rule([claimed[k] for k in left], [register[k] for k in left])
    if len(decided) != len(left):
        raise ValueError(f"{len(decided)} decisions of {len(left)} title pairs")
    # The pairs left are in order, so their decisions fill the gaps in order.
    rest = iter(decided)
    return [f if f is not None else next(rest) for f in _fields(decisions)]


@dataclass(frozen=True)
class TitleRows:
    """`title_rule` of every row of two columns: the plain rows' decisions as arrays, the
    other rows' as `Field`s."""

    decisions: TitleDecisions
    """Per row; the rows where `decisions.decided` is set were decided here."""
    left: np.ndarray
    """The other rows, in order."""
    fields: list[Field]
    """Their decisions by the rule, in the order of `left`."""


def _distinct(claimed: pa.Array, register: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(a row holding each distinct pair, each row's distinct pair); a null is a value too."""
    # Each column by itself: only one column's dictionary is held at a time.
    codes = [_encode([_strings(column)])[1] + 1 for column in (claimed, register)]
    key = codes[0] * (int(codes[1].max(initial=0)) + 1) + codes[1]
    pair = pc.dictionary_encode(pa.array(key)).indices.to_numpy(zero_copy_only=False)
    holder = np.zeros(int(pair.max(initial=-1)) + 1, dtype=np.int64)
    holder[pair] = np.arange(pair.size)  # any row of a pair holds its two values
    return holder, pair


def _distinct_decisions(
    claimed: pa.Array, register: pa.Array, holder: np.ndarray
) -> TitleDecisions:
    """`title_decisions` of the pairs of rows `holder`, `_PAIRS` at a time: what is held for a
    share (its strings, their words) is let go before the next."""
    shares = [
        title_decisions(claimed.take(at), register.take(at))
        for at in (pa.array(holder[low : low + _PAIRS]) for low in range(0, holder.size, _PAIRS))
    ]
    if not shares:
        return title_decisions(claimed.slice(0, 0), register.slice(0, 0))
    return TitleDecisions(
        *(np.concatenate([getattr(d, name) for d in shares]) for name in _DECISION_FIELDS)
    )


_DECISION_FIELDS = ("decided", "same", "near", "score")


def decide_rows(
    claimed: pa.Array,
    register: pa.Array,
    rule: Callable[[Sequence[str | None], Sequence[str | None]], list[Field]],
) -> TitleRows:
    """`title_rule` of each row, each distinct pair once: the plain pairs decided here, the
    others by `rule` (as in `decide_pairs`)."""
    claimed, register = _strings(claimed), _strings(register)
    holder, pair = _distinct(claimed, register)
    distinct = _distinct_decisions(claimed, register, holder)
    undecided = np.flatnonzero(~distinct.decided)
    asked = pa.array(holder[undecided])
    decided = rule(claimed.take(asked).to_pylist(), register.take(asked).to_pylist())
    if len(decided) != undecided.size:
        raise ValueError(f"{len(decided)} decisions of {undecided.size} title pairs")
    rows = TitleDecisions(
        distinct.decided[pair], distinct.same[pair], distinct.near[pair], distinct.score[pair]
    )
    left = np.flatnonzero(~rows.decided)
    slot = np.zeros(holder.size, dtype=np.int64)
    slot[undecided] = np.arange(undecided.size)
    return TitleRows(rows, left, [decided[k] for k in slot[pair[left]].tolist()])
