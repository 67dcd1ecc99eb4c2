"""EndNote XML exports: one row per `<record>`, styled runs joined, parsed without entities."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.load import detect_format, endnote_xml, load_files
from auditor.load.endnote_xml import EndnoteXmlLoader

FIXTURES = Path(__file__).parent / "fixtures"

PRETTY = """<?xml version="1.0" encoding="UTF-8"?>
<xml>
  <records>
    <record>
      <ref-type name="Patent">25</ref-type>
      <contributors>
        <authors>
          <author>Van Dan Elzen, Hans</author>
        </authors>
      </contributors>
      <titles>
        <title>
          <style face="normal" font="default" size="100%">Yo-yo with Fe</style>
          <style face="superscript" font="default" size="100%">2+</style>
          <style face="normal" font="default" size="100%"> bearings and a
            modifiable string gap</style>
        </title>
      </titles>
      <dates>
        <year>2011</year>
      </dates>
    </record>
    <record>
      <ref-type name="Web Page">16</ref-type>
      <titles>
        <title>CSL search by example</title>
      </titles>
      <periodical>
        <full-title>Citation Style Editor</full-title>
      </periodical>
      <urls>
        <web-urls>
          <url>https://pubmed.ncbi.nlm.nih.gov/26957754/</url>
        </web-urls>
      </urls>
    </record>
    <record>
      <titles><title>Left open</title></titles>
  </records>
</xml>
"""


def _load(text: str) -> tuple[list[dict[str, object]], list[tuple[int | None, str, str]]]:
    rows, problems = EndnoteXmlLoader().load(text, "lib.xml")
    columns = rows.columns
    out = [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]
    return out, [(p.line, p.severity, p.message) for p in problems]


def test_one_line_endnote_export() -> None:
    outcome = load_files([str(FIXTURES / "library.xml")])
    article, chapter, broken, acs = outcome.table.to_pylist()
    assert {r["source_format"] for r in (article, chapter, broken, acs)} == {"endnote_xml"}
    assert article["key"] == "12" and article["entry_type"] == "journal article"
    assert article["title"] == "Boswellia serrata preparations: a systematic review of trials"
    assert article["authors"] == ["Abdel-Tawab, M.", "van der Berg, J."]
    assert (article["year"], article["volume"], article["issue"], article["pages"]) == (
        2016,
        "11",
        "3",
        "e0150989",
    )
    assert (article["container_title"], article["issn"]) == ("PLoS One", "1932-6203")
    # the DOI of the record and the PMID of its PubMed accession; never the abstract's or notes'
    assert (article["doi"], article["pmid"]) == ("10.1371/journal.pone.0150989", "26957754")
    assert article["url"] is None  # `<Go to ISI>://WOS:…` is not an address
    assert chapter["authors"] == ["Hall, Peter A.", "Soskice, David"]  # the editors
    assert (chapter["doi"], chapter["pmid"]) == (None, "11234567")  # a PII is not a DOI
    assert broken["row_state"] == "INVALID" and broken["parse_error"].startswith("record 3:")
    assert acs["doi"] == "10.1021/acs.jctc.5b00346"  # from the publisher URL, /pdfplus dropped
    problems = [(p.line, p.severity, p.message[:9]) for p in outcome.problems]
    assert problems == [(1, "warning", "record 2:"), (1, "error", "record 3:")]


def test_indented_export_keeps_lines_and_an_open_record_is_a_row() -> None:
    rows, problems = _load(PRETTY)
    assert [(r["source_line"], r["title"]) for r in rows] == [
        (4, "Yo-yo with Fe2+ bearings and a modifiable string gap"),
        (23, "CSL search by example"),
        (37, None),
    ]
    assert rows[0]["authors"] == ["Van Dan Elzen, Hans"] and rows[0]["year"] == 2011
    assert rows[1]["pmid"] == "https://pubmed.ncbi.nlm.nih.gov/26957754/"
    assert rows[2]["parse_error"] == "record not closed by </record>"
    assert problems == [(37, "error", "record not closed by </record>")]


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE xml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
        '<!DOCTYPE xml [<!ENTITY b SYSTEM "file:///etc/passwd">]>',
    ],
)
def test_entities_are_never_expanded(doctype: str) -> None:
    text = f'<?xml version="1.0"?>{doctype}<xml><records><record><titles><title>&b;</title>'
    text += "</titles></record></records></xml>"
    rows, problems = _load(text)
    assert len(rows) == 1 and rows[0]["title"] is None
    assert "undefined entity" in str(rows[0]["parse_error"])
    assert problems[0][1] == "error"


def test_hostile_records_cost_their_row_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endnote_xml, "MAX_RECORD_CHARS", 200)
    deep = "<a>" * 50_000 + "</a>" * 50_000
    text = (
        "<xml><records>"
        "<record><titles><title>Bell\x07 rings\x0b</title></titles></record>"
        f"<record><notes>{deep}</notes></record>"
        "<record><titles><title>After</title></titles></record>"
        "</records></xml>"
    )
    rows, problems = _load(text)
    assert [r["title"] for r in rows] == ["Bell rings", None, "After"]
    assert "more than 200" in str(rows[1]["parse_error"])
    assert [p[2] for p in problems] == [
        "record 1: control characters XML does not allow were removed",
        "record 2: record of 350,032 characters (more than 200)",
    ]


def test_other_xml_is_an_error_row_not_zero_rows() -> None:
    for other in (
        '<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>',
        '<collection xmlns="http://www.loc.gov/MARC21/slim"><record><leader/></record>'
        "<record><leader/></record></collection>",  # MARC XML: `<record>` but not EndNote's
    ):
        rows, problems = _load(other)
        assert [r["parse_error"] for r in rows] == [
            "no EndNote <records> in this XML: not an EndNote XML export"
        ]
    assert _load("") == ([], [])


@pytest.mark.parametrize(
    ("name", "head", "fmt"),
    [
        (
            "My Library.xml",
            '<?xml version="1.0" encoding="UTF-8" ?><xml><records><record>',
            "endnote_xml",
        ),
        ("export.txt", "\ufeff<xml>\n  <records>\n    <record>", "endnote_xml"),
        ("pubmed.xml", '<?xml version="1.0"?><PubmedArticleSet>', "endnote_xml"),
        ("refs.bib", "<xml><records>", "bibtex"),
    ],
)
def test_detected_by_content_or_xml_extension(name: str, head: str, fmt: str) -> None:
    assert detect_format(name, head) == fmt
