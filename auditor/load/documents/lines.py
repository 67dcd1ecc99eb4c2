"""The value every document reader hands to the section finder and the splitter: `Line`s.

A PDF gives one `Line` per printed line (with its page, left edge and vertical gap); a Word
file one per paragraph (`para_break`); a text file one per physical line, a blank line making
the next a `para_break`. The splitter needs nothing else to cut a list into references.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Line"]


@dataclass(frozen=True)
class Line:
    """One printed line (PDF, text) or paragraph (Word) of a document."""

    text: str
    """The line's characters, ligatures mapped, trailing whitespace stripped."""
    number: int
    """1-based: the line of a text file, the paragraph of a Word file, the line of a PDF page."""
    page: int | None = None
    """1-based page of a PDF; `None` for Word and text."""
    x0: float = 0.0
    """Left edge in points (PDF) so hanging indents can be seen; 0 elsewhere."""
    gap: float = 0.0
    """Vertical space above the line beyond the usual leading (PDF); 0 elsewhere."""
    para_break: bool = False
    """A paragraph starts here: a blank line before it (text) or a new paragraph (Word)."""
    heading: bool = False
    """A Word heading style or a text/Markdown heading (`# References`)."""
    marks: tuple[str, ...] = ()
    """The citation markers set as superscripts in the line (PDF, Word, ODF), as `"3,5–7"`
    (a PDF's text runs them into the word before: `before3,5–7`), and, after a `?`, raised
    numbers in a place no marker stands (`?5` of `10⁵`), which claim nothing
    (`superscripts.read_mark`)."""
