"""Superscript citation markers in one printed line of a PDF: `before1,2`, `cases3–7`.

Nature, AMA and many Vancouver bodies cite by a number set smaller and raised above the line's
baseline, straight after a word or a punctuation mark. The text layer runs it into the word
(`before1,2.`), so it is found here from the characters' sizes and baselines, not their text:
a run of characters at most `_SMALLER` of the size of the line's letters, whose baseline is at
least `_RAISED` of that size above the line's, that reads as numbers and ranges (`3`, `1,2`,
`3,5–7`, `2-5`), right after a character of the line's own size.

What is not a marker: a raised number opening the line (a footnote's own mark at the page's
foot), one after a digit (`10⁵`) or after a one-letter word (`R²`, `x²`), one with a minus
sign (`m⁻²`), and a number over `_MOST` (no list is that long; `10³⁰` is an exponent). An
exponent after a unit (`cm²`) or an affiliation mark on the title page (`Smith¹`) does pass:
it can only mark a reference cited, never claim one uncited (`cited.mark_cited`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median
from typing import Protocol

__all__ = ["Glyph", "is_marker_after", "superscript_marks"]

#: A marker's characters are at most this share of the line's size (TeX: 7 pt on 10 pt).
_SMALLER = 0.85
#: Its baseline stands at least this share of the line's size above the line's (TeX: 0.36).
_RAISED = 0.2
#: A marker's characters follow one another this close (points), as one word's do.
_JOINED = 1.5
_MOST = 2000
_MARKER_RE = re.compile(r"\d{1,4}(?:[,;–—-]\d{1,4})*")


class Glyph(Protocol):
    """What is read of one printed character (`pdf_text._Char`)."""

    @property
    def x0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def text(self) -> str: ...
    @property
    def size(self) -> float: ...
    @property
    def base(self) -> float:
        """The baseline, in points down from the page's top."""
        ...


def superscript_marks(row: Sequence[Glyph]) -> tuple[str, ...]:
    """The citation markers raised in `row`, one printed line's characters left to right.

    Each marker is its text with spaces dropped (`"3,5–7"`); `()` for a line without one.
    """
    glyphs = [g for g in row if g.text.strip()]
    if len(glyphs) < 2:
        return ()
    sizes = [g.size for g in glyphs]
    if min(sizes) > _SMALLER * max(sizes):  # most lines: one size throughout
        return ()
    # the size of the line's letters: a short line (`ways8;12–14.`) may hold more marker
    # characters than letters, and a marker holds no letter
    size = median([g.size for g in glyphs if g.text.isalpha()] or sizes)
    base = median(g.base for g in glyphs if g.size > _SMALLER * size) if size > 0 else 0.0
    raised = [g.size <= _SMALLER * size and g.base <= base - _RAISED * size for g in glyphs]
    out: list[str] = []
    i = 0
    while i < len(glyphs):
        if not raised[i]:
            i += 1
            continue
        j = i + 1
        while j < len(glyphs) and raised[j] and glyphs[j].x0 - glyphs[j - 1].x1 <= _JOINED:
            j += 1
        text = "".join(g.text for g in glyphs[i:j])
        if i > 0 and _after_word(glyphs, i) and _is_marker(text):
            out.append(text)
        i = j
    return tuple(out)


def _after_word(glyphs: Sequence[Glyph], at: int) -> bool:
    """Whether the character before `glyphs[at]` ends a word of two letters or more, or is a
    punctuation mark closing one, touching the marker (as TeX sets it)."""
    before = glyphs[at - 1]
    if before.x1 < glyphs[at].x0 - 3 * _JOINED or before.text.isdigit():
        return False
    if not before.text.isalpha():
        return before.text in ".,;:)]’'\"”?!"
    # a one-letter word (`R²`, `x²`) is a symbol with its exponent
    previous = glyphs[at - 2] if at >= 2 else None
    return previous is not None and previous.text.isalpha() and before.x0 - previous.x1 <= _JOINED


def is_marker_after(before: str, raised: str) -> bool:
    """Whether `raised`, a superscript's text (a Word run's), set after `before` (its line's
    text up to it) is a citation marker, by the rules of the module docstring read off text."""
    before = before.rstrip(" ")  # Word authors may type a space before the superscript
    if not before or before[-1].isdigit() or not _is_marker(raised.replace(" ", "")):
        return False
    if not before[-1].isalpha():
        return before[-1] in ".,;:)]’'\"”?!"
    word = re.search(r"[^\W\d_]+$", before)
    return word is not None and len(word.group()) >= 2


def _is_marker(text: str) -> bool:
    if not _MARKER_RE.fullmatch(text):
        return False
    return all(int(n) <= _MOST for n in re.findall(r"\d+", text))
