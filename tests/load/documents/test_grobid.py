"""`--grobid URL`: a PDF read by a GROBID server, tested against a loopback fake answering TEI in
the shape GROBID's `processReferences` writes (biblStruct with analytic/monogr, coords)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from auditor.load import load_files
from auditor.load.documents.grobid import GrobidError, grobid_rows
from tests.load.documents.minipdf import column_pages, pdf_bytes

TEI = """<?xml version="1.0" encoding="UTF-8"?>
<TEI xml:space="preserve" xmlns="http://www.tei-c.org/ns/1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink">
  <teiHeader/>
  <text><front/><body/><back><div><listBibl>
<biblStruct coords="2,72.00,100.20,450.10,20.30" xml:id="b0">
  <analytic>
    <title level="a" type="main">Attention is all you need</title>
    <author><persName><forename type="first">Ashish</forename>
      <surname>Vaswani</surname></persName></author>
    <author><persName><forename type="first">Noam</forename>
      <surname>Shazeer</surname></persName></author>
  </analytic>
  <monogr>
    <title level="m">Advances in Neural Information Processing Systems</title>
    <imprint>
      <biblScope unit="volume">30</biblScope>
      <biblScope unit="page" from="5998" to="6008" />
      <date type="published" when="2017" />
    </imprint>
  </monogr>
  <idno type="DOI">10.5555/attn</idno>
  <note type="raw_reference">A. Vaswani and N. Shazeer. Attention is all you need.
    In NIPS 30, pages 5998-6008, 2017.</note>
</biblStruct>
<biblStruct xml:id="b1">
  <monogr>
    <title level="j">Journal of Tests</title>
    <imprint><date type="published" when="2019-03" /></imprint>
  </monogr>
  <note type="raw_reference">[2] C. Lee. A raw string only.
    Journal of Tests, 12(3):45-67, 2019.</note>
</biblStruct>
  </listBibl></div></back></text>
</TEI>"""

HOSTILE = """<?xml version="1.0"?><!DOCTYPE TEI [<!ENTITY x "boom">]>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl><biblStruct><analytic>
<title>&x;</title></analytic></biblStruct></listBibl></back></text></TEI>"""


class _Fake(BaseHTTPRequestHandler):
    answer = TEI.encode()
    status = 200
    seen: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).seen.append(self.path.encode() + b" " + body[:2000])
        self.send_response(self.status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(self.answer)))
        self.end_headers()
        self.wfile.write(self.answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def grobid() -> Iterator[str]:
    _Fake.answer, _Fake.status, _Fake.seen = TEI.encode(), 200, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Fake)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_tei_is_read_into_the_reference_columns(grobid: str) -> None:
    rows = grobid_rows(b"%PDF-1.4", "p.pdf", grobid).columns
    assert rows["title"] == ["Attention is all you need", "A raw string only"]
    assert rows["authors"][0] == ["Vaswani, Ashish", "Shazeer, Noam"]
    assert rows["year"] == [2017, 2019]
    assert rows["doi"][0] == "10.5555/attn" and rows["pages"][0] == "5998-6008"
    assert rows["container_title"][0] == "Advances in Neural Information Processing Systems"
    assert rows["source_page"] == [2, None] and rows["key"] == ["b0", "b1"]
    assert rows["reference_text"][1].startswith("[2] C. Lee.")
    assert rows["source_label"] == [None, "2"]  # the raw string was read by our reader
    path, body = _Fake.seen[0].split(b" ", 1)
    assert path == b"/api/processReferences"
    assert b'name="input"; filename="document.pdf"' in body and b"%PDF-1.4" in body


def test_the_loader_asks_grobid_and_falls_back_with_a_warning(grobid: str, tmp_path: Path) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(
        pdf_bytes(column_pages([(0, "References"), (0, "[1] A. B. A title. X, 2020.")]))
    )
    outcome = load_files([str(pdf)], grobid_url=grobid)
    assert outcome.table.column("key").to_pylist() == ["b0", "b1"]
    _Fake.status = 503
    outcome = load_files([str(pdf)], grobid_url=grobid)
    assert outcome.table.column("source_label").to_pylist() == ["1"]  # the built-in reader
    assert [p.message for p in outcome.problems] == [
        "GROBID answered HTTP 503: read with the built-in reader instead"
    ]


def test_entities_are_never_expanded(grobid: str) -> None:
    _Fake.answer = HOSTILE.encode()
    with pytest.raises(GrobidError, match="no well-formed TEI"):
        grobid_rows(b"%PDF-1.4", "p.pdf", grobid)


def test_an_unreachable_server_is_a_grobid_error() -> None:
    with pytest.raises(GrobidError, match="could not be reached"):
        grobid_rows(b"%PDF", "p.pdf", "http://127.0.0.1:9", timeout=0.5)
