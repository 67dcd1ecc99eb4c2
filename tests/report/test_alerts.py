"""A retracted work reads as one wherever a verdict is shown (#27): the console's verdict table
and summary line, the GitHub annotation's title, the JUnit failure, the HTML badge.

The sample's `wakefield1998` matches its record field by field and was retracted in 2010.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bibs" / "thesis.bib"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, int]:
    tmp = tmp_path_factory.mktemp("alerts")
    args = [
        "audit",
        str(SAMPLE),
        "--offline",
        "--cache-dir",
        str(tmp / "cache"),
        "--out",
        str(tmp / "out"),
        "--output-format",
        "github",
        "--junit",
        str(tmp / "junit.xml"),
        "--fail-on",
        "P0",
    ]
    result = CliRunner().invoke(app, args, env={})
    return tmp, result.stdout, result.stderr, result.exit_code


def test_the_exit_code_fails_on_the_retraction(run: tuple[Path, str, str, int]) -> None:
    assert run[3] == 1, run[2]


def test_the_annotation_is_titled_retracted(run: tuple[Path, str, str, int]) -> None:
    [line] = [line for line in run[1].splitlines() if "wakefield1998" in line]
    assert (
        line.startswith("::error ") and "title=auditor%3A RETRACTED (RESOLVES-AND-MATCHES)" in line
    )
    assert "RETRACTED (the cited work was retracted" in line and "no reason" not in line


def test_the_junit_failure_says_retracted(run: tuple[Path, str, str, int]) -> None:
    xml = (run[0] / "junit.xml").read_text(encoding="utf-8")
    case = xml[xml.index('name="wakefield1998"') :]
    case = case[: case.index("</testcase>")]
    assert '<failure message="RETRACTED"' in case and "no reason" not in case


def test_the_summary_counts_it_apart_and_says_it(run: tuple[Path, str, str, int]) -> None:
    # `--output-format github` keeps the summary on stderr
    err = run[2]
    counts = dict(re.findall(r"^\s*([A-Z][A-Z -]+?)\s+│\s+(\d+)\s*$", err, re.M))
    assert counts["RETRACTED"] == "1"
    assert "retracted: 1 (the cited work was retracted, withdrawn or removed)" in err
    html = (run[0] / "out" / "report.html").read_text(encoding="utf-8")
    matches = re.search(r'data-verdict="RESOLVES-AND-MATCHES" data-count="(\d+)"', html)
    assert matches is not None
    # the table's plain matches leave the retracted one out; the HTML tiles keep the data counts
    assert int(counts["RESOLVES-AND-MATCHES"]) == int(matches.group(1)) - 1


def test_the_html_row_wears_a_retracted_badge(run: tuple[Path, str, str, int]) -> None:
    html = (run[0] / "out" / "report.html").read_text(encoding="utf-8")
    at = html.index("wakefield1998")
    row = html[html.rindex('<tr class="ref"', 0, at) : html.index("</tr>", at)]
    assert '<span class="badge alert"' in row and ">RETRACTED<" in row
    assert 'id="alert-counts"' in html and "RETRACTED 1" in html


def test_the_tables_carry_the_alert_in_their_own_column(run: tuple[Path, str, str, int]) -> None:
    import csv

    with (run[0] / "out" / "verdicts.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = {r["key"]: r for r in csv.DictReader(fh)}
    assert rows["wakefield1998"]["alert"] == "RETRACTED"
    assert rows["wakefield1998"]["verdict"] == "RESOLVES-AND-MATCHES"  # the fields' verdict kept
    assert {r["alert"] for k, r in rows.items() if k != "wakefield1998"} == {""}
