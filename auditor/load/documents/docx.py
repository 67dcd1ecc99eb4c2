"""Word `.docx` documents: reference-manager fields first, then the bibliography paragraphs.

When the file holds Zotero, Mendeley, EndNote, Citavi or Word citation fields (`docx_fields`),
those exact records are rows, each with the paragraph of its first citation (`cited_at`) and the
bibliography entry that prints it (`reference_text`, found by its title). The bibliography is
the manager's own bibliography field when there is one, else the paragraphs under the references
heading (or styled `Bibliography`). Its entries that no record prints are read as reference
strings too, so a file that mixes fields and typed references loses neither; such a row is
marked cited or not from the body text like any typed list, and one printed inside the manager's
bibliography while the manager lists items it prints uncited (Zotero's `uncited`) and the body
never cites it is `not cited in the text`. Without fields the paragraphs under the references
heading (or styled `Bibliography`) are read as text, one reference per paragraph or line.
`InputError` when neither is found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from auditor.load.documents.cited import NOT_CITED, mark_cited
from auditor.load.documents.docx_fields import NOT_CITED_HERE, Fields, read_fields
from auditor.load.documents.docx_xml import DocxParts, read_docx
from auditor.load.documents.interface import DocumentLoader
from auditor.load.documents.limits import DocumentLimits
from auditor.load.documents.lines import Line
from auditor.load.documents.rows import rows_from_pieces
from auditor.load.documents.section_rows import section_rows
from auditor.load.documents.sections import body_and_section
from auditor.load.documents.split import Piece, split_references
from auditor.load.interface import ENTRY_COLUMNS, Problem, Rows

__all__ = ["DocxLoader", "docx_lines"]


class DocxLoader(DocumentLoader):
    """Reads the references of a Word `.docx`."""

    format: ClassVar[str] = "docx"

    def __init__(self, limits: DocumentLimits | None = None) -> None:
        self.limits = limits or DocumentLimits()

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the fields and of the entries they leave, else of the bibliography
        paragraphs (see the module docstring)."""
        parts = read_docx(data, path, self.limits)
        lines = docx_lines(parts)
        fields = read_fields(parts, path)
        if fields is not None and len(fields.rows):
            return _with_fields(fields, parts, lines, path), fields.problems
        body, section = body_and_section(lines)
        if section is None:
            section = _styled_bibliography(parts, lines)
            body = [ln for ln in lines if section is None or ln not in section]
        return section_rows(body, section, path)


def _with_fields(fields: Fields, parts: DocxParts, lines: list[Line], path: str) -> Rows:
    span = fields.bibliography
    body, section = body_and_section(lines)
    if section is None:
        section = _styled_bibliography(parts, lines)
    if span is not None:  # the manager's list, and whatever was typed under the same heading
        numbers = {ln.number for ln in section or []}
        section = [ln for ln in lines if ln.number in numbers or span[0] <= ln.number <= span[1]]
    if section:
        body = [ln for ln in lines if ln.number < section[0].number]
    pieces = split_references(section) if section else []
    rows = fields.rows
    used = _annotate(rows, path, fields.cited, pieces)
    rest = [p for i, p in enumerate(pieces) if i not in used]
    if not rest:
        return rows
    typed = rows_from_pieces(rest)
    mark_cited(typed, body, path)
    key_at, warn_at = ENTRY_COLUMNS.index("key"), ENTRY_COLUMNS.index("warnings")
    cited_at = ENTRY_COLUMNS.index("cited_at")
    keys = {row[key_at] for row in rows.rows}
    for piece, row in zip(rest, typed.rows, strict=True):
        values = list(row)
        if values[key_at] in keys:
            values[key_at] = f"{values[key_at]} (¶{piece.line})"
        printed_uncited = span is not None and fields.uncited and span[0] <= piece.line <= span[1]
        warnings = list(values[warn_at] or [])
        if printed_uncited and values[cited_at] is None and NOT_CITED not in warnings:
            values[warn_at] = [*warnings, NOT_CITED]
        rows.rows.append(tuple(values))
    return rows


def docx_lines(parts: DocxParts) -> list[Line]:
    """One `Line` per paragraph line (a line break inside a paragraph starts a new one)."""
    out: list[Line] = []
    for p in parts.paragraphs:
        heading = (
            p.style.lower().startswith(("heading", "title")) or p.style.lower() == "berschrift"
        )
        marks = p.marks or ((),) * len(p.lines)
        out.extend(
            Line(text.strip(), p.number, para_break=True, heading=heading, marks=raised)
            for text, raised in zip(p.lines, marks, strict=True)
            if text.strip()
        )
    return out


def _styled_bibliography(parts: DocxParts, lines: Sequence[Line]) -> list[Line] | None:
    styled = {
        p.number
        for p in parts.paragraphs
        if p.style.lower()
        in (
            "bibliography",
            "literaturverzeichnis",
            "endnotebibliography",
            "citavibibliographyentry",
        )
    }
    found = [ln for ln in lines if ln.number in styled]
    return found or None


_WORDS_RE = re.compile(r"[^\W_]+")
_TAG_RE = re.compile(r"</?(?:i|b|sup|sub|span|sc)\b[^>]*>", re.IGNORECASE)


def _key(text: str | None) -> str:
    return " ".join(_WORDS_RE.findall(_TAG_RE.sub("", text or "").lower()))


def _annotate(rows: Rows, path: str, cited: list[int], pieces: Sequence[Piece]) -> set[int]:
    """Fill `cited_at`, `reference_text` (and `NOT_CITED` for a record its manager prints
    uncited) of field rows in place; the indices of the pieces that print a row.

    A row's bibliography entry is the unused one holding its title that also holds most of its
    first author's surname, year and DOI (two entries may share a title), in list order; a row
    whose title no entry holds whole (a style that drops a subtitle, a title edited in the
    printed list) then takes the unused entry holding most of its title's words, if that is
    at least three quarters of them.
    """
    at = {name: ENTRY_COLUMNS.index(name) for name in ("title", "authors", "year", "doi")}
    text_at = ENTRY_COLUMNS.index("reference_text")
    cited_at = ENTRY_COLUMNS.index("cited_at")
    warn_at = ENTRY_COLUMNS.index("warnings")
    keyed = _keyed([p.text for p in pieces])
    used: set[int] = set()
    found: list[int | None] = []
    for row in rows.rows:
        best = _entry_for(list(row), at, keyed, used)
        if best is not None:
            used.add(best)
        found.append(best)
    for i, row in enumerate(rows.rows):
        if (
            found[i] is None
            and (best := _loose_entry(list(row), at["title"], keyed, used)) is not None
        ):
            used.add(best)
            found[i] = best
    out = []
    for row, paragraph, best in zip(rows.rows, cited, found, strict=False):
        values = list(row)
        if best is not None:
            values[text_at] = keyed[best][1]
        values[cited_at] = f"{path} ¶{paragraph}" if paragraph > 0 else None
        if paragraph == NOT_CITED_HERE:
            values[warn_at] = [*(values[warn_at] or []), NOT_CITED]
        out.append(tuple(values))
    rows.rows = out
    return used


def _loose_entry(
    values: list[object], title_at: int, keyed: list[tuple[str, str]], used: set[int]
) -> int | None:
    words = set(_key(str(values[title_at] or "")).split())
    if len(words) < 3:
        return None
    best, best_share = None, 0.75
    for i, (k, _text) in enumerate(keyed):
        if i in used:
            continue
        share = len(words & set(k.split())) / len(words)
        if share >= best_share:
            best, best_share = i, share
    return best


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
