"""OpenDocument text (`.odt`, LibreOffice): Zotero reference marks first, then paragraphs.

Zotero's LibreOffice plugin stores each citation in the name of a reference mark
(`text:reference-mark-start text:name="ZOTERO_ITEM CSL_CITATION {json} RND…"`): read as the
Word fields are (`docx_fields`). Without them, the paragraphs (`text:p`, headings `text:h`)
under the references heading are read as text. `content.xml` is read under the `DocumentLimits`
(`zip_xml`).
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
from auditor.load.documents.zip_xml import Budget, read_xml
from auditor.load.interface import Problem, Rows

__all__ = ["OdtLoader"]

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"


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
        for number, el in enumerate(_blocks(root), start=1):
            for mark in el.iter(f"{_TEXT}reference-mark-start"):
                name = mark.get(f"{_TEXT}name") or ""
                if "CSL_CITATION" in name:
                    parts.instructions.append((number, "ADDIN " + name, ""))
            text = " ".join("".join(el.itertext()).split())
            if text:
                heading = el.tag == f"{_TEXT}h"
                lines.append(Line(text, number, para_break=True, heading=heading))
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
