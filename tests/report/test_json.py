"""`report.json`: criteria id, run metadata, rows in order, stable text, golden file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pyarrow as pa

from auditor import tables
from auditor.report import write_reports
from auditor.report.json import SCHEMA_VERSION, large_report_dict, report_text
from auditor.report.view import build_view
from auditor.result import AuditResult

from .golden import check_golden


def test_contents(result: AuditResult, tmp_path: Path) -> None:
    write_reports(build_view(result), tmp_path)
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["criteria_id"] == tables.CRITERIA_V1
    assert data["run"]["inputs"][0] == {
        "path": "thesis.bib",
        "sha256": "0" * 64,
        "format": "bibtex",
        "rows": 6,
    }
    assert data["run"]["base_urls"]["crossref"].startswith("http://127.0.0.1")
    assert [row["row_id"] for row in data["verdicts"]] == list(range(9))
    assert data["verdicts"][0]["retrieved_at"] == "2026-11-30T12:00:00+00:00"
    assert data["verdicts"][0]["tier"] == "snapshot"
    assert [i["priority"] for i in data["checklist"]][0] == "P0"
    assert data["totals"]["by_verdict"]["DOES-NOT-RESOLVE"] == 2
    assert len(data["duplicates"]) == 2
    assert {r["tier"] for r in data["records"]} == {"snapshot", "cache", "live"}


def test_nan_becomes_null(result: AuditResult) -> None:
    scores = result.verdicts["title_score"].to_pylist()
    scores[0] = math.nan
    column = result.verdicts.schema.get_field_index("title_score")
    verdicts = result.verdicts.set_column(
        column, tables.VERDICTS.field("title_score"), pa.array(scores, pa.float64())
    )
    text = report_text(build_view(AuditResult(**{**result.__dict__, "verdicts": verdicts})))
    assert "NaN" not in text
    assert json.loads(text)["verdicts"][0]["title_score"] is None


def test_stable_and_golden(result: AuditResult, update_golden: bool) -> None:
    text = report_text(build_view(result))
    assert text == report_text(build_view(result))
    check_golden("report.json", text, update_golden)


def test_names_as_written_with_their_parse_beside_them(result: AuditResult) -> None:
    rows = {r["key"]: r for r in json.loads(report_text(build_view(result)))["verdicts"]}
    assert rows["wrongtitle"]["authors_claimed"] == ["Vaswani, Ashish"]
    assert rows["wrongtitle"]["authors_parsed"] == [
        {"family": "Vaswani", "given": "Ashish", "particle": None, "suffix": "<i>Jr</i>"}
    ]
    assert rows["lecun2015"]["authors_parsed"] is None  # the source gave no structure


def test_large_report_dates_only_records_that_were_looked_up(result: AuditResult) -> None:
    # An offline run's placeholder record has no tier: it is as of nothing, so the large
    # report's as-of ranges name the tiers that answered and no `"None"` tier.
    blank = dict.fromkeys(tables.RECORDS.names)
    unasked = {**blank, "status": "unchecked", "retrieved_at": "2026-12-01T00:00:00+00:00"}
    records = pa.concat_tables(
        [result.records, pa.Table.from_pylist([unasked], schema=tables.RECORDS)]
    )
    view = build_view(AuditResult(**{**result.__dict__, "records": records}))
    as_of = large_report_dict(view)["records_as_of"]
    assert set(as_of) == {"snapshot", "cache", "live"}
