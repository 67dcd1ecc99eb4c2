"""Word `.docx` documents: reference-manager fields first, then the bibliography paragraphs.

When the file holds Zotero, Mendeley, EndNote or Word citation fields (`docx_fields`), those
exact records are the rows, each with the paragraph of its first citation (`cited_at`) and the
bibliography entry that prints it (`reference_text`, found by its title) when there is one.
Otherwise the paragraphs under the references heading (or styled `Bibliography`) are read as
text, one reference per paragraph or line. `InputError` when neither is found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from auditor.documents.docx_fields import read_fields
from auditor.documents.docx_xml import DocxParts, read_docx
from auditor.documents.interface import DocumentLoader, no_section
from auditor.documents.lines import Line
from auditor.documents.rows import rows_from_pieces
from auditor.documents.sections import references_section
from auditor.documents.split import split_references
from auditor.load.interface import ENTRY_COLUMNS, Problem, Rows

__all__ = ["DocxLoader", "docx_lines"]


class DocxLoader(DocumentLoader):
    """Reads the references of a Word `.docx`."""

    format: ClassVar[str] = "docx"

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the fields, else of the bibliography paragraphs (see the module docstring)."""
        parts = read_docx(data, path)
        lines = docx_lines(parts)
        fields = read_fields(parts, path)
        if fields is not None and len(fields[0]):
            rows, problems, cited = fields
            _annotate(rows, path, cited, _bibliography_texts(lines))
            return rows, problems
        section = references_section(lines) or _styled_bibliography(parts, lines)
        pieces = split_references(section) if section else []
        if not pieces:
            raise no_section(path)
        return rows_from_pieces(pieces), []


def docx_lines(parts: DocxParts) -> list[Line]:
    """One `Line` per paragraph line (a line break inside a paragraph starts a new one)."""
    out: list[Line] = []
    for p in parts.paragraphs:
        heading = p.style.lower().startswith(("heading", "title")) or p.style.lower() == "berschrift"
        for text in p.lines:
            if text.strip():
                out.append(Line(text.strip(), p.number, para_break=True, heading=heading))
    return out


def _styled_bibliography(parts: DocxParts, lines: Sequence[Line]) -> list[Line] | None:
    styled = {p.number for p in parts.paragraphs if p.style.lower() in ("bibliography", "literaturverzeichnis")}
    found = [ln for ln in lines if ln.number in styled]
    return found or None


_WORDS_RE = re.compile(r"[^\W_]+")


def _key(text: str | None) -> str:
    return " ".join(_WORDS_RE.findall((text or "").lower()))


def _bibliography_texts(lines: Sequence[Line]) -> list[str]:
    section = references_section(lines)
    return [ln.text for ln in (section or [])]


def _annotate(rows: Rows, path: str, cited: list[int], texts: list[str]) -> None:
    """Fill `cited_at` and `reference_text` of field rows in place."""
    title_at = ENTRY_COLUMNS.index("title")
    text_at = ENTRY_COLUMNS.index("reference_text")
    cited_at = ENTRY_COLUMNS.index("cited_at")
    keyed = [(_key(t), t) for t in texts]
    out = []
    for row, paragraph in zip(rows.rows, cited, strict=False):
        values = list(row)
        title = _key(values[title_at])
        if title:
            values[text_at] = next((t for k, t in keyed if title in k), None)
        values[cited_at] = f"{path} ¶{paragraph}" if paragraph else None
        out.append(tuple(values))
    rows.rows = out
