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

from auditor.load.documents.docx_fields import read_fields
from auditor.load.documents.docx_xml import DocxParts, read_docx
from auditor.load.documents.interface import DocumentLoader
from auditor.load.documents.lines import Line
from auditor.load.documents.section_rows import section_rows
from auditor.load.documents.sections import body_and_section, references_section
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
        body, section = body_and_section(lines)
        if section is None:
            section = _styled_bibliography(parts, lines)
            body = [ln for ln in lines if section is None or ln not in section]
        return section_rows(body, section, path)


def docx_lines(parts: DocxParts) -> list[Line]:
    """One `Line` per paragraph line (a line break inside a paragraph starts a new one)."""
    out: list[Line] = []
    for p in parts.paragraphs:
        heading = (
            p.style.lower().startswith(("heading", "title")) or p.style.lower() == "berschrift"
        )
        out.extend(
            Line(text.strip(), p.number, para_break=True, heading=heading)
            for text in p.lines
            if text.strip()
        )
    return out


def _styled_bibliography(parts: DocxParts, lines: Sequence[Line]) -> list[Line] | None:
    styled = {
        p.number
        for p in parts.paragraphs
        if p.style.lower() in ("bibliography", "literaturverzeichnis")
    }
    found = [ln for ln in lines if ln.number in styled]
    return found or None


_WORDS_RE = re.compile(r"[^\W_]+")


def _key(text: str | None) -> str:
    return " ".join(_WORDS_RE.findall((text or "").lower()))


def _bibliography_texts(lines: Sequence[Line]) -> list[str]:
    section = references_section(lines)
    return [ln.text for ln in (section or [])]


def _annotate(rows: Rows, path: str, cited: list[int], texts: list[str]) -> None:
    """Fill `cited_at` and `reference_text` of field rows in place.

    A row's bibliography entry is the unused one holding its title that also holds most of its
    first author's surname, year and DOI (two entries may share a title), in list order.
    """
    at = {name: ENTRY_COLUMNS.index(name) for name in ("title", "authors", "year", "doi")}
    text_at = ENTRY_COLUMNS.index("reference_text")
    cited_at = ENTRY_COLUMNS.index("cited_at")
    keyed = _keyed(texts)
    used: set[int] = set()
    out = []
    for row, paragraph in zip(rows.rows, cited, strict=False):
        values = list(row)
        best = _entry_for(values, at, keyed, used)
        if best is not None:
            used.add(best)
            values[text_at] = keyed[best][1]
        values[cited_at] = f"{path} ¶{paragraph}" if paragraph else None
        out.append(tuple(values))
    rows.rows = out


_DASHES_RE = re.compile(r"^\s*[—–_-]{2,}")


def _keyed(texts: list[str]) -> list[tuple[str, str]]:
    """Each entry's text and its match key; an entry printed `———.` (same authors as the one
    before, Chicago's rule) is keyed with the authors of the entry before it."""
    out: list[tuple[str, str]] = []
    authors = ""
    for text in texts:
        if _DASHES_RE.match(text):
            out.append((f"{authors} {_key(text)}", text))
            continue
        authors = _key(text.split(". ", 1)[0])
        out.append((_key(text), text))
    return out


def _entry_for(
    values: list[object], at: dict[str, int], keyed: list[tuple[str, str]], used: set[int]
) -> int | None:
    title = _key(str(values[at["title"]] or ""))
    if not title:
        return None
    authors = values[at["authors"]] or []
    first = str(authors[0]) if isinstance(authors, list) and authors else ""
    surname = _key(first.split(",", 1)[0] if "," in first else (first.split() or [""])[-1])
    hints = [
        h for h in (surname, str(values[at["year"]] or ""), _key(str(values[at["doi"]] or ""))) if h
    ]
    best, best_score = None, -1
    for i, (k, _text) in enumerate(keyed):
        if i in used or title not in k:
            continue
        score = sum(f" {h} " in f" {k} " for h in hints)
        if score > best_score:
            best, best_score = i, score
    return best
