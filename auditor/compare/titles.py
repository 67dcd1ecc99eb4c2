"""auditor/v2's title comparison of one pair: same, a near miss, or different.

Same means the two titles are one title written two ways: equal `title_words` (case,
punctuation, markup, TeX residue, British/American spelling do not count), equal when closed up
(hyphenation and spacing inside compounds: `pre-training` = `pretraining`), or one of them is the
other plus a trailing subtitle. Anything else differs, and a difference of at most two words
(one changed, added, dropped or misspelt word is a difference of one or two) is a near miss:
the cited title is almost the register's, which is what a fabricated variant looks like.
Two titles with Han ideographs compare by the Chinese-aware form (`han_title_form`).
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from auditor.compare.forms import title_main, title_words
from auditor.text import han_title_form, has_han

__all__ = ["NEAR_MISS_MAX_WORDS", "TitleAgreement", "compare_titles", "word_distance"]

#: A title differing from the register's by at most this many word edits is a near miss.
NEAR_MISS_MAX_WORDS = 2


class TitleAgreement(StrEnum):
    """How a claimed title relates to a register title."""

    SAME = "same"
    NEAR = "near"
    DIFFERENT = "different"
    EMPTY = "empty"


def word_distance(a: tuple[str, ...], b: tuple[str, ...], cap: int = 8) -> int:
    """Word-level Levenshtein distance (insert, delete, substitute one word), capped at `cap`."""
    # rapidfuzz compares sequences of hashables in C++ and stops at the cutoff (returning
    # cutoff + 1): the same number our own dynamic programme gave, at a fraction of the time.
    return min(int(Levenshtein.distance(a, b, score_cutoff=cap)), cap)


def _same_words(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return bool(a) and (a == b or "".join(a) == "".join(b))


@lru_cache(maxsize=65536)
def compare_titles(claimed: str | None, register: str | None) -> tuple[TitleAgreement, float]:
    """(agreement, Jaccard of the word sets) of a claimed and a register title."""
    wa, wb = title_words(claimed), title_words(register)
    if not wa or not wb:
        return TitleAgreement.EMPTY, 0.0
    ta, tb = frozenset(wa), frozenset(wb)  # `title_tokens`, without looking the words up again
    score = len(ta & tb) / len(ta | tb)
    if has_han(claimed) and has_han(register):
        same = han_title_form(claimed) == han_title_form(register)
        return (TitleAgreement.SAME if same else TitleAgreement.DIFFERENT), score
    if _same_words(wa, wb):
        return TitleAgreement.SAME, score
    # A trailing subtitle on one side only (KI-7): the other side is the main title.
    for longer, shorter in ((claimed, wb), (register, wa)):
        main = title_main(longer)
        if main is not None and _same_words(title_words(main), shorter):
            return TitleAgreement.SAME, score
    if word_distance(wa, wb, cap=NEAR_MISS_MAX_WORDS + 1) <= NEAR_MISS_MAX_WORDS:
        return TitleAgreement.NEAR, score
    return TitleAgreement.DIFFERENT, score
