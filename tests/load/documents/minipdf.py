"""A minimal PDF writer for tests and benchmarks: text lines at given positions, Helvetica.

`pdf_bytes(pages)` takes one list per page of `(x, y, text)` (points from the bottom left) or
`(x, y, text, size)`, and writes a valid PDF 1.4 with one font; no images, no compression.
The text may be a list of runs `(text, size, rise)` set one after another on the line, a run
raised `rise` points (a superscript): by the text rise operator `Ts`, as some writers do, or
with `raise_with="Td"` as its own text object placed higher, as TeX does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Run = tuple[str, float, float]
Text = tuple[float, float, str] | tuple[float, float, str, float] | tuple[float, float, list[Run]]


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def text_width(text: str, size: float) -> float:
    """The width in points of `text` set in Helvetica at `size`."""
    from pdfminer.fontmetrics import FONT_METRICS

    widths = FONT_METRICS["Helvetica"][1]
    return sum(widths.get(c, 556) for c in text) * size / 1000


def _runs(x: float, y: float, runs: list[Run], raise_with: str) -> bytes:
    if raise_with == "Ts":
        body = b"".join(
            b"/F1 %.1f Tf %.2f Ts (%s) Tj " % (size, rise, _escape(text))
            for text, size, rise in runs
        )
        return b"BT %.2f %.2f Td %s ET\n" % (x, y, body)
    out = b""
    for text, size, rise in runs:
        out += b"BT /F1 %.1f Tf %.2f %.2f Td (%s) Tj ET\n" % (size, x, y + rise, _escape(text))
        x += text_width(text, size)
    return out


def _text(t: Text, raise_with: str) -> bytes:
    if not isinstance(t[2], str):
        return _runs(t[0], t[1], t[2], raise_with)
    size = t[3] if len(t) > 3 else 10.0  # type: ignore[misc]
    return b"BT /F1 %.1f Tf %.2f %.2f Td (%s) Tj ET\n" % (size, t[0], t[1], _escape(t[2]))


def pdf_bytes(
    pages: Sequence[Sequence[Text]],
    width: float = 612,
    height: float = 792,
    raise_with: Literal["Ts", "Td"] = "Ts",
) -> bytes:
    """The PDF holding `pages` (see the module docstring)."""
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in once the page numbers are known
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    kids = []
    for page in pages:
        stream = b"".join(_text(t, raise_with) for t in page)
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (width, height, content)
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def column_pages(
    lines: Sequence[tuple[float, str]], per_page: int = 50, top: float = 740, leading: float = 12
) -> list[list[Text]]:
    """`(indent, text)` lines set one column at x=72 (+indent), `per_page` lines a page."""
    pages: list[list[Text]] = []
    for start in range(0, len(lines), per_page):
        chunk = lines[start : start + per_page]
        pages.append([(72 + dx, top - i * leading, text) for i, (dx, text) in enumerate(chunk)])
    return pages
