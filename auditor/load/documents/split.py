"""Cut the lines of a references section into one string per reference.

The label shape is read from the section itself, never from a list of styles:

- numbered `[1]`, `1.`, `(1)` or a bare (superscript) `1`: a reference starts at each line
  whose label is the next number, so a year or volume at a line start never cuts one;
- labelled `[Agarwal et al., 2021e]`: a reference starts at each line opening with a bracket
  that holds letters;
- otherwise paragraphs: a blank line or a new Word paragraph, a larger vertical gap, or a
  hanging indent (the first line sits left of the lines that continue it) starts a reference;
  a text list with none of these has one reference per line.

Each `Piece` keeps its first line's number and page, so every row can say where it came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from auditor.load.documents.clean import join, vocabulary
from auditor.load.documents.lines import Line

__all__ = ["Piece", "split_references"]


@dataclass(frozen=True)
class Piece:
    """The text of one reference and where it starts."""

    text: str
    line: int
    page: int | None


_LABELS = (
    ("bracket", re.compile(r"^\s*\[(\d{1,4})\]")),
    ("dot", re.compile(r"^\s*(\d{1,4})\.(?=\s)")),
    ("paren", re.compile(r"^\s*\((\d{1,4})\)")),
    ("bare", re.compile(r"^\s*(\d{1,4})(?=\s*[A-Z\u00c0-\u024f\u3400-\u9fff])")),
)
_NAME_LABEL_RE = re.compile(r"^\s*\[[^\]\d]*[A-Za-z\u00c0-\u024f][^\]]{0,80}\]")


def split_references(lines: Sequence[Line]) -> list[Piece]:
    """The references in `lines`, in order (see the module docstring)."""
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return []
    starts = _numbered_starts(lines) or _name_label_starts(lines) or _paragraph_starts(lines)
    pieces = []
    words = vocabulary([ln.text for ln in lines])
    for a, b in zip(starts, [*starts[1:], len(lines)], strict=True):
        text = join([ln.text for ln in lines[a:b]], words)
        if text:
            pieces.append(Piece(text, lines[a].number, lines[a].page))
    return pieces


def _numbered_starts(lines: Sequence[Line]) -> list[int] | None:
    best: list[int] = []
    for _name, pattern in _LABELS:
        starts, expected = [], None
        for i, ln in enumerate(lines):
            m = pattern.match(ln.text)
            if not m:
                continue
            n = int(m.group(1))
            # the next number, or one after a reference lost to the page layout
            if expected is None or expected <= n <= expected + 1:
                starts.append(i)
                expected = n + 1
        if len(starts) > len(best):
            best = starts
    if len(best) < 2 or len(best) < 0.08 * len(lines):
        return None
    return [0, *best] if best[0] != 0 else best


def _name_label_starts(lines: Sequence[Line]) -> list[int] | None:
    starts = [i for i, ln in enumerate(lines) if _NAME_LABEL_RE.match(ln.text)]
    if len(starts) < 2 or len(starts) < 0.08 * len(lines):
        return None
    return [0, *starts] if starts[0] != 0 else starts


def _paragraph_starts(lines: Sequence[Line]) -> list[int]:
    if any(ln.para_break for ln in lines[1:]):
        return [0, *(i for i, ln in enumerate(lines) if ln.para_break and i > 0)]
    if any(ln.page is not None for ln in lines):
        return _layout_starts(lines)
    return list(range(len(lines)))


def _layout_starts(lines: Sequence[Line]) -> list[int]:
    """PDF lists without labels: a gap above a line, or the first-line indent, starts one.

    `x0` is measured from the column's left edge: with a hanging indent the first lines sit at
    0 and the continuations to the right; with a first-line indent the other way round. The
    section's first line says which. With neither gaps nor indents, a line that follows one
    ending in a full stop and opens with `Surname,` starts a reference.
    """
    first_left = lines[0].x0 < _LEFT
    indented = any(ln.x0 >= _LEFT for ln in lines) and any(ln.x0 < _LEFT for ln in lines)
    gaps = any(ln.gap > 0 for ln in lines[1:])
    starts = [0]
    for i in range(1, len(lines)):
        ln = lines[i]
        if (
            ln.gap > 0
            or (indented and (ln.x0 < _LEFT) == first_left)
            or (
                not (indented or gaps)
                and _SENTENCE_END_RE.search(lines[i - 1].text)
                and _SURNAME_START_RE.match(ln.text)
            )
        ):
            starts.append(i)
    return starts


_LEFT = 2.0
_SENTENCE_END_RE = re.compile(r"[.)]\s*$")
_SURNAME_START_RE = re.compile(r"^[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]+(?: [a-z]+)?,\s")
