"""Which files are documents read from their bytes (PDF, Word, LibreOffice), by their first bytes.

Apart from `auditor.load.documents` so that every load can ask without importing the document
readers (python-docx, pdfminer, the reference-string model): a BibTeX file never needs them.
"""

from __future__ import annotations

from pathlib import Path

from auditor.errors import InputError

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
