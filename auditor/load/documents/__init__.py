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
from pathlib import Path

from auditor.errors import InputError
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

#: Extensions of the documents read from their bytes.
BINARY_SUFFIXES: dict[str, str] = {".pdf": "pdf", ".docx": "docx", ".odt": "odt"}
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def binary_kind(path: str, head: bytes) -> str | None:
    """`pdf`, `docx` or `odt` when the file is one (by its first bytes, else its extension).

    `None` for any other file. Raises `InputError` for a Word 97-2003 `.doc` (or any OLE file
    named `.doc`), which has no reader here: the user is told to save it as `.docx`.
    """
    suffix = Path(path).suffix.lower()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if suffix == ".doc" or (head.startswith(_OLE_MAGIC) and suffix in (".doc", ".docx", ".dot")):
        raise InputError(
            f"{path}: a Word 97-2003 .doc file cannot be read: save it as .docx (File > Save As) "
            "and run again"
        )
    if suffix == ".docx" or (head.startswith(b"PK\x03\x04") and suffix in (".docm", ".dotx")):
        return "docx"
    return BINARY_SUFFIXES.get(suffix)


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
