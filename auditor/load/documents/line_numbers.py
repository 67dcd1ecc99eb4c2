"""Line numbers in a manuscript's margin (review copies, `lineno`, ACM `review`, PLOS, Springer
referee): found on a page and left out, so that `Con-515 current` reads `Concurrent`.

A line number is a number set apart on its row: a wide gap before it and after it, or the row's
edge. On a numbered page they come down one margin (or both margins of a two-column page)
and count up by one from row to row. A page's numbers are taken only as such a run: at least
`MIN_RUN` of them, at one horizontal place, whose values go up, by exactly one for most steps.
A reference list numbered `1`, `2`, `3` without brackets or dots is no such run: its labels
stand a word's gap from their text, not a margin's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["MIN_RUN", "margin_numbers"]

#: Fewest numbers in one margin that make the page a numbered one.
MIN_RUN = 8
#: A margin's gap: at least this many times the font size between a number and its row's text.
_GAP_EMS = 1.5
#: Rows whose tops differ by at most this are one row (points).
_ROW = 3.0
#: Numbers of one margin sit within this of each other horizontally (points; right-aligned
#: numbers end at one place, left-aligned ones start at one).
_ALIGN = 6.0


class _Glyph(Protocol):
    @property
    def x0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def text(self) -> str: ...
    @property
    def size(self) -> float: ...


_Token = tuple[int, float, float, float, list[int]]  # value, top, x0, x1, glyph indices


def _tokens(chars: Sequence[_Glyph]) -> list[_Token]:
    """Every number standing apart on its row, as `(value, top, x0, x1, indices)`."""
    order = sorted(range(len(chars)), key=lambda i: (chars[i].top, chars[i].x0))
    rows: list[list[int]] = []
    for i in order:
        if rows and chars[i].top - chars[rows[-1][0]].top <= _ROW:
            rows[-1].append(i)
        else:
            rows.append([i])
    out: list[_Token] = []
    for row in rows:
        row.sort(key=lambda i: chars[i].x0)
        words: list[list[int]] = []
        for i in row:
            if not chars[i].text.strip():
                continue
            if words and chars[i].x0 - chars[words[-1][-1]].x1 <= 0.3 * chars[i].size:
                words[-1].append(i)
            else:
                words.append([i])
        for n, word in enumerate(words):
            text = "".join(chars[i].text for i in word)
            if not (text.isdigit() and len(text) <= 5):
                continue
            gap = _GAP_EMS * chars[word[0]].size
            before = n == 0 or chars[word[0]].x0 - chars[words[n - 1][-1]].x1 >= gap
            after = n == len(words) - 1 or chars[words[n + 1][0]].x0 - chars[word[-1]].x1 >= gap
            if before and after:
                first, last = chars[word[0]], chars[word[-1]]
                out.append((int(text), first.top, first.x0, last.x1, word))
    return out


def _runs(tokens: list[_Token]) -> list[list[_Token]]:
    """The tokens grouped by where they stand: the same right edge or the same left edge."""
    groups: list[list[_Token]] = []
    for token in sorted(tokens, key=lambda t: t[3]):
        for group in groups:
            if abs(group[0][3] - token[3]) <= _ALIGN or abs(group[0][2] - token[2]) <= _ALIGN:
                group.append(token)
                break
        else:
            groups.append([token])
    return groups


def margin_numbers(chars: Sequence[_Glyph]) -> set[int]:
    """Indices of the glyphs of a page's margin line numbers (empty on an unnumbered page)."""
    out: set[int] = set()
    for group in _runs(_tokens(chars)):
        if len(group) < MIN_RUN:
            continue
        group.sort(key=lambda t: t[1])
        values = [t[0] for t in group]
        steps = [b - a for a, b in zip(values, values[1:], strict=False)]
        if all(s > 0 for s in steps) and sum(s == 1 for s in steps) >= 0.8 * len(steps):
            for token in group:
                out.update(token[4])
    return out
