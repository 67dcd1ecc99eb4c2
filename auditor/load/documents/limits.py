"""The caps on what one document may cost to read: bytes inflated, XML depth, fields, pages.

A `.docx` or `.odt` is a zip of XML, a PDF a tree of compressed streams: a small file can stand
for gigabytes (a zip bomb, a deflate stream of zeros), a tree 100,000 elements deep, 100,000
citation fields, 10,000 pages or a page of 10⁶ × 10⁶ points. Each cap is a setting (section
`[input]` of the config file), so a user with a real 3,000-page thesis can raise one; a file past
a cap is refused with an error that names the file, the cap and its setting, and the run's other
inputs are still read. The defaults sit far above any real paper or thesis (a long thesis has
under 1,000 pages and a few thousand citation fields; a dense page about 10,000 characters;
A0 paper is 3,370 points tall) and far below what would hurt the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SETTINGS", "DocumentLimits", "limits_from"]


@dataclass(frozen=True)
class DocumentLimits:
    """What one document may cost. Field `x` is read from the setting named in `SETTINGS`."""

    inflated_bytes: int = 64 * 1024 * 1024
    """XML inflated from one `.docx`/`.odt`, all parts read together, counted while inflating
    (a zip's declared sizes are the sender's word, never trusted)."""
    xml_depth: int = 1_000
    """Elements open at once in one XML part (Word nests tables in tables: dozens, not 1,000)."""
    fields: int = 50_000
    """Citation fields, content controls and reference marks of one Word or OpenDocument file."""
    pdf_pages: int = 2_000
    """Pages of one PDF."""
    pdf_page_points: float = 14_400.0
    """Width or height of one PDF page, in points (14,400 is the PDF specification's limit)."""
    pdf_page_chars: int = 200_000
    """Characters on one PDF page (a 50 MB single line of text is 50 million)."""
    pdf_content_bytes: int = 32 * 1024 * 1024
    """Decoded content of one page (or form) before it is interpreted: pdfminer reads one long
    string in time that grows with its square, so a 50 MB line is refused here."""
    pdf_memory_bytes: int = 2 * 1024 * 1024 * 1024
    """Memory the PDF reader may take beyond what the run already holds (a process cap)."""
    pdf_seconds: float = 120.0
    """Processor seconds the PDF reader may spend on one file."""


#: The setting behind each field of `DocumentLimits`.
SETTINGS: dict[str, str] = {
    "inflated_bytes": "document_max_inflated_bytes",
    "xml_depth": "document_max_xml_depth",
    "fields": "document_max_fields",
    "pdf_pages": "pdf_max_pages",
    "pdf_page_points": "pdf_max_page_points",
    "pdf_page_chars": "pdf_max_page_chars",
    "pdf_content_bytes": "pdf_max_content_bytes",
    "pdf_memory_bytes": "pdf_max_memory_bytes",
    "pdf_seconds": "pdf_max_seconds",
}


def limits_from(settings: Any) -> DocumentLimits:
    """The `DocumentLimits` of a `Settings` (any object with the settings of `SETTINGS`)."""
    return DocumentLimits(**{name: getattr(settings, key) for name, key in SETTINGS.items()})
