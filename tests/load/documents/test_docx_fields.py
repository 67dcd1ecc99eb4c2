"""What reference managers leave in Word files, written here with python-docx in their real shapes.

The shapes follow the managers' own output as public converters and their fixtures document it:
Zotero's `ADDIN ZOTERO_BIBL {"uncited": [[uri]], …} CSL_BIBLIOGRAPHY` field around the printed
list, EndNote's `EN.CITE` records and `ADDIN EN.REFLIST` list in `EndNoteBibliography`
paragraphs, Mendeley Cite's `MENDELEY_CITATION_v3_<base64>` content controls and Citavi's
`CitaviPlaceholder#…` controls around `ADDIN CitaviPlaceholder<base64>`.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest

from auditor.load import load_files

NOT_CITED = "not cited in the text"


def _t(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def _field(instr: str, shown: str, data: str = "") -> str:
    fld = f"<w:fldData>{data}</w:fldData>" if data else ""
    return (
        f'<w:r><w:fldChar w:fldCharType="begin">{fld}</w:fldChar></w:r>'
        f'<w:r><w:instrText xml:space="preserve">{escape(instr)}</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        f"{_t(shown)}"
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )


def _p(inner: str, style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}{inner}</w:p>"


def _docx(tmp_path: Path, blocks: list[str], name: str = "paper.docx") -> str:
    docx = pytest.importorskip("docx")
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    document = docx.Document()
    body = document.element.body
    for block in blocks:
        el = parse_xml(f"<w:body {nsdecls('w')}>{block}</w:body>")
        for child in list(el):
            body.insert(len(body) - 1, child)  # before the section properties
    path = tmp_path / name
    document.save(str(path))
    return str(path)


def _zotero(uri: str, item: dict[str, Any]) -> str:
    citation = {
        "citationID": "x" + uri[-4:],
        "properties": {"plainCitation": "(cite)", "noteIndex": 0},
        "citationItems": [{"id": uri[-8:], "uris": [uri], "itemData": item}],
        "schema": "https://github.com/citation-style-language/schema/raw/master/csl-citation.json",
    }
    return " ADDIN ZOTERO_ITEM CSL_CITATION " + json.dumps(citation) + " "


def _rows(path: str) -> list[dict[str, Any]]:
    return load_files([path]).table.to_pylist()


SMITH = {
    "id": "AB12CD34",
    "type": "article-journal",
    "title": "Fields carry <i>exact</i> records",
    "author": [{"family": "Smith", "given": "Ann"}],
    "issued": {"date-parts": [["2020", 3, 1]]},
    "container-title": "Journal of Tests",
}
LEE = {
    "id": "EF56GH78",
    "type": "book",
    "title": "Counting what was cited, and what was not",
    "author": [{"family": "Lee", "given": "Cy"}],
    "issued": {"date-parts": [["2019"]]},
}


def test_zotero_uncited_items_and_typed_entries_are_rows_too(tmp_path: Path) -> None:
    uri_s = "http://zotero.org/users/8727/items/AB12CD34"
    uri_l = "http://zotero.org/users/8727/items/EF56GH78"
    uncited_uri = "http://zotero.org/users/8727/items/ZZ99YY88"
    bibl = (
        ' ADDIN ZOTERO_BIBL {"uncited":[["' + uncited_uri + '"]],"omitted":[],"custom":[]}'
        " CSL_BIBLIOGRAPHY "
    )
    path = _docx(
        tmp_path,
        [
            _p(_t("As shown ") + _field(_zotero(uri_s, SMITH), "(Smith 2020)") + _t(".")),
            _p(_t("And ") + _field(_zotero(uri_l, LEE), "(Lee 2019)") + _t(" and (Roe 2018).")),
            _p(_t("References"), "Heading1"),
            _p(
                '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                f'<w:r><w:instrText xml:space="preserve">{escape(bibl)}</w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                + _t("Lee, Cy. 2019. Counting What Was Cited & What Was Not. New York: Press."),
                "Bibliography",
            ),
            _p(
                _t("Smith, Ann. 2020. “Fields Carry Exact Records.” Journal of Tests."),
                "Bibliography",
            ),
            _p(
                _t("Zhou, Qi. 2017. “An Uncited Work in the List.” Journal of Else 4: 1–9.")
                + '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
                "Bibliography",
            ),
            _p(_t("Roe, Bo. 2018. “Typed by Hand after the Field.” Journal of Hands 2: 3–4.")),
            _p(_t("Poe, Al. 2016. “Typed and Never Cited.” Journal of Hands 1: 1–2.")),
        ],
    )
    rows = _rows(path)
    by_title = {r["title"]: r for r in rows}
    assert len(rows) == 5
    smith = by_title["Fields carry exact records"]
    assert smith["key"] == uri_s and smith["cited_at"].endswith("paper.docx ¶1")
    assert smith["reference_text"].startswith("Smith, Ann. 2020.")
    lee = by_title["Counting what was cited, and what was not"]
    assert lee["reference_text"].startswith("Lee, Cy. 2019.")  # most of its title's words
    zhou = by_title["An Uncited Work in the List"]
    assert (zhou["authors"], zhou["year"], zhou["cited_at"]) == (["Zhou, Qi"], 2017, None)
    assert NOT_CITED in zhou["warnings"]
    roe = by_title["Typed by Hand after the Field"]
    assert roe["cited_at"] is not None and NOT_CITED not in roe["warnings"]
    poe = by_title["Typed and Never Cited"]
    assert poe["cited_at"] is None and NOT_CITED in poe["warnings"]
    for row in (smith, lee):
        assert NOT_CITED not in row["warnings"]


def test_a_zotero_list_without_uncited_items_claims_nothing_of_a_typed_entry(
    tmp_path: Path,
) -> None:
    path = _docx(
        tmp_path,
        [
            _p(
                _t("As shown ")
                + _field(_zotero("http://zotero.org/users/1/items/AB12CD34", SMITH), "[1]")
            ),
            _p(
                '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                '<w:r><w:instrText xml:space="preserve"> ADDIN ZOTERO_BIBL CSL_BIBLIOGRAPHY '
                "</w:instrText></w:r>"
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                + _t("[1]A. Smith, “Fields carry exact records,” J. Tests, 2020.")
                + "<w:r><w:br/></w:r>"
                + _t("Typed inside the field by hand, a loose note without a year")
                + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
            ),
        ],
    )
    rows = _rows(path)
    assert [r["reference_text"] for r in rows] == [
        "[1]A. Smith, “Fields carry exact records,” J. Tests, 2020.",
        "Typed inside the field by hand, a loose note without a year",
    ]
    assert NOT_CITED not in rows[1]["warnings"]


def _endnote_cite(rec: int, author: str, year: int, title: str) -> str:
    return (
        f"<EndNote><Cite><Author>{author.split(',')[0]}</Author><Year>{year}</Year>"
        f"<RecNum>{rec}</RecNum><DisplayText>({author.split(',')[0]} {year})</DisplayText>"
        f'<record><rec-number>{rec}</rec-number><foreign-keys><key app="EN" '
        f'db-id="z2asfrdsndpezaeta27x5ff5d022r5x9x9x0" timestamp="1483621777">{rec}</key>'
        '</foreign-keys><ref-type name="Journal Article">17</ref-type>'
        f"<contributors><authors><author>{author}</author></authors></contributors>"
        f"<titles><title>{title}</title><secondary-title>Radiocarbon</secondary-title></titles>"
        "<pages>337-360</pages><volume>51</volume><number>1</number>"
        f"<dates><year>{year}</year><pub-dates><date>{year}/001/001</date></pub-dates></dates>"
        "<electronic-resource-num>10.1017/S0033822200033865</electronic-resource-num>"
        "</record></Cite></EndNote>"
    )


def test_endnote_reflist_with_the_traveling_library(tmp_path: Path) -> None:
    inline = " ADDIN EN.CITE " + _endnote_cite(
        19, "Bronk Ramsey, Christopher", 2009, "Bayesian analysis of radiocarbon dates"
    )
    hidden = _endnote_cite(7, "Aerts-Bijma, Anita", 2020, "Radiocarbon in bones")
    data = base64.b64encode(hidden.encode()).decode()
    nested = (  # EN.CITE holding EN.CITE.DATA, both begins carrying the base64 record
        f'<w:r><w:fldChar w:fldCharType="begin"><w:fldData>{data}</w:fldData></w:fldChar></w:r>'
        '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE </w:instrText></w:r>'
        f'<w:r><w:fldChar w:fldCharType="begin"><w:fldData>{data}</w:fldData></w:fldChar></w:r>'
        '<w:r><w:instrText xml:space="preserve"> ADDIN EN.CITE.DATA </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        + _t("(Aerts-Bijma 2020)")
        + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )
    path = _docx(
        tmp_path,
        [
            _p(_t("Dated ") + _field(inline, "(Bronk Ramsey 2009)") + _t(" and ") + nested),
            _p(
                '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                '<w:r><w:instrText xml:space="preserve"> ADDIN EN.REFLIST </w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                + _t("Aerts-Bijma A (2020) Radiocarbon in bones. Radiocarbon 51(1):337-360"),
                "EndNoteBibliography",
            ),
            _p(
                _t(
                    "Bronk Ramsey C (2009) Bayesian analysis of radiocarbon dates. "
                    "Radiocarbon 51(1):337-360"
                )
                + '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
                "EndNoteBibliography",
            ),
        ],
    )
    rows = _rows(path)  # no references heading: the REFLIST field is the list
    assert [(r["key"], r["title"], r["year"], r["doi"]) for r in rows] == [
        ("19", "Bayesian analysis of radiocarbon dates", 2009, "10.1017/s0033822200033865"),
        ("7", "Radiocarbon in bones", 2020, "10.1017/s0033822200033865"),
    ]
    assert rows[0]["authors"] == ["Bronk Ramsey, Christopher"]
    assert (rows[0]["container_title"], rows[0]["volume"], rows[0]["issue"], rows[0]["pages"]) == (
        "Radiocarbon",
        "51",
        "1",
        "337-360",
    )
    assert rows[0]["reference_text"].startswith("Bronk Ramsey C (2009)")
    assert rows[1]["reference_text"].startswith("Aerts-Bijma A (2020)")
    assert all(r["cited_at"].endswith("¶1") for r in rows)


def _sdt(tag: str, inner: str) -> str:
    props = f'<w:sdtPr><w:tag w:val="{tag}"/></w:sdtPr>'
    return f"<w:sdt>{props}<w:sdtContent>{inner}</w:sdtContent></w:sdt>"


def test_mendeley_cite_content_controls(tmp_path: Path) -> None:
    citation = {
        "citationID": "MENDELEY_CITATION_1de18c13-0c8d-4a3b-9e70-96407afdc71e",
        "properties": {"noteIndex": 0},
        "isEdited": False,
        "manualOverride": {
            "isManuallyOverridden": False,
            "citeprocText": "(Ezquerro et al., 2024)",
            "manualOverrideText": "",
        },
        "citationItems": [
            {
                "id": "e219b34e-d397-37b4-818e-80ca578eae74",
                "itemData": {
                    "type": "article-journal",
                    "id": "e219b34e-d397-37b4-818e-80ca578eae74",
                    "title": "Large dinosaur egg accumulations",
                    "author": [
                        {
                            "family": "Ezquerro",
                            "given": "L.",
                            "parse-names": False,
                            "dropping-particle": "",
                            "non-dropping-particle": "",
                        }
                    ],
                    "container-title": "Geoscience Frontiers",
                    "DOI": "10.1016/j.gsf.2024.101872",
                    "issued": {"date-parts": [[2024, 9, 1]]},
                },
                "isTemporary": False,
            }
        ],
    }
    tag = "MENDELEY_CITATION_v3_" + base64.b64encode(json.dumps(citation).encode()).decode()
    path = _docx(
        tmp_path,
        [
            _p(_t("Eggs ") + _sdt(tag, _t("(Ezquerro et al., 2024)")) + _t(".")),
            _sdt(
                "MENDELEY_BIBLIOGRAPHY",
                _p(
                    _t(
                        "Ezquerro, L. et al. (2024) ‘Large dinosaur egg accumulations’, "
                        "Geoscience Frontiers."
                    )
                ),
            ),
        ],
    )
    rows = _rows(path)
    assert [(r["key"], r["title"], r["year"], r["doi"]) for r in rows] == [
        (
            "e219b34e-d397-37b4-818e-80ca578eae74",
            "Large dinosaur egg accumulations",
            2024,
            "10.1016/j.gsf.2024.101872",
        )
    ]
    assert rows[0]["reference_text"].startswith("Ezquerro, L. et al. (2024)")
    assert rows[0]["cited_at"].endswith("¶1")


def _citavi(entries: list[dict[str, Any]], text: str) -> str:
    payload = {
        "$id": "1",
        "$type": "SwissAcademic.Citavi.Citations.WordPlaceholder, SwissAcademic.Citavi",
        "Entries": entries,
        "Tag": "CitaviPlaceholder#8db84158-666e-4120-9634-26973d6d5ad3",
        "Text": text,
        "WAIVersion": "6.3.0.0",
    }
    data = base64.b64encode(json.dumps(payload).encode()).decode()
    return _sdt(
        "CitaviPlaceholder#8db84158-666e-4120-9634-26973d6d5ad3",
        _field("ADDIN CitaviPlaceholder" + data, text),
    )


def test_citavi_placeholders_carry_their_references(tmp_path: Path) -> None:
    person = {"$id": "4", "$type": "SwissAcademic.Citavi.Person", "FirstName": "Michail",
              "LastName": "Bitzios"}  # fmt: skip
    first = {
        "$id": "2",
        "$type": "SwissAcademic.Citavi.Citations.WordPlaceholderEntry",
        "Id": "0f5b7961-055d-429a-a819-ed58891d9627",
        "ReferenceId": "b213355e-df97-4b43-9e69-8a185817ce57",
        "PageRange": {"$id": "3", "OriginalString": "100-105"},
        "Reference": {
            "$id": "5",
            "$type": "SwissAcademic.Citavi.Reference, SwissAcademic.Citavi",
            "Id": "b213355e-df97-4b43-9e69-8a185817ce57",
            "Authors": [person],
            "Title": "Dissonance in the food traceability regulatory environment",
            "Subtitle": "And food fraud",
            "ReferenceType": "JournalArticle",
            "Year": "2017",
            "Periodical": {"$id": "6", "Name": "Food Policy"},
            "Volume": "23",
            "Number": "2",
            "PageRange": "<sp>\r\n  <n>593</n>\r\n  <in>true</in>\r\n  <os>593</os>\r\n  <ps>593"
            "</ps>\r\n</sp>\r\n<ep>\r\n  <n>596</n>\r\n  <in>true</in>\r\n  <os>596</os>\r\n  "
            "<ps>596</ps>\r\n</ep>\r\n<os>593-596</os>",
            "Doi": "10.1000/citavi.17",
        },
    }
    second = {
        "$id": "7",
        "Id": "aaaa-0002",
        "ReferenceId": "bbbb-0002",
        "BibliographyEntry": "/bibonly",
        "Reference": {
            "$id": "8",
            "Id": "bbbb-0002",
            "Authors": [{"$ref": "4"}],
            "Title": "Only in the list",
            "ReferenceType": "Book",
            "Year": "[In press] 2021",
        },
    }
    path = _docx(
        tmp_path,
        [
            _p(_t("Food ") + _citavi([first, second], "(Bitzios 2017)") + _t(".")),
            _p(_t("Bibliography"), "Heading1"),
            _p(
                _t(
                    "Bitzios, Michail (2017): Dissonance in the food traceability regulatory "
                    "environment. And food fraud. In: Food Policy 23 (2), S. 593–596."
                ),
                "CitaviBibliographyEntry",
            ),  # fmt: skip
            _p(_t("Bitzios, Michail (2021): Only in the list."), "CitaviBibliographyEntry"),
        ],
    )
    rows = _rows(path)
    assert [(r["key"], r["entry_type"], r["year"]) for r in rows] == [
        ("b213355e-df97-4b43-9e69-8a185817ce57", "JournalArticle", 2017),
        ("bbbb-0002", "Book", 2021),
    ]
    article, book = rows
    assert article["title"] == (
        "Dissonance in the food traceability regulatory environment: And food fraud"
    )
    assert (article["authors"], article["container_title"], article["pages"]) == (
        ["Bitzios, Michail"],
        "Food Policy",
        "593-596",
    )
    assert (article["volume"], article["issue"], article["doi"]) == ("23", "2", "10.1000/citavi.17")
    assert article["cited_at"].endswith("¶1") and NOT_CITED not in article["warnings"]
    assert book["authors"] == ["Bitzios, Michail"]  # through Json.NET's $ref
    assert book["cited_at"] is None and NOT_CITED in book["warnings"]
    assert book["reference_text"] == "Bitzios, Michail (2021): Only in the list."


def test_a_broken_payload_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    path = _docx(
        tmp_path,
        [
            _p(
                _t("See ")
                + _sdt("CitaviPlaceholder#x", _field("ADDIN CitaviPlaceholder!!!", "(x)"))
            ),
            _p(
                _t("Also ")
                + _field(_zotero("http://zotero.org/users/1/items/AB12CD34", SMITH), "(S)")
            ),
        ],
    )
    outcome = load_files([path])
    assert outcome.table.column("title").to_pylist() == ["Fields carry exact records"]
    assert any("Citavi field unreadable" in p.message for p in outcome.problems)
