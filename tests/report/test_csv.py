"""CSV outputs: BOM, lists joined, formulas defused, golden files."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.report import csv as csv_report
from auditor.report import write_reports
from auditor.report.csv import table_csv
from auditor.report.view import build_view
from auditor.result import AuditResult
from tests.properties import examples

from .golden import check_golden


def test_bom_and_parseable(result: AuditResult, tmp_path: Path) -> None:
    write_reports(build_view(result), tmp_path)
    raw = (tmp_path / "verdicts.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert [r["key"] for r in rows] == result.references["key"].to_pylist()
    assert rows[0]["authors_claimed"] == "LeCun, Yann; Bengio, Yoshua; Hinton, Geoffrey"
    assert rows[0]["year_claimed"] == "2015"  # an int column stays an int, not 2015.0
    assert rows[3]["title_claimed"].startswith("<script>")  # CSV is data: kept verbatim
    assert rows[8]["title_claimed"] == "中华医学杂志 示例 研究"


def test_formula_cells_are_defused() -> None:
    titles = ['=HYPERLINK("http://x")', "+1", "@SUM(A1)", "-x", "ok", None]
    table = pa.table({"title": titles, "n": list(range(6))})
    rows = list(csv.reader(io.StringIO(table_csv(table))))
    assert [r[0] for r in rows[1:]] == [
        '\'=HYPERLINK("http://x")',
        "'+1",
        "'@SUM(A1)",
        "'-x",
        "ok",
        "",
    ]


def test_golden(result: AuditResult, tmp_path: Path, update_golden: bool) -> None:
    write_reports(build_view(result), tmp_path)
    for name in ("verdicts.csv", "checklist.csv", "duplicates.csv"):
        check_golden(name, (tmp_path / name).read_bytes().decode("utf-8"), update_golden)


def test_formulas_after_any_delimiter_a_spreadsheet_may_split_on_are_guarded() -> None:
    from auditor.report.csv import _defuse

    cases = {
        "harmless;=1+1;x": "harmless;'=1+1;x",
        "a, -b": "a, '-b",
        "x|@SUM(1)": "x|'@SUM(1)",
        "a\t=b": "a\t'=b",
        "a;  +1": "a;  '+1",
        "\x1b[31mred": "'\x1b[31mred",
        "Deep learning - a review": "Deep learning - a review",
        "12-15": "12-15",
        "Doe, J; Roe, K": "Doe, J; Roe, K",
    }
    for raw, guarded in cases.items():
        assert _defuse(raw) == guarded, raw
    # every piece under every split starts safely
    for raw in cases:
        for sep in ",;\t|":
            for piece in _defuse(raw).split(sep):  # type: ignore[union-attr]
                assert piece.lstrip(" ")[:1] not in {"=", "+", "-", "@"}, (raw, sep, piece)


def test_hostile_cells_are_guarded_quoted_and_kept_whole() -> None:
    from auditor import tables

    update = {"type": "retraction", "date": "2020-01-30", "doi": "=10.1/x", "source": "x;@pub"}
    table = pa.table(
        {
            "text": [
                "=1+1",
                "+1",
                "-1",
                "@A1",
                "\tTabbed",
                "\rCR",
                "\nLF",
                '  =spaced "quoted"',
                "line one\nline two",
                "a\t\t=b",
                None,
                "",
            ],
            "authors": [
                ["=HYPERLINK(1)", "Doe, J."],
                ["-a;+b"],
                [],
                None,
                ['say "hi"'],
                ["x|@y"],
                None,
                None,
                None,
                None,
                None,
                ["ok"],
            ],
            "never_filled": pa.nulls(12, pa.string()),
            "updates": pa.array([[update], None, [], *[None] * 9], pa.list_(tables.UPDATE)),
        }
    )
    rows = list(csv.reader(io.StringIO(table_csv(table), newline="")))
    assert rows[0] == ["text", "authors", "never_filled", "updates"]
    assert [r[0] for r in rows[1:]] == [
        "'=1+1",
        "'+1",
        "'-1",
        "'@A1",
        "'\tTabbed",
        "'\rCR",
        "'\nLF",
        '  \'=spaced "quoted"',
        "line one\nline two",
        "a\t'\t'=b",
        "",
        "",
    ]
    assert [r[1] for r in rows[1:5]] == ["'=HYPERLINK(1); Doe, J.", "'-a;'+b", "", ""]
    assert [r[1] for r in rows[5:7]] == ['say "hi"', "x|'@y"]
    assert {r[2] for r in rows[1:]} == {""}
    assert rows[1][3] == "retraction 2020-01-30 doi:=10.1/x (x;'@pub)"
    assert [r[3] for r in rows[2:]] == [""] * 11


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(alphabet=" ,;\t|=+-@\r\nxé'\"\x00\x1f\x7f"))))
def test_a_whole_column_is_guarded_exactly_as_each_cell_alone(cells: list[str | None]) -> None:
    from auditor.report.csv import _defuse, _defuse_column

    column = pa.chunked_array([pa.array(cells[:3], pa.string()), pa.array(cells[3:], pa.string())])
    assert _defuse_column(column).to_pylist() == [_defuse(c) for c in cells]
    # Chunks that are slices of one buffer (a table read from Parquet, a CSV slice of a table).
    whole = pa.array(["=pad", *cells, "x, -pad"], pa.string())
    first = min(2, len(cells))
    sliced = pa.chunked_array([whole.slice(1, first), whole.slice(1 + first, len(cells) - first)])
    assert _defuse_column(sliced).to_pylist() == [_defuse(c) for c in cells]


@pytest.mark.parametrize(
    "cell",
    ["=1", " =1", "a,=1", "a, =1", "a;  +1", "a\t-1", "a|@x", "a\x00", "\t=1", "a,\rb", "x-y",
     "x =y", "pre-training", "a, b", "a,\x7f", "é, =1", "10.1000/x-1", "2026-01-01T00:00:00+00:00"],
)  # fmt: skip
def test_each_cell_that_may_start_a_formula_is_checked(cell: str) -> None:
    from auditor.report.csv import _defuse, _defuse_column

    column = pa.chunked_array([pa.array(["plain", cell, None, "plain too"], pa.string())])
    assert _defuse_column(column).to_pylist() == ["plain", _defuse(cell), None, "plain too"]


def test_a_table_written_in_slices_is_the_table_written_whole(
    result: AuditResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Slices of 4 rows over the 9-row sample: header once, every row once, in order, the same
    # bytes as flattening the whole table at once (lists joined, formulas defused alike).
    monkeypatch.setattr(csv_report, "_SLICE_ROWS", 4)
    rows = build_view(result).rows
    sink = io.BytesIO()
    csv_report._write_csv(rows, sink)
    assert sink.getvalue() == csv_report.csv_bytes(rows, bom=True)
    sink = io.BytesIO()
    csv_report._write_csv(rows.slice(0, 0), sink)
    assert sink.getvalue() == csv_report.csv_bytes(rows.slice(0, 0), bom=True)
