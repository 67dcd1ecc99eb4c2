"""GitLab code quality (`--output-format codequality`, #38 item 1): the SARIF findings as issues."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from auditor.cli import app
from auditor.report.code_quality import code_quality
from auditor.report.sarif import sarif_log
from auditor.result import AuditResult

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bibs"
#: The fields GitLab reads of an issue (its code quality documentation).
_REQUIRED = {"description", "check_name", "fingerprint", "severity", "location"}


def _check_shape(issues: list[dict[str, Any]]) -> None:
    for issue in issues:
        assert set(issue) >= _REQUIRED
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["path"], str) and issue["location"]["path"]
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert isinstance(issue["fingerprint"], str) and len(issue["fingerprint"]) == 64


def test_issues_are_the_sarif_results_with_their_fingerprints(result: AuditResult) -> None:
    issues = code_quality(result, ["DOES-NOT-RESOLVE"])
    _check_shape(issues)
    (run,) = sarif_log(result, ["DOES-NOT-RESOLVE"])["runs"]
    assert [i["check_name"] for i in issues] == [r["ruleId"] for r in run["results"]]
    assert len({i["fingerprint"] for i in issues}) == len(issues)


@pytest.fixture
def sample(isolated: Path, tmp_path: Path) -> Path:
    shutil.copytree(SAMPLES, tmp_path, dirs_exist_ok=True)
    (tmp_path / "my refs").mkdir()
    shutil.copy(tmp_path / "thesis.bib", tmp_path / "my refs" / "thesis.bib")
    return tmp_path


def test_the_sample_gives_a_major_issue_on_the_line_of_the_reference(sample: Path) -> None:
    run = CliRunner().invoke(
        app,
        ["audit", "my refs/thesis.bib", "--offline", "--out", "out", "--output-format",
         "codequality", "--fail-on", "DOES-NOT-RESOLVE"],
    )  # fmt: skip
    assert run.exit_code == 1, run.output
    issues = json.loads(run.stdout)
    _check_shape(issues)
    (major,) = [i for i in issues if i["severity"] == "major"]
    assert major["location"]["path"] == "my refs/thesis.bib"  # decoded, relative
    bib = (sample / "thesis.bib").read_text(encoding="utf-8").splitlines()
    assert "zhang2021quantum" in bib[major["location"]["lines"]["begin"] - 1]


def test_the_gitlab_template_writes_the_report_it_declares() -> None:
    job = yaml.safe_load((ROOT / "pipelines" / "gitlab-ci.yml").read_text(encoding="utf-8"))
    (name,) = job
    report = job[name]["artifacts"]["reports"]["codequality"]
    script = " ".join(job[name]["script"])
    assert "--output-format codequality" in script and f"> {report}" in script
