"""The bounded pdfminer device (`pdf_device`): a TeX bitmap font's dashes and ligatures."""

from __future__ import annotations

from auditor.load.documents.pdf_text import pdf_lines


def _type3_pdf(codes: bytes) -> bytes:
    """One page setting `codes` in a Type 3 font whose glyphs are named as pdftex names a
    bitmap font's (`/a21`): names no glyph list knows, so only the base encoding maps them."""
    first, last = 0, 127
    names = " ".join(f"{c} /a{c}" for c in sorted(set(codes)))
    procs = " ".join(f"/a{c} 5 0 R" for c in sorted(set(codes)))
    widths = " ".join("500" for _ in range(first, last + 1))
    content = b"BT /F1 10 Tf 72 700 Td <" + codes.hex().encode() + b"> Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R "
        b"/Resources << /Font << /F1 4 0 R >> >> >>",
        (
            f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] "
            f"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << {procs} >> "
            f"/Encoding << /Type /Encoding /Differences [{names}] >> "
            f"/FirstChar {first} /LastChar {last} /Widths [{widths}] >>"
        ).encode(),
        b"<< /Length 20 >>\nstream\n500 0 d0 0 0 m h f\nendstream",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
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


def test_a_tex_bitmap_font_reads_its_dashes_and_ligatures() -> None:
    # T1 (Cork) codes: 21 en dash, 28 fi; the letters and digits are ASCII's
    text = b"the \x1celd, pages 886\x15892"
    lines = pdf_lines(_type3_pdf(text), "t3.pdf")
    assert [ln.text for ln in lines] == ["the field, pages 886–892"]
