"""PDF documents: the references section of the text layer, cut and read into rows.

With a `grobid_url`, the PDF is sent to that GROBID server first (`grobid`); if it cannot be
asked, the built-in reader reads the file and a warning says why.
Raises `InputError` naming the file for an unreadable, encrypted or scanned PDF (see
`pdf_text`), one past a `DocumentLimits` cap (`pdf_guard` bounds memory and time), and one with
no references section.
"""

from __future__ import annotations

from typing import ClassVar

from auditor.load.documents.clean import drop_running
from auditor.load.documents.grobid import GrobidError, grobid_rows
from auditor.load.documents.interface import DocumentLoader
from auditor.load.documents.limits import DocumentLimits
from auditor.load.documents.pdf_guard import bounded_pdf_lines
from auditor.load.documents.section_rows import section_rows
from auditor.load.documents.sections import body_and_section
from auditor.load.interface import Problem, Rows

__all__ = ["PdfLoader"]


class PdfLoader(DocumentLoader):
    """Reads the references of a PDF."""

    format: ClassVar[str] = "pdf"

    def __init__(self, grobid_url: str | None = None, limits: DocumentLimits | None = None) -> None:
        self.grobid_url = grobid_url
        self.limits = limits or DocumentLimits()

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """One row per reference of the PDF `data`; `InputError` when there are none."""
        problems: list[Problem] = []
        if self.grobid_url:
            try:
                return grobid_rows(data, path, self.grobid_url), []
            except GrobidError as exc:
                message = f"{exc}: read with the built-in reader instead"
                problems.append(Problem(path, None, message, "warning", "grobid"))
        rows, more = self._builtin(data, path)
        return rows, [*problems, *more]

    def _builtin(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        lines = drop_running(bounded_pdf_lines(data, path, self.limits))
        body, section = body_and_section(lines)
        return section_rows(body, section, path)
