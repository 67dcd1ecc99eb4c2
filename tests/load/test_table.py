"""References tables (Parquet, JSON Lines) read as columns: `auditor.load.table`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from auditor import tables
from auditor.errors import InputError
from auditor.load import load_files
from auditor.load.names import clean_author_list
from auditor.load.table_cells import _SPACES, clean_authors, collapse_spaces

ROWS = [
    {"key": "a", "doi": "10.1000/ABC", "title": "  Deep   learning ", "authors": ["LeCun, Y."],
     "year": 2015, "journal": "Nature"},
    {"key": "b", "pmid": "123", "title": "A PubMed paper", "authors": ["Doe, J.", "et al."],
     "year": 2001},
    {"key": "c", "id": "arXiv:1706.03762v5", "title": "Attention", "authors": [], "year": None},
    {"key": "d", "doi": "10.1000/x1", "title": None, "authors": None, "year": 1999},
]  # fmt: skip


def _parquet(tmp_path: Path, rows: list[dict[str, object]], name: str = "refs.parquet") -> str:
    path = tmp_path / name
    names = list(dict.fromkeys(k for row in rows for k in row))  # every row's keys, not the first's
    pq.write_table(pa.Table.from_pylist([{k: r.get(k) for k in names} for r in rows]), path)
    return str(path)


def test_parquet_references_load_and_classify(tmp_path: Path) -> None:
    out = load_files([_parquet(tmp_path, ROWS)])
    assert out.table.schema == tables.REFERENCES
    rows = out.table.to_pylist()
    assert [r["row_id"] for r in rows] == [0, 1, 2, 3]
    assert [r["source_line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["identifier"] == "10.1000/abc" and rows[0]["title"] == "Deep learning"
    assert rows[0]["container_title"] == "Nature" and rows[0]["source_format"] == "parquet"
    assert rows[1]["authors"] == ["Doe, J."] and rows[1]["authors_et_al"] is True
    assert (rows[1]["id_type"], rows[1]["identifier"]) == ("pmid", "123")
    assert (rows[2]["id_type"], rows[2]["identifier"]) == ("arxiv", "1706.03762")
    assert (rows[3]["row_state"], rows[3]["row_reason"]) == ("INVALID", "missing_title")
    assert out.inputs[0].format == "parquet" and out.inputs[0].rows == 4


def test_column_map_and_string_authors_and_years(tmp_path: Path) -> None:
    rows = [
        {"Article Title": "One", "Who": "Smith, J.; Roe, R.; others", "When": "c. 2019",
         "DOI": "10.5555/a"},
        {"Article Title": "Two", "Who": None, "When": "n.d.", "DOI": "10.5555/b"},
    ]  # fmt: skip
    path = _parquet(tmp_path, rows)
    out = load_files([path], csv_map={"title": "Article Title", "authors": "Who", "year": "When"})
    got = out.table.select(["title", "authors", "authors_et_al", "year", "identifier"]).to_pylist()
    assert got[0] == {
        "title": "One", "authors": ["Smith, J.", "Roe, R."], "authors_et_al": True, "year": 2019,
        "identifier": "10.5555/a",
    }  # fmt: skip
    assert got[1]["year"] is None and got[1]["authors"] == []
    assert out.table.column("warnings").to_pylist()[1] == ["year is not a year"]
    assert any(p.line == 2 and "year" in p.message for p in out.problems)
    with pytest.raises(InputError, match="unknown field"):
        load_files([path], csv_map={"colour": "Who"})
    with pytest.raises(InputError, match="no column"):
        load_files([path], csv_map={"title": "Missing"})


def test_jsonl_with_a_broken_line_keeps_every_other_row(tmp_path: Path) -> None:
    path = tmp_path / "refs.jsonl"
    lines = [json.dumps(ROWS[0]), "{not json", json.dumps(ROWS[1]), "[1, 2]"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = load_files([str(path)])
    rows = out.table.to_pylist()
    assert len(rows) == 4 and [r["source_line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["identifier"] == "10.1000/abc" and rows[2]["identifier"] == "123"
    assert rows[1]["row_state"] == "INVALID" and "not JSON" in rows[1]["parse_error"]
    assert rows[3]["parse_error"] == "not a JSON object"
    assert {p.line for p in out.problems if p.severity == "error"} == {2, 4}


def test_clean_jsonl_goes_through_arrows_reader(tmp_path: Path) -> None:
    path = tmp_path / "refs.ndjson"
    path.write_text("\n".join(json.dumps(r) for r in ROWS[:2]) + "\n", encoding="utf-8")
    out = load_files([str(path)])
    assert out.table.column("identifier").to_pylist() == ["10.1000/abc", "123"]
    assert out.table.column("authors").to_pylist() == [["LeCun, Y."], ["Doe, J."]]


def test_an_unreadable_table_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    with pytest.raises(InputError, match="bad.parquet"):
        load_files([str(bad)])


def test_vectorized_author_cleaning_agrees_with_the_per_row_rule() -> None:
    pool = ["Smith, J.", "  Doe J ", "et al.", "others", "Smith J, et al.", "", "Betty",
            "Kettle, A", "{et al}", "and others", "Peters;", "X et al", "Ng, et al", "  ,",
            "Étienne, B.", "Yeti, R."]  # fmt: skip
    rng = random.Random(16)
    rows: list[list[str] | None] = [rng.sample(pool, rng.randint(0, 6)) for _ in range(2000)]
    rows += [None, []]
    authors, et_al = clean_authors(pa.chunked_array([pa.array(rows, pa.list_(pa.string()))]))
    expected = [clean_author_list(r or []) for r in rows]
    assert authors.to_pylist() == [e[0] for e in expected]
    assert et_al.to_pylist() == [e[1] for e in expected]


def test_a_null_author_list_that_spans_names_is_empty() -> None:
    # A null slot over values (legal Arrow, which Parquet writers may produce) yields none of them.
    column = pa.ListArray.from_arrays(
        pa.array([0, 2, 4, 5]), pa.array(["A, B", "C, D", "E, F", "G, H", "I, J"]),
        mask=pa.array([False, True, False]),
    )  # fmt: skip
    authors, et_al = clean_authors(pa.chunked_array([column]))
    assert authors.to_pylist() == [["A, B", "C, D"], [], ["I, J"]]
    assert et_al.to_pylist() == [False, False, False]


def test_title_whitespace_collapses_as_str_split_does() -> None:
    titles = ["a  b", "a\tb", "a\u00a0b", "a\u3000\u3000b", "ok title", "a \u2003 b", "x\n\ny"]
    got = pc.replace_substring_regex(pa.array(titles), _SPACES, " ").to_pylist()
    assert got == [" ".join(t.split()) for t in titles]
    # The loader rewrites only the titles that need it, across chunks, keeping nulls.
    mixed = pa.chunked_array([titles[:3] + [None], ["plain", *titles[3:]]])
    want = [None if t is None else " ".join(t.split()) for t in mixed.to_pylist()]
    assert collapse_spaces(mixed).to_pylist() == want
    plain = pa.chunked_array([["one", None], ["two"]])
    assert collapse_spaces(plain) is plain


def test_closed_legs_and_mixed_inputs(tmp_path: Path) -> None:
    path = _parquet(tmp_path, ROWS)
    out = load_files([path], closed_legs=frozenset({"pmid"}))
    assert out.table.column("row_reason").to_pylist()[1] == "leg_closed"
    bib = tmp_path / "a.bib"
    bib.write_text("@article{k, title={T}}\n", encoding="utf-8")
    with pytest.raises(InputError, match="a.bib"):
        load_files([path, str(bib)])


# Every character Python or Arrow may read as whitespace, beside ones neither does.
_EDGE_CHARS = [
    " ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
    "\u200a", "\u200b", "\u2028", "\u202f", "\u205f", "\u3000", "\ufeff", "a", "Z", "0", "-",
    "~", "é", "漢", "\u0301", "\x00", "\x7f",
]  # fmt: skip


def _strings_by_trimming_everything(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """What `strings` returned before it looked at the ends first: trim, then blanks null."""
    trimmed = pc.utf8_trim_whitespace(column)
    return pc.if_else(pc.equal(trimmed, ""), pa.scalar(None, pa.string()), trimmed)


def test_strings_trims_and_nulls_as_a_trim_of_every_cell_does() -> None:
    from auditor.load.table_cells import strings

    rng = random.Random(23)
    values: list[str | None] = [None, "", " ", "plain", "x"]
    for _ in range(3000):
        ends = [rng.choice(_EDGE_CHARS) for _ in range(rng.randint(0, 2))]
        middle = "".join(rng.choice(_EDGE_CHARS) for _ in range(rng.randint(0, 4)))
        values.append("".join(ends[:1]) + middle + "".join(ends[1:]))
    array = pa.array(values, pa.string())
    # Chunked, and chunks that are slices of a larger buffer (a nonzero offset).
    column = pa.chunked_array([array.slice(0, 1000), array.slice(1000, 1003), array.slice(2003)])
    assert strings(column).to_pylist() == _strings_by_trimming_everything(column).to_pylist()
    for value in values:  # each alone: a one-row column takes the fast path when it can
        one = pa.chunked_array([pa.array([value], pa.string())])
        assert strings(one).to_pylist() == _strings_by_trimming_everything(one).to_pylist()


def test_strings_leaves_a_column_with_nothing_to_trim_as_it_is() -> None:
    from auditor.load.table_cells import strings

    column = pa.chunked_array([pa.array(["Deep learning", "A", None, "x y"], pa.string())])
    assert strings(column).to_pylist() == ["Deep learning", "A", None, "x y"]


def test_title_whitespace_collapses_the_same_whether_or_not_the_bytes_are_scanned_first() -> None:
    # `collapse_spaces` skips the regex for a column of printable ASCII with no two spaces in a
    # row: checked against the regex applied to every title.
    rng = random.Random(29)
    pool = [" ", "a", "b", "-", "~", *_EDGE_CHARS]
    for size in (1, 2, 5, 50):
        for _ in range(200):
            titles = [
                "".join(rng.choice(pool) for _ in range(rng.randint(0, 6))) for _ in range(size)
            ]
            column = pa.chunked_array([pa.array(titles, pa.string())])
            want = pc.replace_substring_regex(column, _SPACES, " ").to_pylist()
            assert collapse_spaces(column).to_pylist() == want, titles
