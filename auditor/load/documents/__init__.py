"""Documents as people hold them: PDF, Word and plain-text reference lists, read into rows.

A document family beside the bibliography loaders (`auditor.load`), one module per kind behind
`DocumentLoader`: `pdf` (text with layout, `pdf_text`), `docx` (reference-manager fields first,
`docx_fields`, then paragraphs), `odt` (LibreOffice: Zotero marks, then paragraphs) and `plain`
(text). Each finds the references section
(`sections`), cuts it (`split`, after `clean`) and reads every string with the one
reference-string reader (`refstring`). `binary_kind` says which files are read from bytes.
"""

from __future__ import annotations

from collections.abc import Mapping

from auditor.load.document_kind import BINARY_SUFFIXES, binary_kind
from auditor.load.documents.docx import DocxLoader
from auditor.load.documents.grobid import GrobidAnswer
from auditor.load.documents.interface import DocumentLoader
from auditor.load.documents.limits import DocumentLimits
from auditor.load.documents.odt import OdtLoader
from auditor.load.documents.pdf import PdfLoader
from auditor.load.documents.plain import PlainTextLoader

__all__ = [
    "BINARY_SUFFIXES",
    "DocumentLimits",
    "DocumentLoader",
    "PlainTextLoader",
    "binary_kind",
    "binary_loader",
]


def binary_loader(
    kind: str,
    grobid: Mapping[str, GrobidAnswer] | None = None,
    limits: DocumentLimits | None = None,
) -> DocumentLoader:
    """The loader of a kind `binary_kind` named (a PDF one reading GROBID's answers, by the
    SHA-256 of the file, when `grobid` is given), under `limits` (the defaults when not given)."""
    if kind == "pdf":
        return PdfLoader(grobid, limits)
    if kind == "docx":
        return DocxLoader(limits)
    if kind == "odt":
        return OdtLoader(limits)
    raise ValueError(f"no document kind {kind!r}")
