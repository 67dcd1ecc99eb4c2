"""`auditor audit --report`: the files written, the console's word on them, profiles, signing
(#36)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"


@pytest.fixture
def sample(isolated: Path, tmp_path: Path) -> Path:
    shutil.copytree(SAMPLES, tmp_path, dirs_exist_ok=True)
    return tmp_path


def _audit(*args: str):  # type: ignore[no-untyped-def]
    runner = CliRunner()
    return runner.invoke(app, ["audit", "thesis.bib", "--offline", "--out", "out", *args])


def _listed(out: Path) -> set[str]:
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return {entry["name"] for entry in data["files"]}


def test_repeated_and_comma_listed_reports_are_all_that_is_written(sample: Path) -> None:
    result = _audit("--report", "json,checklist", "--report", "junit")
    assert result.exit_code in (0, 1), result.output
    written = {"report.json", "checklist.parquet", "checklist.csv", "junit.xml"}
    assert {p.name for p in (sample / "out").iterdir()} == written | {"manifest.json"}
    assert _listed(sample / "out") == written
    assert "Reports in out (checklist.parquet, checklist.csv, report.json, junit.xml)" in (
        result.output
    )
    assert "ask with --report parquet,csv,checklist,html,json" in result.output


def test_an_unknown_report_is_refused_before_the_run(sample: Path) -> None:
    result = _audit("--report", "xlsx")
    assert result.exit_code == 2
    assert "unknown report 'xlsx'" in result.output
    assert not (sample / "out").exists()


def test_a_profile_and_the_environment_choose_reports(sample: Path) -> None:
    (sample / "lean.toml").write_text('[output]\nreport = ["parquet"]\n', encoding="utf-8")
    assert _audit("--pipeline", str(sample / "lean.toml")).exit_code in (0, 1)
    listed = _listed(sample / "out")
    assert "verdicts.parquet" in listed and listed <= {"verdicts.parquet", "duplicates.parquet"}
    assert not (sample / "out" / "report.html").exists()
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["audit", "thesis.bib", "--offline", "--out", "env"],
        env={"AUDITOR_REPORT": "html,csv"},
    )
    assert result.exit_code in (0, 1), result.output
    assert {"report.html", "verdicts.csv"} <= _listed(sample / "env")
    assert not (sample / "env" / "verdicts.parquet").exists()


def test_a_signed_set_without_report_json_signs_and_verifies(sample: Path) -> None:
    key = sample / "key.pem"
    result = _audit("--report", "parquet", "--sign", "--signing-key", str(key), "--quiet")
    assert result.exit_code in (0, 1), result.output
    manifest = json.loads((sample / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["signature"]["alg"] == "Ed25519"
    verified = CliRunner().invoke(
        app, ["verify", str(sample / "out")], env={"AUDITOR_SIGNING_KEY": str(key)}
    )
    assert verified.exit_code == 0, verified.output
