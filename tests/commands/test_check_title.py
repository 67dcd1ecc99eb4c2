"""`auditor check --title T` without `--id`: the title search, answered from the sample snapshot."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from auditor.cli import app

SNAPSHOT = Path(__file__).resolve().parents[2] / "sample_bibs" / "snapshot.parquet"


def _check(tmp_path: Path, *args: str) -> tuple[int, str]:
    common = ["--snapshot", str(SNAPSHOT), "--offline", "--cache-dir", str(tmp_path)]
    result = CliRunner().invoke(app, ["check", *args, *common], env={})
    return result.exit_code, result.output


def test_a_work_found_by_title_is_compared(tmp_path: Path) -> None:
    code, out = _check(
        tmp_path,
        *("--title", "Deep Residual Learning for Image Recognition", "--author", "He, Kaiming"),
        *("--year", "2016", "--venue", "CVPR", "--json"),
    )
    report = json.loads(out)
    assert code == 0, out
    assert report["verdict"] == "RESOLVES-AND-MATCHES" and report["queried_by"] == "title"
    assert report["identifier"] == "10.1109/cvpr.2016.90" and report["register"] == "dblp"
    assert report["record"]["title"] == "Deep Residual Learning for Image Recognition"


def test_no_index_holds_it_is_not_found_and_a_finding(tmp_path: Path) -> None:
    code, out = _check(
        tmp_path,
        *("--title", "Recursive Attention Graphs for Zero-Shot Protein Folding"),
        *("--author", "Okafor, Chidi", "--year", "2022", "--venue", "ICML"),
    )
    assert code == 1, out
    assert "NOT FOUND (no_index_match)" in out and "searched   dblp; s2; crossref_search" in out
    assert "nearest    Highly accurate protein structure prediction with AlphaFold" in out


def test_offline_without_an_answer_is_unchecked(tmp_path: Path) -> None:
    code, out = _check(tmp_path, "--title", "A title nobody searched for")
    assert code == 3 and "UNCHECKED (offline)" in out


def test_record_needs_an_id(tmp_path: Path) -> None:
    code, _ = _check(tmp_path, "--title", "T", "--record", str(tmp_path / "r.json"))
    assert code == 2
