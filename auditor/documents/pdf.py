"""PDF documents: the references section of the text layer, cut and read into rows.

Raises `InputError` naming the file for an unreadable, encrypted or scanned PDF (see
`pdf_text`) and for one with no references section.
"""

from __future__ import annotations

from typing import ClassVar

from auditor.documents.clean import drop_running
from auditor.documents.interface import DocumentLoader, no_section
from auditor.documents.pdf_text import pdf_lines
from auditor.documents.rows import rows_from_pieces
from auditor.documents.sections import references_section
from auditor.documents.split import split_references
from auditor.load.interface import Problem, Rows

__all__ = ["PdfLoader"]


class PdfLoader(DocumentLoader):
    """Reads the references of a PDF."""

    format: ClassVar[str] = "pdf"

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """One row per reference of the PDF `data`; `InputError` when there are none."""
        lines = drop_running(pdf_lines(data, path))
        section = references_section(lines)
        pieces = split_references(section) if section else []
        if not pieces:
            raise no_section(path)
        return rows_from_pieces(pieces), []
