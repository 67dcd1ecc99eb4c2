"""Superscript citation markers in one printed line of a PDF: `before1,2`, `cases3–7`.

Nature, AMA and many Vancouver bodies cite by a number set smaller and raised above the line's
baseline, straight after a word or a punctuation mark. The text layer runs it into the word
(`before1,2.`), so it is found here from the characters' sizes and baselines, not their text:
a run of characters at most `_SMALLER` of the size of the line's letters, whose baseline is at
least `_RAISED` of that size above the line's, that reads as numbers and ranges (`3`, `1,2`,
`3,5–7`, `2-5`), right after a character of the line's own size.

What is not a marker: a raised number opening the line (a footnote's own mark at the page's
foot), one standing apart from the word before by more than a space, one with a minus sign
(`m⁻²`), a number over `_MOST` (no list is that long), and a lone number (not a list or a
range, which no exponent is) after a number other than a year (`10⁵`, but `in 2019⁵` cites)
or after a one-letter word standing alone (`R²`, `x²`; but `Chat-1M²⁷` cites). An
exponent after a unit (`cm²`) or an affiliation mark on the title page (`Smith¹`) does pass:
it can only mark a reference cited, never claim one uncited (`cited.mark_cited`). A raised
number set aside by these rules is kept as a doubt (`?5`): it may be a marker read wrong, so
its reference is never claimed uncited either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median
from typing import Protocol

__all__ = [
    "Glyph",
    "glued_marks",
    "is_marker_after",
    "read_mark",
    "superscript_marks",
    "written_marks",
]

#: A marker's characters are at most this share of the line's size (TeX: 7 pt on 10 pt).
_SMALLER = 0.85
#: Its baseline stands at least this share of the line's size above the line's (TeX: 0.36).
_RAISED = 0.2
#: Characters this close (points) are of one word (`pdf_text` puts no space between them).
_JOINED = 1.5
_MOST = 2000
#: A space (of the line's size) may stand inside a marker and before it.
_SPACE = 0.4
_CLOSING = ".,;:)]’'\"”?!%"
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹˒", "0123456789,")
_WRITTEN_RE = re.compile(r"([⁰¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹˒]*)|\^\(([\d ,;–—-]+)\)|\^(\d[\d,;–—-]*\d|\d)")
_GLUED_RE = re.compile(r"(?<![\w\-])[a-z]{3,}(\d{1,3}(?:[,–-]\d{1,3})*)(?=[\s.,;:)]|$)")
_YEAR_END_RE = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d$")
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
        # a run goes on across a space of its own size (`1, 2` as a word processor sets it)
        while j < len(glyphs) and raised[j] and glyphs[j].x0 - glyphs[j - 1].x1 <= _SPACE * size:
            j += 1
        text = "".join(g.text for g in glyphs[i:j])
        near = i > 0 and glyphs[i].x0 - glyphs[i - 1].x1 <= _SPACE * size
        mark = read_mark(_text_before(glyphs, i) if near else "", text)
        if mark:
            out.append(mark)
        i = j
    return tuple(out)


def _text_before(glyphs: Sequence[Glyph], at: int) -> str:
    """The line's text before `glyphs[at]`, its last few words (enough for the rules)."""
    parts: list[str] = []
    for k in range(at - 1, max(-1, at - 24), -1):
        parts.append(glyphs[k].text)
        if k and glyphs[k].x0 - glyphs[k - 1].x1 > _JOINED:
            parts.append(" ")
    return "".join(reversed(parts))


def is_marker_after(before: str, raised: str) -> bool:
    """Whether `raised`, a superscript's text, set after `before` (its line's text up to it)
    is a citation marker, by the rules of the module docstring read off text."""
    before = before.rstrip(" ")  # a space may be typed before the superscript
    marker = raised.replace(" ", "").rstrip(",;")
    if not before or not _is_marker(marker):
        return False
    if not marker.isdigit():  # a list or a range (`26,50`, `3–7`) is no exponent
        return True
    if before[-1].isdigit():
        # after a year (`in 2019⁵`) it cites; after any other number it is an exponent
        return bool(_YEAR_END_RE.search(before))
    if not before[-1].isalpha():
        return before[-1] in _CLOSING
    # a one-letter word standing alone (`R²`, `x²`) is a symbol with its exponent; one
    # glued to a number is a quantity's suffix (`Chat-1M²⁷`)
    return not re.search(r"(?:^|[^\w.])[^\W\d_]$", before)


def read_mark(before: str, raised: str) -> str | None:
    """`raised` (a superscript's text after `before`) as a marker (`"3,5–7"`), as a doubt
    (`"?5"`: numbers a marker could hold, in a place where none stands, `10⁵` or a line's
    opening footnote mark, whose references are then never claimed uncited), or `None` (no
    number: `st`, `−2`, `*`)."""
    marker = raised.replace(" ", "").rstrip(",;")
    if not _is_marker(marker):
        return None
    return marker if is_marker_after(before, raised) else f"?{marker}"


def written_marks(text: str) -> tuple[str, ...]:
    """The superscript markers written out in a line's characters: Unicode superscript digits
    (`ways¹⁷`, `before¹˒²`) and the caret of plain text (`ways^(2–4)`, `ways^3`), taken by the
    rules of `is_marker_after` (so `m²` and `10⁵` are none)."""
    out = []
    for m in _WRITTEN_RE.finditer(text):
        raised = (m.group(1) or m.group(2) or m.group(3)).translate(_SUPERSCRIPT_DIGITS)
        if mark := read_mark(text[: m.start()], raised):
            out.append(mark)
    return tuple(out)


def glued_marks(text: str) -> tuple[str, ...]:
    """The superscript markers of a line of plain text, where they lost their setting and run
    into the word before (`studied before1,2.`, pasted from a PDF): numbers and ranges glued
    to a lowercase word of three letters or more, then a space, a punctuation mark or the
    line's end. `CO2`, `H1N1`, `x86` and `Fig.2` are none (capitals, short words, a dot)."""
    return tuple(m.group(1) for m in _GLUED_RE.finditer(text) if _is_marker(m.group(1)))


def _is_marker(text: str) -> bool:
    if not _MARKER_RE.fullmatch(text):
        return False
    return all(int(n) <= _MOST for n in re.findall(r"\d+", text))
