"""Spans an opening and its closing enclose (`<!-- … -->`, `\\begin{comment} … \\end{comment}`).

`enclosed(text, opening, closing)` finds what the regular expression `opening(.*?)closing` with
`re.S` finds (left to right, never overlapping, each opening with the first closing after it),
in time linear in `text`. The regular expression tries every opening against the rest of the
text, so a file of n openings that are never closed costs n times its length; here a closing
once found missing after some place is not looked for again after a later opening.
`replaced(text, spans, repl)` then rewrites those spans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

__all__ = ["NextChar", "enclosed", "replaced"]

#: Where an opening's body starts and the pattern that closes it; `None`: not an opening after all.
Closing = Callable[[re.Match[str]], tuple[int, re.Pattern[str]] | None]


def enclosed(
    text: str, opening: re.Pattern[str], closing: Closing
) -> Iterator[tuple[re.Match[str], int, re.Match[str]]]:
    """Each `(opening match, body start, closing match)` of `text`, in order (module docstring)."""
    missing: dict[re.Pattern[str], int] = {}  # closing → none after this offset
    pos = 0
    while (start := opening.search(text, pos)) is not None:
        found = closing(start)
        end = None
        if found is not None:
            body, close = found
            if body < missing.get(close, len(text) + 1):
                end = close.search(text, body)
                if end is None:
                    missing[close] = body
        if end is None:
            pos = start.start() + 1  # as a regular expression goes on: at the next character
            continue
        yield start, body, end
        pos = end.end()


def replaced(text: str, spans: Iterable[tuple[int, int]], repl: Callable[[str], str]) -> str:
    """`text` with each of `spans` (in order, not overlapping) `s` replaced by `repl(s)`."""
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out += (text[pos:start], repl(text[start:end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


class NextChar:
    """The first offset of one character at or after a place, asked for places in order: each
    answer is reused until a place past it (`str.find` from each place would read the same
    stretch again for every place before it)."""

    def __init__(self, text: str, char: str) -> None:
        self._text, self._char = text, char
        self._asked, self._found = len(text) + 1, -1

    def find(self, at: int) -> int:
        """The offset of the character's first occurrence at or after `at`, -1 when none."""
        if self._asked <= at and (self._found < 0 or at <= self._found):
            return self._found
        self._asked, self._found = at, self._text.find(self._char, at)
        return self._found
