"""Web of Science, MEDLINE/PubMed and EndNote exports: records, fields, identifiers, lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.load import detect_format, load_files
from auditor.load.endnote import EndnoteLoader
from auditor.load.medline import MedlineLoader
from auditor.load.wos import WosLoader

FIXTURES = Path(__file__).parent / "fixtures"


def _rows(name: str) -> list[dict[str, object]]:
    return load_files([str(FIXTURES / name)]).table.to_pylist()


def test_web_of_science_records() -> None:
    first, early, book = _rows("savedrecs.txt")
    assert [r["source_format"] for r in (first, early, book)] == ["wos"] * 3
    assert [r["source_line"] for r in (first, early, book)] == [3, 46, 61]
    assert first["key"] == "WOS:000503361900012"
    assert first["title"] == (
        "Holding Yourself Captive: Perceptions of Custody During Interviews and Interrogations"
    )
    assert first["authors"] == ["Alceste, Fabiana", "Luke, Timothy J.", "Kassin, Saul M."]
    assert (first["year"], first["volume"], first["issue"], first["pages"]) == (
        2019,
        "8",
        "4",
        "507-515",
    )
    assert first["container_title"] == "JOURNAL OF APPLIED RESEARCH IN MEMORY AND COGNITION"
    assert (first["identifier"], first["issn"]) == ("10.1016/j.jarmac.2019.09.003", "2211-3681")
    assert (early["doi"], early["pmid"], early["pages"]) == (
        "10.1371/journal.pone.0250001",
        "33886654",
        "e0250001",
    )
    assert book["entry_type"] == "book" and book["authors"] == ["World Health Organization"]
    assert book["row_reason"] == "no_identifier"


def test_medline_records() -> None:
    review, foreign, chapter = _rows("pubmed.nbib")
    assert [r["source_line"] for r in (review, foreign, chapter)] == [2, 37, 51]
    assert (review["pmid"], review["doi"], review["id_type"]) == (
        "26957754",
        "10.1371/journal.pone.0150989",
        "doi",
    )
    assert review["title"].startswith("Boswellia serrata preparations") and review[
        "title"
    ].endswith("trials in humans.")
    assert review["authors"] == ["Abdel-Tawab, Mona", "van der Berg, Jan"]
    assert (review["year"], review["volume"], review["issue"], review["issn"]) == (
        2016,
        "11",
        "3",
        "1932-6203",
    )
    assert review["container_title"] == "PloS one"
    # a `[pii]` LID is not a DOI, and the abstract's DOI is never taken
    assert (foreign["doi"], foreign["identifier"]) == (None, "12345678")
    assert foreign["authors"] == ["Example Collaborative Group"]
    assert (chapter["container_title"], chapter["year"]) == ("The Book Title", 1998)


def test_endnote_records() -> None:
    article, paper, pubmed = _rows("library.enw")
    assert [r["source_line"] for r in (article, paper, pubmed)] == [1, 19, 27]
    assert article["doi"] == "10.1038/nature14539"
    assert article["authors"] == ["LeCun, Yann", "Bengio, Yoshua", "Hinton, Geoffrey"]
    assert (article["container_title"], article["pages"], article["issn"]) == (
        "Nature",
        "436-444",
        "0028-0836",
    )
    assert (paper["key"], paper["arxiv"]) == ("vaswani2017", "1706.03762")
    assert pubmed["pmid"] == "20332509" and pubmed["doi"] is None


@pytest.mark.parametrize(
    ("name", "head", "fmt"),
    [
        (
            "savedrecs.txt",
            "\ufeffFN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nAU X\n",
            "wos",
        ),
        ("export.ris", "FN Thomson Reuters Web of Science\nVR 1.0\nPT J\n", "wos"),
        ("pubmed-set.txt", "\nPMID- 26957754\nOWN - NLM\n", "medline"),
        ("citations.nbib", "", "medline"),
        ("x.txt", "%0 Journal Article\n%T A\n", "endnote"),
        ("x.enw", "", "endnote"),
        ("x.ciw", "", "wos"),
        ("refs.txt", "TY  - JOUR\nTI  - A\n", "ris"),
    ],
)
def test_detected_by_content_then_extension(name: str, head: str, fmt: str) -> None:
    assert detect_format(name, head) == fmt


def test_records_survive_hostile_lines() -> None:
    rows, problems = WosLoader().load(
        "PT J\n   stray continuation\nTI A\nER\nPT J\nTI B\n", "w.txt"
    )
    assert rows.columns["title"] == ["A", "B"]
    assert [p.message for p in problems] == ["record not closed by an `ER` line"]
    rows, problems = MedlineLoader().load("TI  - no pmid\n\nPMID- 1\nTI  - B\n", "m.nbib")
    assert rows.columns["title"] == ["no pmid", "B"]
    assert [p.message for p in problems] == ["record without a `PMID-` line"]
    rows, _ = EndnoteLoader().load("%T missing type\n\n%0 Book\n%T B\n%D n.d.\n", "e.enw")
    assert rows.columns["title"] == ["missing type", "B"]
    assert rows.columns["warnings"][1] == ["year 'n.d.' is not a year"]


def test_utf16_endnote_export(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_bytes("%0 Journal Article\n%T Caf\u00e9 society\n%D 2001\n".encode("utf-16"))
    (row,) = load_files([str(path)]).table.to_pylist()
    assert (row["source_format"], row["title"], row["year"]) == (
        "endnote",
        "Caf\u00e9 society",
        2001,
    )


def test_medline_author_without_a_full_name_is_kept_in_its_place() -> None:
    # One FAU-less author (older records, hand-edited exports) must not drop the others, nor
    # the FAU-less one when the others have full names.
    text = (
        "PMID- 31452104\nTI  - A title.\nFAU - Garcia, Ana\nAU  - Garcia A\nAD  - Somewhere.\n"
        "AU  - Smith J\nFAU - Doe, Jane\nAU  - Doe J\nDP  - 2019\n\n"
        "PMID- 1000\nTI  - Older.\nAU  - Lee K\nAU  - Park S\nDP  - 1990\n"
    )
    rows, _problems = MedlineLoader().load(text, "x.nbib")
    first, old = rows.columns["authors"]
    assert first == ["Garcia, Ana", "Smith J", "Doe, Jane"]
    assert old == ["Lee K", "Park S"]
