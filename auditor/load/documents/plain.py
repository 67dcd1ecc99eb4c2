"""Plain-text reference lists: a `.txt` or `.md` file, or text pasted into the upload page.

One reference per numbered item, per paragraph (blank lines between them), or per line when
the text has neither. A references heading (`References`, `# Bibliography`, …) is honoured when
there is one, so a whole manuscript saved as text works too; without one the whole text is the
list. Markdown bullets (`- `, `* `) start items. A body's citations mark the references cited
or never cited (`cited`), its superscripts read as the digits they became (`superscripts.
glued_marks`). `InputError` when no reference is found.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import ClassVar

from auditor.load.documents.cited import mark_cited
from auditor.load.documents.interface import DocumentLoader, no_section
from auditor.load.documents.lines import Line
from auditor.load.documents.rows import rows_from_pieces
from auditor.load.documents.sections import body_and_section, is_heading
from auditor.load.documents.split import split_references
from auditor.load.documents.superscripts import glued_marks
from auditor.load.encoding import decode_bytes
from auditor.load.interface import Problem, Rows

__all__ = ["PlainTextLoader", "text_lines"]

_BULLET_RE = re.compile(r"^\s*[-*+•]\s+")
_MD_HEADING_RE = re.compile(r"^\s*#{1,6}\s+")
_RULE_RE = re.compile(r"^\s*(?:[-=_*]\s*){3,}$")


class PlainTextLoader(DocumentLoader):
    """Reads a reference list given as text."""

    format: ClassVar[str] = "text"

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the text `data` (decoded as the other text loaders decode)."""
        decoded = decode_bytes(data, path, None)
        warnings = [Problem(path, None, w, "warning", "encoding") for w in decoded.warnings()]
        return self._with(decoded.text, path, warnings)

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the decoded `text`."""
        return self._with(text, path, [])

    def _with(self, text: str, path: str, problems: list[Problem]) -> tuple[Rows, list[Problem]]:
        lines = text_lines(text)
        body: list[Line] = []
        section: list[Line] | None = lines
        if any(is_heading(ln) for ln in lines):
            body, section = body_and_section(lines)
        pieces = split_references(section or [])
        if not pieces:
            raise no_section(path)
        rows = rows_from_pieces(pieces)
        # pasted text keeps a superscript marker only as digits glued to its word
        mark_cited(rows, [replace(ln, marks=glued_marks(ln.text)) for ln in body], path)
        return rows, problems


def text_lines(text: str) -> list[Line]:
    """One `Line` per non-blank line; a blank line or a bullet makes the next a `para_break`."""
    out: list[Line] = []
    blank = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or _RULE_RE.match(line):
            blank = True
            continue
        heading = bool(_MD_HEADING_RE.match(line))
        bullet = bool(_BULLET_RE.match(line))
        clean = _BULLET_RE.sub("", _MD_HEADING_RE.sub("", line)).strip()
        out.append(Line(clean, number, para_break=blank or bullet or heading, heading=heading))
        blank = heading
    return out
