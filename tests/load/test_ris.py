"""RIS loading: tags, date forms, several records, bad tags and unterminated records."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.load import load_files
from auditor.load.ris import RisLoader

FIXTURE = Path(__file__).parent / "fixtures" / "sample.ris"


@pytest.fixture(scope="module")
def table_rows() -> list[dict[str, object]]:
    return load_files([str(FIXTURE)]).table.to_pylist()


def test_one_row_per_record_with_start_lines(table_rows) -> None:
    assert [r["source_line"] for r in table_rows] == [1, 18, 27, 38]
    assert {r["source_format"] for r in table_rows} == {"ris"}


def test_full_record(table_rows) -> None:
    r = table_rows[0]
    assert r["key"] == "ris1" and r["entry_type"] == "JOUR"
    assert r["title"] == "Deep learning for protein folding"
    assert r["authors"] == ["Jumper, John", "Evans, Richard"]
    assert r["year"] == 2021  # PY 2021///
    assert (r["container_title"], r["volume"], r["issue"], r["pages"]) == (
        "Nature",
        "596",
        "7873",
        "583-589",
    )
    assert (r["issn"], r["language"]) == ("0028-0836", "eng")
    assert (r["id_type"], r["identifier"]) == ("doi", "10.1038/s41586-021-03819-2")


def test_t1_a1_y1_and_pubmed_accession_number(table_rows) -> None:
    r = table_rows[1]
    assert (r["title"], r["authors"], r["year"]) == ("A PubMed record", ["Smith, Jane"], 2019)
    assert r["container_title"] == "The Journal of Examples"
    assert (r["id_type"], r["identifier"]) == ("pmid", "31000001")


def test_editors_date_and_pmid_in_m1(table_rows) -> None:
    r = table_rows[2]
    assert (r["authors"], r["year"]) == (["Editor, Ed"], 2018)
    assert r["container_title"] == "The Book of Chapters"
    assert (r["id_type"], r["identifier"]) == ("pmid", "29000002")
    assert any("ZZ" in w for w in r["warnings"])


def test_unterminated_record_still_loads_with_a_warning(table_rows) -> None:
    r = table_rows[3]
    assert (r["id_type"], r["identifier"], r["id_raw"]) == (
        "arxiv",
        "1706.03762",
        "https://arxiv.org/abs/1706.03762v5",
    )
    assert any("ER" in w for w in r["warnings"])


def test_problems_name_lines() -> None:
    problems = load_files([str(FIXTURE)]).problems
    assert [(p.line, p.severity) for p in problems] == [
        (27, "warning"),
        (36, "warning"),
        (38, "warning"),
    ]


def test_text_without_records_is_not_a_row() -> None:
    rows, problems = RisLoader().load("just some text\n\n", "x.ris")
    assert len(rows) == 0 and problems and problems[0].line == 1


def test_untagged_line_after_ty_is_a_warning_not_a_crash() -> None:
    rows, problems = RisLoader().load("TY  - JOUR\nstray text\nTI  - Kept\nER  - \n", "x.ris")
    assert rows.columns["title"] == ["Kept"]
    assert [p.message for p in problems] == ["text without a tag after `TY  -` (ignored)"]


def test_research_notes_are_commentary_never_an_identifier() -> None:
    text = (
        "TY  - JOUR\nTI  - A title\nAU  - Doe, J\nPY  - 2020\n"
        "RN  - criticized in https://doi.org/10.9999/critic and PMID: 1234567\n"
        "N1  - PMID: 7654321\nER  - \n"
    )
    rows, _problems = RisLoader().load(text, "rn.ris")
    assert (rows.columns["doi"], rows.columns["pmid"]) == ([None], ["7654321"])
