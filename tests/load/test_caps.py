"""Caps on one entry: a field's length and its author names (#26, 14, 15, 20)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.load import load_files
from auditor.load.caps import MAX_FIELD_CHARS, MAX_NAMES
from auditor.load.names import clean_author_list, split_bibtex_authors


def _bib(path: Path, title: str, authors: str) -> Path:
    path.write_text(
        "@article{huge, title={" + title + "}, author={" + authors + "},"
        " doi={10.1234/huge}, year={2020}}\n"
        "@article{fine, title={A fine title}, author={Doe, Jane}, doi={10.1234/fine}}\n",
        encoding="utf-8",
    )
    return path


def test_a_title_past_the_cap_is_an_invalid_row_naming_the_cap(tmp_path: Path) -> None:
    path = _bib(tmp_path / "t.bib", "x" * (MAX_FIELD_CHARS * 16), "Doe, Jane")
    outcome = load_files([str(path)])
    huge, fine = outcome.table.to_pylist()
    assert huge["row_state"] == "INVALID" and huge["row_reason"] == "parse_error"
    assert "65,536 characters" in huge["parse_error"] and "title" in huge["parse_error"]
    assert len(huge["title"]) == MAX_FIELD_CHARS
    assert fine["row_state"] is None and fine["title"] == "A fine title"
    assert any("cap" in p.message and p.line == 1 for p in outcome.problems)


def test_an_author_list_past_the_cap_is_cut_and_invalid(tmp_path: Path) -> None:
    names = " and ".join(f"Author{i}, A." for i in range(MAX_NAMES * 3))
    outcome = load_files([str(_bib(tmp_path / "a.bib", "Many authors", names))])
    huge, fine = outcome.table.to_pylist()
    assert huge["row_state"] == "INVALID"
    assert "10,000 author names" in huge["parse_error"]
    assert len(huge["authors"]) == MAX_NAMES
    assert huge["author_names"] is None or len(huge["author_names"]) == MAX_NAMES
    assert huge["key"] == "huge"  # the entry is kept, never dropped
    assert fine["authors"] == ["Doe, Jane"]


def test_the_name_splitters_stop_after_the_cap() -> None:
    raw = " and ".join(f"N{i}" for i in range(MAX_NAMES * 5))
    assert len(split_bibtex_authors(raw).authors) == MAX_NAMES + 1
    endless = (f"N{i}" for i in range(10**9))  # would never end if read whole
    assert len(clean_author_list(endless)[0]) == MAX_NAMES + 1


def test_an_author_name_past_the_cap_is_invalid(tmp_path: Path) -> None:
    outcome = load_files([str(_bib(tmp_path / "n.bib", "T", "y" * (MAX_FIELD_CHARS + 1)))])
    huge = outcome.table.to_pylist()[0]
    assert huge["row_state"] == "INVALID" and "author name" in huge["parse_error"]
    assert len(huge["authors"][0]) == MAX_FIELD_CHARS


def test_reports_of_a_huge_entry_stay_bounded(isolated: Path, tmp_path: Path) -> None:
    names = " and ".join(f"Author{i}, A." for i in range(MAX_NAMES * 2))
    path = _bib(tmp_path / "h.bib", "z" * (4 * 1024 * 1024), names)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["audit", str(path), "--offline", "--quiet", "--out", str(out)]
    )
    assert result.exit_code in (0, 1), result.output
    total = sum(p.stat().st_size for p in out.iterdir())
    # 4 MB title and 20,000 names in: each report holds at most one capped copy of them.
    assert total < 8 * (MAX_FIELD_CHARS + MAX_NAMES * 20) + 2_000_000, total
    assert "INVALID" in (out / "verdicts.csv").read_text(encoding="utf-8-sig")


def test_a_table_whose_title_is_a_list_is_exit_2_naming_the_column(
    isolated: Path, tmp_path: Path
) -> None:
    path = tmp_path / "refs.parquet"
    pq.write_table(pa.table({"title": [["A", "title"]], "doi": ["10.1234/x"]}), path)
    result = CliRunner().invoke(
        app, ["audit", str(path), "--offline", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2, result.output
    assert "refs.parquet" in result.output and "'title'" in result.output
    assert "list<" in result.output


@pytest.mark.parametrize(
    "column",
    [
        pa.array([{"a": 1}]),
        pa.array([[1, 2]]),
    ],
)
def test_other_nested_columns_are_refused_too(tmp_path: Path, column: pa.Array) -> None:
    from auditor.errors import InputError
    from auditor.load.table import load_tables

    path = tmp_path / "refs.parquet"
    pq.write_table(pa.table({"title": ["T"], "doi": ["10.1234/x"], "year": column}), path)
    with pytest.raises(InputError, match="'year'"):
        load_tables([str(path)])


def test_a_long_title_in_a_table_is_capped_like_a_bibliography(tmp_path: Path) -> None:
    from auditor.load.table import load_tables

    path = tmp_path / "refs.parquet"
    pq.write_table(
        pa.table({"title": ["t" * (MAX_FIELD_CHARS + 5), "ok"], "doi": ["10.1234/a", "10.1234/b"]}),
        path,
    )
    rows = load_tables([str(path)]).table.to_pylist()
    assert rows[0]["row_state"] == "INVALID" and len(rows[0]["title"]) == MAX_FIELD_CHARS
    assert rows[1]["row_state"] is None


def test_the_column_path_and_the_row_path_agree() -> None:
    from auditor import tables
    from auditor.load import caps

    n = caps._COLUMN_PATH_ROWS + 10
    rows = [
        {"row_id": i, "source_path": "r.bib", "title": "ok", "authors": ["A"]} for i in range(n)
    ]
    rows[3]["title"] = "t" * (MAX_FIELD_CHARS + 1)
    rows[7]["authors"] = ["a"] * (MAX_NAMES + 1)
    rows[8]["authors"] = ["b" * (MAX_FIELD_CHARS + 1)]
    rows[9]["url"] = "u" * (MAX_FIELD_CHARS + 1)
    table = tables.from_rows(rows, tables.REFERENCES)
    big = caps._over(table)
    small = {
        i + j: why for j in range(0, n, 500) for i, why in caps._over(table.slice(j, 500)).items()
    }
    assert big == small and sorted(big) == [3, 7, 8, 9]
    capped, problems = caps.cap_references(table)
    assert [capped.column("row_state")[i].as_py() for i in (2, 3, 7, 8, 9)] == [
        None,
        "INVALID",
        "INVALID",
        "INVALID",
        "INVALID",
    ]
    assert capped.num_rows == n and len(problems) == 4


def test_a_title_with_more_bytes_than_the_cap_but_fewer_characters_is_kept(tmp_path: Path) -> None:
    # The quick check reads UTF-8 byte lengths: 40,000 Chinese characters are 120,000 bytes but
    # within the cap of 65,536 characters, so the exact count must decide, and keep the row.
    title = "文" * 40_000
    outcome = load_files([str(_bib(tmp_path / "cjk.bib", title, "王, 小明"))])
    row = outcome.table.to_pylist()[0]
    assert row["row_state"] != "INVALID" and row["title"] == title
    assert not any("cap" in p.message for p in outcome.problems)
