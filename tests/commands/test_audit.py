"""`auditor audit` on the terminal: counts on stderr, findings on stdout, `--quiet`, the cap."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.report.findings import SEVERITY

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"


@pytest.fixture
def sample(isolated: Path, tmp_path: Path) -> Path:
    shutil.copytree(SAMPLES, tmp_path, dirs_exist_ok=True)
    return tmp_path


def _audit(*args: str):
    return CliRunner().invoke(app, ["audit", "thesis.bib", "--offline", "--out", "out", *args])


def test_the_terminal_names_each_finding_with_file_and_line(sample: Path) -> None:
    result = _audit()
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    columns = [[c.strip() for c in line.split("  ") if c.strip()] for line in lines]
    assert ["thesis.bib:86", "zhang2021quantum", "DOES-NOT-RESOLVE"] in [c[:3] for c in columns]
    verdicts = pd.read_parquet(sample / "out" / "verdicts.parquet")
    wanted = verdicts[verdicts["verdict"].isin(list(SEVERITY))]
    # The retracted work matches in every field and is a finding all the same (its P0 item).
    retracted = verdicts[verdicts["key"] == "wakefield1998"]
    assert list(retracted["verdict"]) == ["RESOLVES-AND-MATCHES"]
    assert [c[:3] for c in columns] == [
        [f"thesis.bib:{line}", key, verdict]
        for line, key, verdict in sorted(
            [*zip(wanted["source_line"], wanted["key"], wanted["verdict"], strict=True)]
            + [(int(retracted["source_line"].iloc[0]), "wakefield1998", "RETRACTED")]
        )
    ]
    assert "retracted on 2010" in lines[[c[1] for c in columns].index("wakefield1998")]
    assert "Verdicts" in result.stderr and "Verdicts" not in result.stdout
    assert "\x1b[" not in result.stdout  # not a terminal: plain text


def test_max_findings_caps_the_list(sample: Path) -> None:
    result = _audit("--max-findings", "1")
    every = len(_audit().stdout.splitlines())
    first, rest = result.stdout.splitlines()
    assert first.split()[:3] == ["thesis.bib:29", "wakefield1998", "RETRACTED"]  # worst, then line
    assert rest == f"… {every - 1} more in out/report.html"


def test_quiet_prints_nothing_but_errors(sample: Path) -> None:
    assert _audit("--quiet").output == ""
    failed = CliRunner().invoke(app, ["audit", "absent.bib", "--offline", "--quiet"])
    assert failed.exit_code == 2 and "absent.bib" in failed.stderr and failed.stdout == ""


def test_unwritable_report_folder_is_an_error_not_a_traceback(sample: Path) -> None:
    (sample / "blocked").write_text("a file, not a folder", encoding="utf-8")
    result = CliRunner().invoke(app, ["audit", "thesis.bib", "--offline", "--out", "blocked"])
    assert result.exit_code == 2
    assert (
        "error:" in result.stderr
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )
