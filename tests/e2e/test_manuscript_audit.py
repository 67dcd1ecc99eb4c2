"""`auditor audit paper.tex`: the cited entries only; a cited key with no entry fails the run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from auditor.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "load" / "fixtures" / "manuscript"


def test_manuscript_audit_names_the_missing_key_and_fails(isolated: Path, tmp_path: Path) -> None:
    shutil.copytree(FIXTURES, tmp_path / "paper")
    result = CliRunner().invoke(
        app, ["audit", "paper/paper.tex", "--offline", "--out", "out", "--quiet"]
    )
    assert result.exit_code == 1, result.output  # the missing key is a finding
    verdicts = pd.read_csv(tmp_path / "out" / "verdicts.csv", encoding="utf-8-sig")
    assert len(verdicts) == 12  # eleven cited entries and the missing key
    assert "uncited2001" not in set(verdicts["key"])
    ghost = verdicts[verdicts["key"] == "ghost2024missing"].iloc[0]
    assert (ghost["verdict"], ghost["reason"]) == ("INVALID", "missing_entry")
    assert ghost["cited_at"] == "paper/paper.tex:9"
    first = verdicts.iloc[0]
    assert first["key"] == "lecun2015deep" and first["source_path"] == "paper/refs.bib"
    assert first["cited_at"] == "paper/paper.tex:5"
    checklist = pd.read_csv(tmp_path / "out" / "checklist.csv", encoding="utf-8-sig")
    item = checklist[checklist["key"] == "ghost2024missing"].iloc[0]
    assert item["priority"] == "P1" and "no bibliography holds" in item["text"]
