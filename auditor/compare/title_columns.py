"""auditor/v2's title rule over whole columns, for the pairs whose decision can be proved.

`v2.title_rule` decides one pair at a time in Python; on a large run that is most of the compare
stage. Most pairs are plain (`auditor.compare.plain_titles`): two printable-ASCII titles without
markup, entities, TeX or notice labels (`RETRACTED: …`), whose words can be computed for a whole
column as integer codes. The Jaccard score, the equality of the joined words, the trailing
subtitle rule and the word distance then follow from those codes, with the results
`compare_titles` gives.

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

from auditor.compare import plain_titles
from auditor.compare.plain_titles import Sets, as_strings, encode
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


def _encoded(claimed: pa.Array, register: pa.Array) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """(the distinct strings of both columns, each row's claimed and register string in them);
    a null is the index one past the last string."""
    strings, index = encode([as_strings(claimed), as_strings(register)])
    index = np.where(index < 0, len(strings), index)
    return strings, index[: len(claimed)], index[len(claimed) :]


def title_decisions(claimed: pa.Array, register: pa.Array) -> TitleDecisions:
    """The decisions of the pairs `(claimed[k], register[k])` that can be proved plain."""
    return _decisions(*_encoded(claimed, register))


def _decisions(strings: pa.Array, claimed: np.ndarray, register: np.ndarray) -> TitleDecisions:
    """`title_decisions` of the pairs `(strings[claimed[k]], strings[register[k]])`."""
    n = len(claimed)
    plain, subtitled, mains = plain_titles.plain_strings(strings)
    chosen = np.flatnonzero(plain)
    # The plain strings a share at a time (slices when all are plain: no copy), then the mains.
    parts = [
        strings.slice(low, _SHARE)
        if chosen.size == len(strings)
        else strings.take(pa.array(chosen[low : low + _SHARE]))
        for low in range(0, chosen.size, _SHARE)
    ]
    words = plain_titles.read_words([*parts, pa.array(mains, pa.string())])
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
    same = plain_titles.same_words(words, a, b)
    # A trailing subtitle on one side only: the other side is that side's main title.
    for longer, shorter in ((main_a, b), (main_b, a)):
        asked = np.flatnonzero(~same & (longer >= 0))
        same[asked] = plain_titles.same_words(words, longer[asked], shorter[asked])
    out = TitleDecisions(
        np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.zeros(n)
    )
    out.decided[rows], out.same[rows] = True, same
    out.near[rows[~same]] = near_misses(words.offsets, words.codes, a[~same], b[~same])
    out.score[rows] = _scores(plain_titles.word_sets(words), a, b)
    return out


def _scores(sets: Sets, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Jaccard score of the word sets of strings `a[k]` and `b[k]`, a share of the pairs at
    a time (its arrays, several per word of the pair, stay a few MB however many pairs)."""
    score = np.zeros(a.size)
    for low in range(0, a.size, _SHARE):
        both, union = plain_titles.common_words(sets, a[low : low + _SHARE], b[low : low + _SHARE])
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
    codes = [encode([as_strings(column)])[1] + 1 for column in (claimed, register)]
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
    claimed, register = as_strings(claimed), as_strings(register)
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
