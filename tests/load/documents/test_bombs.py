"""Document bombs and traps (issue 37 item 1): each refused by its cap, naming the file.

Every hostile file is built here, in memory (no large file is checked in). Each test states the
cap it meets; a refused file costs its own rows only, and `auditor load` exits 2 when nothing
could be read.
"""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.documents.limits import DocumentLimits

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
HEAD = f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}"><w:body>'.encode()
TAIL = b"</w:body></w:document>"
GOOD = (
    HEAD
    + (
        b"<w:p><w:r><w:t>References</w:t></w:r></w:p>"
        b"<w:p><w:r><w:t>[1] Ann Smith. A work on fine things. J. Tests, 12:45-67, 2019."
        b"</w:t></w:r></w:p>"
    )
    + TAIL
)
BIB = "@article{a, title={A Title Long Enough}, author={Smith, Ann}, year={2019}, doi={10.1/x}}\n"
ODT_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?><office:document-content '
    b'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    b'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
    b"<office:body><office:text>"
)
ODT_TAIL = b"</office:text></office:body></office:document-content>"


def _zip(part: str, head: bytes, filler: bytes = b"", repeat: int = 0) -> bytes:
    """A zip whose `part` is `head` then `filler` `repeat` times (streamed: never held whole)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if part == "content.xml":
            z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        with z.open(part, "w", force_zip64=True) as stream:
            stream.write(head)
            for _ in range(repeat):
                stream.write(filler)
    return buf.getvalue()


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _refused(paths: list[str], match: str, limits: DocumentLimits | None = None) -> None:
    with pytest.raises(InputError, match=match):
        load_files(paths, limits=limits)


def test_a_part_is_counted_while_it_inflates(tmp_path: Path) -> None:
    data = _zip("word/document.xml", GOOD, b" " * (1 << 20), repeat=1)
    path = _write(tmp_path, "big.docx", data)
    _refused(
        [path],
        r"big\.docx: word/document\.xml inflates past the cap of 524,288 bytes "
        r"\(document_max_inflated_bytes\)",
        DocumentLimits(inflated_bytes=512 * 1024),
    )


def test_a_zip_header_that_lies_about_a_size_gains_nothing(tmp_path: Path) -> None:
    """The declared sizes say 100 bytes; the part inflates to 8 MB: refused, and the bytes
    read never pass the cap (Python's zip reader stops at the declared size, we at the cap)."""
    data = bytearray(_zip("word/document.xml", GOOD, b" " * (1 << 20), repeat=8))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("word/document.xml")
    local = info.header_offset
    central = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, local + 22, 100)  # uncompressed size, local header
    struct.pack_into("<I", data, central + 24, 100)  # and in the central directory
    extra = data.find(b"\x01\x00", local + 30)  # zip64 extra field: its sizes too
    if 0 < extra < local + 60:
        struct.pack_into("<Q", data, extra + 4, 100)
    path = _write(tmp_path, "liar.docx", bytes(data))
    tracemalloc.start()
    try:
        _refused([path], r"liar\.docx: ")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20


def test_a_zip_bomb_costs_at_most_the_cap(tmp_path: Path) -> None:
    """80 MB of XML whitespace from an 80 KB zip: refused at the default 64 MiB, in chunks."""
    data = _zip("word/document.xml", GOOD, b" " * (1 << 20), repeat=80)
    assert len(data) < 1 << 20
    path = _write(tmp_path, "bomb.docx", data)
    tracemalloc.start()
    try:
        _refused([path], r"bomb\.docx: word/document\.xml inflates past the cap of 67,108,864")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20


@pytest.mark.parametrize(
    "prolog",
    [
        b"<!DOCTYPE w:document [<!ELEMENT w:document ANY>]>",
        b'<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>',
        b'<!DOCTYPE w:document SYSTEM "file:///etc/passwd">',
    ],
)
def test_dtds_and_entities_are_never_read(tmp_path: Path, prolog: bytes) -> None:
    head = HEAD.replace(b"?>", b"?>" + prolog, 1)
    docx = _write(tmp_path, "dtd.docx", _zip("word/document.xml", head + GOOD[len(HEAD) :]))
    _refused([docx], r"dtd\.docx: word/document\.xml declares a DTD or entities")
    odt_head = ODT_HEAD.replace(b"?>", b"?>" + prolog.replace(b"w:document", b"x"), 1)
    odt = _write(tmp_path, "dtd.odt", _zip("content.xml", odt_head + b"<text:p/>" + ODT_TAIL))
    _refused([odt], r"dtd\.odt: content\.xml declares a DTD or entities")


def test_nesting_100k_deep_is_refused_at_the_depth_cap(tmp_path: Path) -> None:
    deep = HEAD + b"<w:p>" * 100_000 + b"</w:p>" * 100_000 + TAIL
    docx = _write(tmp_path, "deep.docx", _zip("word/document.xml", deep))
    _refused([docx], r"deep\.docx: word/document\.xml nests elements deeper than the cap of 1,000")
    odt = ODT_HEAD + b"<text:p>" * 100_000 + b"</text:p>" * 100_000 + ODT_TAIL
    path = _write(tmp_path, "deep.odt", _zip("content.xml", odt))
    _refused([path], r"deep\.odt: content\.xml nests elements deeper than the cap of 1,000")


def test_100k_fields_are_refused_at_the_fields_cap(tmp_path: Path) -> None:
    field = (
        b'<w:p><w:fldSimple w:instr="ADDIN ZOTERO_ITEM CSL_CITATION {&quot;citationItems&quot;:'
        b'[]}"/></w:p>'
    )
    docx = _write(tmp_path, "fields.docx", _zip("word/document.xml", HEAD + field * 100_000 + TAIL))
    _refused([docx], r"fields\.docx: 100,000 citation fields, past the cap of 50,000")
    mark = (
        b'<text:p><text:reference-mark-start text:name="ZOTERO_ITEM CSL_CITATION {} R"/></text:p>'
    )
    odt = _write(tmp_path, "marks.odt", _zip("content.xml", ODT_HEAD + mark * 2_000 + ODT_TAIL))
    _refused([odt], r"marks\.odt: 2,000 citation fields", DocumentLimits(fields=1_000))


def test_a_refused_document_leaves_the_other_inputs_read(tmp_path: Path) -> None:
    deep = _write(tmp_path, "deep.docx", _zip("word/document.xml", HEAD + b"<w:p>" * 5_000 + TAIL))
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    outcome = load_files([deep, str(bib)])
    assert outcome.table.num_rows == 1
    [problem] = [p for p in outcome.problems if p.path == deep and p.severity == "error"]
    assert problem.severity == "error"
    assert "nests elements deeper than the cap" in problem.message


def test_nothing_readable_exits_2_naming_the_file(tmp_path: Path) -> None:
    deep = _write(tmp_path, "deep.docx", _zip("word/document.xml", HEAD + b"<w:p>" * 5_000 + TAIL))
    result = CliRunner().invoke(app, ["load", deep], env={})
    assert result.exit_code == 2
    assert "deep.docx" in result.output
    assert "cap" in result.output
    assert "Traceback" not in result.output


# --- PDF ---------------------------------------------------------------------------------


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of `objects` (object 1 the catalog), with a correct cross-reference table."""
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


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
TEXT = (
    b"BT /F1 10 Tf 72 740 Td (References) Tj ET\n"
    b"BT /F1 10 Tf 72 728 Td ([1] Ann Smith. A work on fine things. J. Tests, 2019.) Tj ET\n"
)


def _stream(data: bytes, *, deflate: bool = False, extra: bytes = b"") -> bytes:
    if deflate:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def _one_page(content: bytes, *, size: bytes = b"612 792", resources: bytes = b"") -> bytes:
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> %s >> >>" % (size, resources),
            content,
            FONT,
        ]
    )


def test_10000_pages_are_refused_at_the_page_cap(tmp_path: Path) -> None:
    pages = 10_000
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", FONT, _stream(TEXT)]
    kids = []
    for _ in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>"
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), pages)
    path = _write(tmp_path, "long.pdf", _pdf(objects))
    _refused(
        [path],
        r"long\.pdf: more than 20 pages, the cap \(pdf_max_pages\)",
        DocumentLimits(pdf_pages=20),
    )


def test_a_page_of_a_million_points_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "huge.pdf", _one_page(_stream(TEXT), size=b"1000000 1000000"))
    _refused([path], r"huge\.pdf: page 1 is 1,000,000 × 1,000,000 points, past the cap of 14,400")


def test_a_50_mb_line_is_refused_before_it_is_read(tmp_path: Path) -> None:
    line = b"BT /F1 10 Tf 72 740 Td (" + b"A" * 50_000_000 + b") Tj ET\n"
    data = _one_page(_stream(line, deflate=True))
    assert len(data) < 1 << 20
    path = _write(tmp_path, "line.pdf", data)
    _refused(
        [path],
        r"line\.pdf: 50,000,032 bytes of content in one page or form, past the cap of "
        r"33,554,432 \(pdf_max_content_bytes\)",
    )


def test_a_page_of_too_many_characters_is_refused(tmp_path: Path) -> None:
    content = b"BT /F1 1 Tf 72 740 Td " + b"(AB) Tj " * 30_000 + b"ET\n"
    path = _write(tmp_path, "dense.pdf", _one_page(_stream(content)))
    _refused(
        [path],
        r"dense\.pdf: more than 20,000 characters on one page, the cap \(pdf_max_page_chars\)",
        DocumentLimits(pdf_page_chars=20_000),
    )


def test_a_stream_that_inflates_without_bound_meets_the_memory_cap(tmp_path: Path) -> None:
    """600 MB of content from a 600 KB stream: the reader's process is capped at 128 MiB more
    than it inherited, so it stops there (the run's own memory never sees the bytes)."""
    squeeze = zlib.compressobj(9)
    chunks = [squeeze.compress(b" " * (1 << 20)) for _ in range(600)]
    packed = b"".join(chunks) + squeeze.flush()
    content = b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
        len(packed),
        packed,
    )
    path = _write(tmp_path, "bomb.pdf", _one_page(content))
    _refused(
        [path],
        r"bomb\.pdf: .*the cap of 134,217,728 bytes of memory \(pdf_max_memory_bytes\)",
        DocumentLimits(pdf_memory_bytes=128 * 2**20),
    )


def test_a_reader_past_its_processor_time_is_stopped(tmp_path: Path) -> None:
    busy = b"q Q " * 3_000_000  # pdfminer takes several seconds over these; the cap is 1 s
    path = _write(tmp_path, "slow.pdf", _one_page(_stream(busy, deflate=True)))
    _refused(
        [path],
        r"slow\.pdf: reading it took .*the cap of 1 processor seconds \(pdf_max_seconds\)",
        DocumentLimits(pdf_seconds=1),
    )


def test_forms_nested_40_deep_are_refused(tmp_path: Path) -> None:
    depth = 40
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >> >>",
        _stream(TEXT + b"/X Do\n"),
        FONT,
    ]
    for level in range(depth):
        inner = b"/XObject << /X %d 0 R >>" % (len(objects) + 2) if level < depth - 1 else b""
        objects.append(
            _stream(
                b"/X Do\n" if inner else b"",
                extra=b" /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << %s >>"
                % inner,
            )
        )
    path = _write(tmp_path, "nested.pdf", _pdf(objects))
    _refused([path], r"nested\.pdf: form XObjects nest deeper than 32")


def test_a_form_that_draws_itself_ends(tmp_path: Path) -> None:
    loop = _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> /XObject << /X0 6 0 R >> >> >>",
            _stream(TEXT + b"/X0 Do\n"),
            FONT,
            _stream(
                b"/X0 Do\n",
                extra=b" /Type /XObject /Subtype /Form /BBox [0 0 10 10] "
                b"/Resources << /XObject << /X0 6 0 R >> >>",
            ),
        ]
    )
    path = _write(tmp_path, "loop.pdf", loop)
    try:
        outcome = load_files([path])
    except InputError as exc:  # refused at a cap, or read: either way it ends, naming the file
        assert "loop.pdf: " in str(exc)
    else:
        assert outcome.table.num_rows == 1


def test_outline_and_page_tree_loops_end(tmp_path: Path) -> None:
    """An outline whose items point at each other, and a page tree that holds itself: never
    followed forever (the outline is not read; the page tree is walked once per node)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        _stream(TEXT),
        FONT,
        b"<< /Type /Outlines /First 7 0 R /Last 7 0 R >>",
        b"<< /Title (a) /Parent 6 0 R /First 7 0 R /Next 7 0 R /Prev 7 0 R >>",
    ]
    path = _write(tmp_path, "loops.pdf", _pdf(objects))
    outcome = load_files([path])
    assert outcome.table.column("title").to_pylist() == ["A work on fine things"]


def test_an_encrypted_pdf_says_so_and_exits_2(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(_one_page(_stream(TEXT))))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-256")
    buf = io.BytesIO()
    writer.write(buf)
    path = _write(tmp_path, "locked.pdf", buf.getvalue())
    result = CliRunner().invoke(app, ["load", path], env={})
    assert result.exit_code == 2
    assert "locked.pdf: encrypted PDF" in " ".join(result.output.split())
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    outcome = load_files([path, str(bib)])  # the other input is still read
    assert outcome.table.num_rows == 1
    assert any("encrypted PDF" in p.message and p.path == path for p in outcome.problems)
