"""GROBID's TEI read into rows, and the PDF loader's use of `GrobidAnswer`s (the asking, through
the run's `Net`, is `tests/test_grobid.py`). The TEI is in the shape GROBID's `processReferences`
writes (`biblStruct` with `analytic`/`monogr`, `raw_reference` notes)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from auditor.load import load_files
from auditor.load.documents.grobid import GrobidAnswer, GrobidError, tei_rows
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


def test_tei_is_read_into_the_reference_columns() -> None:
    rows = tei_rows(TEI.encode()).columns
    assert rows["title"] == ["Attention is all you need", "A raw string only"]
    assert rows["authors"][0] == ["Vaswani, Ashish", "Shazeer, Noam"]
    assert rows["year"] == [2017, 2019]
    assert rows["doi"][0] == "10.5555/attn" and rows["pages"][0] == "5998-6008"
    assert rows["container_title"][0] == "Advances in Neural Information Processing Systems"
    assert rows["source_page"] == [2, None] and rows["key"] == ["b0", "b1"]
    assert rows["reference_text"][1].startswith("[2] C. Lee.")
    assert rows["source_label"] == [None, "2"]  # the raw string was read by our reader


def test_entities_are_never_expanded() -> None:
    with pytest.raises(GrobidError, match="no well-formed TEI"):
        tei_rows(HOSTILE.encode())


def test_a_tei_without_references_is_an_error_not_an_empty_list() -> None:
    empty = TEI.split("<biblStruct", 1)[0] + "</listBibl></div></back></text></TEI>"
    with pytest.raises(GrobidError, match="GROBID found no references"):
        tei_rows(empty.encode())


def _pdf(tmp_path: Path) -> tuple[Path, str]:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(
        pdf_bytes(column_pages([(0, "References"), (0, "[1] A. B. A title. X, 2020.")]))
    )
    return pdf, hashlib.sha256(pdf.read_bytes()).hexdigest()


def test_the_loader_reads_grobids_answer_and_falls_back_with_a_warning(tmp_path: Path) -> None:
    pdf, sha = _pdf(tmp_path)
    outcome = load_files([str(pdf)], grobid={sha: GrobidAnswer(TEI.encode())})
    assert outcome.table.column("key").to_pylist() == ["b0", "b1"]
    assert not outcome.problems
    failed = {sha: GrobidAnswer(None, "GROBID could not be asked (timeout)")}
    outcome = load_files([str(pdf)], grobid=failed)
    assert outcome.table.column("source_label").to_pylist() == ["1"]  # the built-in reader
    assert [p.message for p in outcome.problems] == [
        "GROBID could not be asked (timeout): read with the built-in reader instead"
    ]


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ({}, "GROBID was not asked about this file"),
        ("hostile", "GROBID answered no well-formed TEI"),
        ("empty", "GROBID found no references"),
    ],
)
def test_no_usable_answer_is_never_read_as_no_references(
    tmp_path: Path, answers: object, said: str
) -> None:
    pdf, sha = _pdf(tmp_path)
    bodies = {"hostile": HOSTILE.encode(), "empty": b"<TEI xmlns='http://www.tei-c.org/ns/1.0'/>"}
    grobid = {sha: GrobidAnswer(bodies[answers])} if isinstance(answers, str) else {}
    outcome = load_files([str(pdf)], grobid=grobid)
    assert outcome.table.column("source_label").to_pylist() == ["1"]  # the built-in reader
    [problem] = outcome.problems
    assert problem.severity == "warning" and problem.message.startswith(said)
    assert problem.message.endswith(": read with the built-in reader instead")
