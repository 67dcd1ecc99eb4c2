"""CSV outputs: BOM, lists joined, formulas defused, golden files."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pyarrow as pa

from auditor.report import write_reports
from auditor.report.csv import table_csv
from auditor.result import AuditResult

from .golden import check_golden


def test_bom_and_parseable(result: AuditResult, tmp_path: Path) -> None:
    write_reports(result, tmp_path)
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
    write_reports(result, tmp_path)
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
