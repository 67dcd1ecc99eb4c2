"""`verdicts.parquet` read as a user would: pandas, every row once, in order, documented types."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from auditor import tables
from auditor.report import write_reports
from auditor.report.rows import REPORT_VERDICTS
from auditor.report.view import build_view
from auditor.result import AuditResult


def test_verdicts_parquet_with_pandas(result: AuditResult, tmp_path: Path) -> None:
    write_reports(build_view(result), tmp_path)
    frame = pd.read_parquet(tmp_path / "verdicts.parquet")
    assert list(frame["row_id"]) == list(range(9))
    assert list(frame["key"]) == result.references["key"].to_pylist()
    assert list(frame.columns) == REPORT_VERDICTS.names
    assert str(frame["year_claimed"].dtype) in {"Int32", "float64", "int32"}
    assert frame.loc[1, "title_score"] == 0.25
    assert list(frame.loc[0, "authors_claimed"]) == [
        "LeCun, Yann",
        "Bengio, Yoshua",
        "Hinton, Geoffrey",
    ]
    assert pq.read_schema(tmp_path / "verdicts.parquet").remove_metadata() == REPORT_VERDICTS


def test_checklist_and_duplicates_parquet(result: AuditResult, tmp_path: Path) -> None:
    write_reports(build_view(result), tmp_path)
    checklist = pq.read_table(tmp_path / "checklist.parquet")
    assert checklist.schema.remove_metadata() == tables.CHECKLIST
    assert checklist.num_rows == result.checklist.num_rows
    assert checklist["human_result"].null_count == checklist.num_rows
    assert pq.read_table(tmp_path / "duplicates.parquet").num_rows == 2


def test_no_duplicates_file_without_groups(result: AuditResult, tmp_path: Path) -> None:
    plain = AuditResult(**{**result.__dict__, "duplicates": tables.empty(tables.DUPLICATES)})
    written = write_reports(build_view(plain), tmp_path)
    assert not (tmp_path / "duplicates.parquet").exists()
    assert not (tmp_path / "duplicates.csv").exists()
    assert {p.name for p in written} == {
        "verdicts.parquet",
        "checklist.parquet",
        "verdicts.csv",
        "checklist.csv",
        "report.html",
        "report.json",
    }
