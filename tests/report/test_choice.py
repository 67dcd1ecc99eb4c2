"""`--report`: the one registry of report writers, and the defaults sized to the run (#36)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import auditor.report.choice
from auditor.errors import ConfigError
from auditor.report import write_reports
from auditor.report.choice import (
    LARGE_DEFAULT,
    REPORTS,
    SMALL_DEFAULT,
    choose_reports,
    parse_reports,
)
from auditor.report.view import build_view
from auditor.result import AuditResult

#: What a run of at most `LISTED_ROWS` rows wrote before `--report` existed.
TODAY = {
    "verdicts.parquet",
    "checklist.parquet",
    "duplicates.parquet",
    "verdicts.csv",
    "checklist.csv",
    "duplicates.csv",
    "report.html",
    "report.json",
    "manifest.json",
}


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def _manifest(folder: Path) -> set[str]:
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return {entry["name"] for entry in data["files"]}


def test_names_repeat_or_come_as_a_comma_list_in_registry_order() -> None:
    assert parse_reports(["json", "csv,parquet", " html , csv"]) == (
        "parquet",
        "csv",
        "html",
        "json",
    )
    assert parse_reports([]) == ()
    assert parse_reports(["JUnit"]) == ("junit",)


def test_an_unknown_report_names_itself_and_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown report 'xlsx' \(choose from parquet, csv"):
        parse_reports(["csv,xlsx"])


def test_the_defaults_are_sized_to_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 10)
    small, large = choose_reports((), 10), choose_reports((), 11)
    assert (small.names, small.large, small.asked) == (SMALL_DEFAULT, False, False)
    assert (large.names, large.large, large.asked) == (LARGE_DEFAULT, True, False)
    assert "csv" not in LARGE_DEFAULT and set(SMALL_DEFAULT) == set(REPORTS) - {
        "junit",
        "submissions",
    }
    assert large.row_files() == ("verdicts.parquet", "checklist.parquet", "checklist.csv")
    assert large.ask_for_rest() == "parquet,csv,checklist,html,json"
    assert small.ask_for_rest() is None
    asked = choose_reports(["csv"], 11)
    assert (asked.names, asked.asked, asked.row_list()) == (("csv",), True, "verdicts.csv")
    assert choose_reports(["html"], 11).row_list() is None  # a summary page lists no rows


def test_a_small_run_writes_what_it_always_wrote(result: AuditResult, tmp_path: Path) -> None:
    assert result.duplicates.num_rows  # the fixture has groups, so every file is due
    write_reports(build_view(result), tmp_path)
    assert _files(tmp_path) == TODAY
    assert _manifest(tmp_path) == TODAY - {"manifest.json"}


def test_a_large_run_writes_no_verdicts_csv_and_a_summary(
    result: AuditResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 1)
    write_reports(build_view(result), tmp_path)
    written = {"verdicts.parquet", "duplicates.parquet", "checklist.parquet", "checklist.csv"}
    written |= {"report.html", "report.json"}
    assert _files(tmp_path) == written | {"manifest.json"}
    assert _manifest(tmp_path) == written
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["rows_listed"] is False
    assert data["rows_in"] == ["verdicts.parquet", "checklist.parquet", "checklist.csv"]
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert 'id="urgent-items"' in page and 'id="largest-groups"' in page
    assert "verdicts.csv, duplicates.csv (--report csv)" in page


def test_asked_reports_replace_the_defaults_and_a_rerun_drops_the_rest(
    result: AuditResult, tmp_path: Path
) -> None:
    write_reports(build_view(result), tmp_path)
    write_reports(build_view(result, ["json", "junit"], ["P0"]), tmp_path)
    # the earlier set's other files are gone: the folder holds one set, as its manifest says
    assert _files(tmp_path) == {"report.json", "junit.xml", "manifest.json"}
    assert _manifest(tmp_path) == {"report.json", "junit.xml"}
    assert (tmp_path / "junit.xml").read_bytes().startswith(b"<?xml")
    assert "verdicts" in json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))


def test_asking_for_csv_in_a_large_run_writes_it(
    result: AuditResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 1)
    write_reports(build_view(result, ["parquet,csv"]), tmp_path)
    assert _files(tmp_path) == {
        "verdicts.parquet",
        "duplicates.parquet",
        "verdicts.csv",
        "duplicates.csv",
        "manifest.json",
    }


def test_every_report_has_its_writers() -> None:
    from auditor.report.writers import _MAKERS, writers

    assert list(_MAKERS) == list(REPORTS)
    small = choose_reports(list(REPORTS), 1)
    assert [type(w).__name__ for w in writers(small, Path("."))] == [
        "ParquetReport",
        "CsvReport",
        "ParquetReport",
        "CsvReport",
        "HtmlReport",
        "JsonReport",
        "JunitReport",
        "SubmissionsReport",
    ]
