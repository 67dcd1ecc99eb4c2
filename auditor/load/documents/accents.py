"""TeX's accents put back on their letters.

TeX with its classic (OT1) fonts sets `\\~n` as two glyphs: the letter and a spacing accent drawn
over it. A PDF's text layer keeps them apart, so `Onta\\~n\\'on` reads `Ontan˜´on`, and the
accent falls before or after its letter depending on which glyph is narrower. Which letter an
accent belongs to is told by where it is drawn: over (or under, for a cedilla) the letter whose
box holds the accent's centre. An accent that stands in its own place on the line (a `´` typed
as a character) overlaps no letter and is left as it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

__all__ = ["Glyph", "accented"]

# The spacing forms TeX's accent glyphs carry in a text layer, and the mark each stands for.
_COMBINING = {
    "`": "\u0300",
    "´": "\u0301",
    "ˆ": "\u0302",
    "^": "\u0302",
    "˜": "\u0303",
    "~": "\u0303",
    "¯": "\u0304",
    "˘": "\u0306",
    "˙": "\u0307",
    "¨": "\u0308",
    "˚": "\u030a",
    "˝": "\u030b",
    "ˇ": "\u030c",
    "¸": "\u0327",
    "˛": "\u0328",
}
# TeX accents i and j without their dots (`\'{\i}`).
_DOTLESS = {"ı": "i", "ȷ": "j"}
# How far inside a letter's box the accent's centre must fall, as a share of the letter's width:
# an accent set in its own place has its centre at its own box's middle, at a letter's edge.
_INSIDE = 0.15


class Glyph(Protocol):
    """A glyph's horizontal extent and text (pdf_text's characters)."""

    @property
    def x0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def text(self) -> str: ...


def accented(row: Sequence[Glyph]) -> dict[int, str]:
    """`{index: new text}` for `row` (one printed line's glyphs, left to right): each letter
    under an accent gets its composed form (NFC), and the accent's own glyph gets `""`."""
    out: dict[int, str] = {}
    if not any(c.text in _COMBINING for c in row):
        return out
    for i, accent in enumerate(row):
        if accent.text not in _COMBINING or i in out:
            continue
        j = _letter_under(row, i)
        if j is None or j in out:
            continue
        base = _DOTLESS.get(row[j].text, row[j].text)
        out[j] = unicodedata.normalize("NFC", base + _COMBINING[accent.text])
        out[i] = ""
    return out


def _letter_under(row: Sequence[Glyph], i: int) -> int | None:
    """The index of the letter next to `row[i]` whose box holds that accent's centre."""
    accent = row[i]
    centre = (accent.x0 + accent.x1) / 2
    for j in (i - 1, i + 1):
        if not 0 <= j < len(row):
            continue
        c = row[j]
        if len(c.text) != 1 or not c.text.isalpha():
            continue
        margin = (c.x1 - c.x0) * _INSIDE
        if c.x0 + margin < centre < c.x1 - margin:
            return j
    return None
