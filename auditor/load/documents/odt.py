"""OpenDocument text (`.odt`, LibreOffice): Zotero reference marks first, then paragraphs.

Zotero's LibreOffice plugin stores each citation in the name of a reference mark
(`text:reference-mark-start text:name="ZOTERO_ITEM CSL_CITATION {json} RND…"`): read as the
Word fields are (`docx_fields`). Without them, the paragraphs (`text:p`, headings `text:h`)
under the references heading are read as text, and the body's superscript spans (an automatic
style with `style:text-position="super …"`) that read as citation markers are its lines' `marks`
(`superscripts.read_mark`). `content.xml` is read under the `DocumentLimits` (`zip_xml`).
Raises `InputError` naming the file for a zip that is not OpenDocument text, or no references.
"""

from __future__ import annotations

import io
import zipfile
from typing import ClassVar
from xml.etree.ElementTree import Element

from auditor.errors import InputError
from auditor.load.documents.docx_fields import read_fields
from auditor.load.documents.docx_xml import DocxParts, check_fields
from auditor.load.documents.interface import DocumentLoader
from auditor.load.documents.limits import DocumentLimits
from auditor.load.documents.lines import Line
from auditor.load.documents.section_rows import section_rows
from auditor.load.documents.sections import body_and_section
from auditor.load.documents.superscripts import read_mark
from auditor.load.documents.zip_xml import Budget, read_xml
from auditor.load.interface import Problem, Rows

__all__ = ["OdtLoader"]

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"


class OdtLoader(DocumentLoader):
    """Reads the references of an OpenDocument text file."""

    format: ClassVar[str] = "odt"

    def __init__(self, limits: DocumentLimits | None = None) -> None:
        self.limits = limits or DocumentLimits()

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the Zotero marks, else of the bibliography paragraphs."""
        root = _content(data, path, self.limits)
        parts = DocxParts()
        lines: list[Line] = []
        raised = _superscript_styles(root)
        for number, el in enumerate(_blocks(root), start=1):
            for mark in el.iter(f"{_TEXT}reference-mark-start"):
                name = mark.get(f"{_TEXT}name") or ""
                if "CSL_CITATION" in name:
                    parts.instructions.append((number, "ADDIN " + name, ""))
            text = " ".join("".join(el.itertext()).split())
            if text:
                heading = el.tag == f"{_TEXT}h"
                marks = _marks(el, raised) if raised else ()
                lines.append(Line(text, number, para_break=True, heading=heading, marks=marks))
        check_fields(len(parts.instructions), path, self.limits)
        fields = read_fields(parts, path)
        if fields is not None and len(fields.rows):
            return fields.rows, fields.problems
        body, section = body_and_section(lines)
        return section_rows(body, section, path)


def _content(data: bytes, path: str, limits: DocumentLimits) -> Element:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "content.xml" not in archive.namelist():
                raise InputError(f"{path}: not OpenDocument text (no content.xml)")
            return read_xml(archive, "content.xml", path, Budget(limits))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise InputError(f"{path}: not OpenDocument text (not a zip archive)") from exc


def _blocks(root: Element) -> list[Element]:
    """Paragraphs and headings in document order (a paragraph inside a list item included)."""
    return [el for el in root.iter() if el.tag in (f"{_TEXT}p", f"{_TEXT}h")]


def _superscript_styles(root: Element) -> set[str]:
    """The names of the automatic text styles that raise their text (`super 58%`, `33% 58%`)."""
    out = set()
    for style in root.iter(f"{_STYLE}style"):
        props = style.find(f"{_STYLE}text-properties")
        position = (props.get(f"{_STYLE}text-position") or "") if props is not None else ""
        first = position.split()[0] if position.split() else ""
        raised = first == "super" or (
            first.endswith("%") and first[:-1].replace(".", "", 1).isdigit()
        )
        if raised and first not in ("0%", "sub"):
            out.add(style.get(f"{_STYLE}name") or "")
    return out


def _marks(block: Element, raised: set[str]) -> tuple[str, ...]:
    """The citation markers among the superscript spans of one paragraph."""
    pieces: list[tuple[str, bool]] = []

    def walk(node: Element, up: bool) -> None:
        here = up or (node.tag == f"{_TEXT}span" and node.get(f"{_TEXT}style-name") in raised)
        if node.tag == f"{_TEXT}s":
            pieces.append((" ", here))
        elif node.text:
            pieces.append((node.text, here))
        for child in node:
            if child.tag not in (f"{_TEXT}p", f"{_TEXT}h"):  # a note's own paragraphs
                walk(child, here)
            if child.tail:
                pieces.append((child.tail, here))

    walk(block, False)
    out: list[str] = []
    before, run = "", ""
    for text, up in [*pieces, ("", False)]:
        if up:
            run += text
            continue
        if run and (mark := read_mark(before, run)):
            out.append(mark)
        before, run = before + run + text, ""
    return tuple(out)
