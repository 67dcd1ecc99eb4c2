"""PDF documents: the references section of the text layer, cut and read into rows.

With GROBID configured, the loader is handed GROBID's answer for each PDF (`GrobidAnswer`, by
the SHA-256 of its bytes; `auditor.grobid` asked for it through the run's `Net`) and reads its
TEI; when there is none (GROBID could not be asked, answered an error, malformed TEI or no
references), the built-in reader reads the file and a warning says why.
Raises `InputError` naming the file for an unreadable, encrypted or scanned PDF (see
`pdf_text`), one past a `DocumentLimits` cap (`pdf_guard` bounds memory and time), and one with
no references section.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import ClassVar

from auditor.load.documents.clean import drop_running
from auditor.load.documents.grobid import GrobidAnswer, GrobidError, tei_rows
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

    def __init__(
        self,
        grobid: Mapping[str, GrobidAnswer] | None = None,
        limits: DocumentLimits | None = None,
    ) -> None:
        self.grobid = grobid
        """GROBID's answers by the SHA-256 of a PDF's bytes; `None` when GROBID is not used."""
        self.limits = limits or DocumentLimits()

    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """One row per reference of the PDF `data`; `InputError` when there are none."""
        problems: list[Problem] = []
        if self.grobid is not None:
            try:
                return self._grobid(data), []
            except GrobidError as exc:
                message = f"{exc}: read with the built-in reader instead"
                problems.append(Problem(path, None, message, "warning", "grobid"))
        rows, more = self._builtin(data, path)
        return rows, [*problems, *more]

    def _grobid(self, data: bytes) -> Rows:
        assert self.grobid is not None
        answer = self.grobid.get(hashlib.sha256(data).hexdigest())
        if answer is None:
            # GROBID is configured but was not asked about this file: say so, never skip it quietly
            raise GrobidError("GROBID was not asked about this file")
        if answer.tei is None:
            raise GrobidError(answer.failure or "GROBID gave no answer")
        return tei_rows(answer.tei)

    def _builtin(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        lines = drop_running(bounded_pdf_lines(data, path, self.limits))
        body, section = body_and_section(lines)
        return section_rows(body, section, path)
