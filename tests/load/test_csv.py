"""CSV loading: header names, `--map` overrides, BOM, `;` authors, multi-line records."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.csv import CsvLoader

FIXTURE = Path(__file__).parent / "fixtures" / "sample.csv"


@pytest.fixture(scope="module")
def table_rows() -> list[dict[str, object]]:
    return load_files([str(FIXTURE)], csv_map={"title": "Article Title"}).table.to_pylist()


def test_rows_lines_and_blank_lines_skipped(table_rows) -> None:
    assert [r["key"] for r in table_rows] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    assert [r["source_line"] for r in table_rows] == [2, 3, 4, 5, 7, 8]


def test_mapped_title_authors_and_et_al(table_rows) -> None:
    r = table_rows[0]
    assert r["title"] == "First CSV paper"
    assert r["authors"] == ["Smith, J.", "Doe, J."] and r["authors_et_al"] is True
    assert (r["id_type"], r["identifier"]) == ("doi", "10.1000/abc")
    assert table_rows[1]["title"] == "A title, with a comma"


@pytest.mark.parametrize(
    ("i", "state", "reason"),
    [
        (1, None, None),
        (2, "INVALID", "type_contradiction"),
        (3, "NOT COVERED", "unsupported_type"),
        (4, "NOT COVERED", "no_identifier"),
    ],
)
def test_declared_types(table_rows, i, state, reason) -> None:
    assert (table_rows[i]["row_state"], table_rows[i]["row_reason"]) == (state, reason)


def test_multiline_record_and_doi_column(table_rows) -> None:
    r = table_rows[5]
    assert r["title"] == "Multi line title"
    assert (r["id_type"], r["identifier"]) == ("doi", "10.1000/multi")


def test_article_title_is_found_without_map(table_rows) -> None:
    outcome = load_files([str(FIXTURE)])
    assert [r["title"] for r in outcome.table.to_pylist()] == [r["title"] for r in table_rows]
    assert not any("title" in p.message for p in outcome.problems)


def test_a_mapped_column_the_header_lacks_leaves_the_field_empty() -> None:
    rows, problems = CsvLoader({"title": "Headline"}).load("Title,Year\nA,2020\n", "m.csv")
    assert rows.columns["title"] == [None]
    assert any("no 'Headline' column" in p.message for p in problems)


def test_unknown_map_field_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown field"):
        CsvLoader({"colour": "X"})


def test_non_utf8_csv_names_the_encoding_problem(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("title\nCaf\u00e9\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin\.csv.*UTF-8"):
        load_files([str(path)])
    row = load_files([str(path)], encoding="latin-1").table.to_pylist()[0]
    assert row["title"] == "Café"


def test_semicolon_delimited(tmp_path: Path) -> None:
    path = tmp_path / "semi.csv"
    path.write_text("TITLE;PMID\nA paper;123\n", encoding="utf-8")
    row = load_files([str(path)]).table.to_pylist()[0]
    assert (row["title"], row["id_type"], row["identifier"]) == ("A paper", "pmid", "123")


def test_a_header_without_authors_or_year_is_named_with_the_map_hint() -> None:
    text = "Title,Writers,When\nA title,Liu R.,2014\n"
    rows, problems = CsvLoader().load(text, "e.csv")
    messages = [p.message for p in problems]
    assert any("no 'authors' column" in m and "--map authors=COLUMN" in m for m in messages)
    assert any("no 'year' column" in m for m in messages)
    assert not any("'title'" in m for m in messages)
    assert len(rows) == 1


def test_text_of_no_known_format_is_a_reference_list(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_text("[Fau86]\n    author: J.W. Goethe\n    title: Faust\n\n[Doe20]\n", "utf-8")
    outcome = load_files([str(path)])
    assert outcome.table.column("source_format").to_pylist() == ["text", "text"]
    assert outcome.table.column("source_label").to_pylist() == ["Fau86", "Doe20"]
    named = tmp_path / "refs.csv"  # a .csv is CSV: its gaps are warnings, each record a row
    named.write_text("[Fau86],x\nauthor: Goethe,y\n", "utf-8")
    assert load_files([str(named)]).table.num_rows == 1
