"""Scopus, PubMed, Embase and Zotero CSV exports read without `--map`."""

from __future__ import annotations

from pathlib import Path

from auditor.load import load_files
from auditor.load.csv import CsvLoader

FIXTURES = Path(__file__).parent / "fixtures"


def _rows(text: str) -> list[dict[str, object]]:
    rows, _problems = CsvLoader().load(text, "x.csv")
    columns = rows.columns
    return [dict(zip(columns, v, strict=True)) for v in zip(*columns.values(), strict=True)]


def test_scopus_export() -> None:
    outcome = load_files([str(FIXTURES / "scopus.csv")])
    full, old = outcome.table.to_pylist()
    assert not outcome.problems
    assert full["authors"] == ["Abdel-Tawab, Mona", "Werz, Oliver"]  # full names, ids dropped
    assert (full["container_title"], full["year"], full["volume"], full["issue"]) == (
        "PLoS ONE",
        2016,
        "11",
        "3",
    )
    assert (full["pages"], full["issn"], full["language"]) == ("e0150989", "1932-6203", "English")
    assert (full["doi"], full["pmid"], full["key"]) == (
        "10.1371/journal.pone.0150989",
        "26957754",
        "2-s2.0-84960906399",
    )
    assert full["declared_type"] is None  # `Document Type` is not the identifier type
    assert old["authors"] == ["Liu R.", "Adler D.G."]  # no full names: `Authors` after initials
    assert old["pages"] == "152-160"


def test_pubmed_export() -> None:
    outcome = load_files([str(FIXTURES / "pubmed.csv")])
    article, report = outcome.table.to_pylist()
    assert not outcome.problems
    assert article["authors"] == ["Abdel-Tawab M", "Werz O", "Schubert-Zsilavecz M"]
    assert (article["container_title"], article["year"]) == ("PLoS One", 2016)
    assert (article["volume"], article["issue"], article["pages"]) == ("11", "3", "e0150989")
    assert (article["identifier"], article["pmid"]) == ("10.1371/journal.pone.0150989", "26957754")
    assert report["authors"] == ["World Health Organization"] and report["pages"] is None
    assert report["identifier"] == "11234567"


def test_embase_export() -> None:
    text = (
        "Title,Original Title,Author Names,Correspondence Address,Source,Abstract,Open URL Link\n"
        '"Duplication cysts: diagnosis",,"Liu R., Adler D.G.","D.G. Adler, Utah",'
        '"Endoscopic Ultrasound (2014) 3:3 (152-160). Date of Publication: 2014",'
        '"See doi:10.9999/abstract.doi",'
        "http://sfx.example.org/x?sid=EMBASE&issn=22267190&id=doi:10.4103%2F2303-9027.138783"
        "&atitle=Duplication\n"
        '"Neck masses",,"Quintanilla-Dieck L.","x","Clinics in Perinatology (2018) 45 (769-785)",,'
        "\n"
    )
    rows, problems = CsvLoader().load(text, "embase.csv")
    assert not problems
    columns = rows.columns
    first, second = (
        dict(zip(columns, v, strict=True)) for v in zip(*columns.values(), strict=True)
    )
    assert first["authors"] == ["Liu R.", "Adler D.G."]
    assert (first["container_title"], first["year"], first["volume"], first["issue"]) == (
        "Endoscopic Ultrasound",
        2014,
        "3",
        "3",
    )
    assert (first["pages"], first["doi"], first["issn"]) == (
        "152-160",
        "10.4103/2303-9027.138783",
        "2226-7190",
    )
    assert (second["volume"], second["issue"], second["pages"], second["doi"]) == (
        "45",
        None,
        "769-785",
        None,
    )


def test_generic_csv_keeps_a_comma_name_whole_and_reads_zotero_names() -> None:
    (generic,) = _rows('title,authors,year\nA,"Smith, John",2020\n')
    assert generic["authors"] == ["Smith, John"]
    (zotero,) = _rows(
        "Key,Item Type,Publication Year,Author,Title,Publication Title,ISSN,DOI,Url\n"
        'ABCD1234,journalArticle,2019,"Doe, Jane; Roe, Richard",A title,A Journal,,10.1/x,\n'
    )
    assert (zotero["key"], zotero["year"], zotero["container_title"]) == (
        "ABCD1234",
        2019,
        "A Journal",
    )
    assert zotero["authors"] == ["Doe, Jane", "Roe, Richard"]
    assert zotero["declared_type"] is None


def test_pubmed_csv_before_2020_is_read_fully() -> None:
    # `Title,URL,Description,Details,ShortDetails,…,EntrezUID,Properties`, a comma after each row
    outcome = load_files([str(FIXTURES / "pubmed_legacy.csv")])
    table = outcome.table.to_pydict()
    assert table["pmid"] == ["26957754", "19389018", "11234567"]
    assert table["doi"][:2] == ["10.1371/journal.pone.0150989", "10.1097/mco.0b013e3283331fe4"]
    assert table["authors"][0] == ["Abdel-Tawab M", "Werz O", "Schubert-Zsilavecz M"]
    assert table["year"] == [2016, 2010, 2001]
    assert table["container_title"][:2] == ["PLoS One", "Curr Opin Clin Nutr Metab Care"]
    assert (table["volume"][1], table["issue"][1], table["pages"][1]) == ("13", "1", "14-8")
    assert table["declared_type"] == [None, None, None]  # `Type` is `citation`, not an id type
    assert table["url"] == [None, None, None]
    assert [p.message for p in outcome.problems] == []  # the trailing comma is no warning
