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
    assert "NOT FOUND (no_index_match)" in out and "searched   openalex_search; dblp" in out
    assert "nearest    Highly accurate protein structure prediction with AlphaFold" in out


def test_offline_without_an_answer_is_unchecked(tmp_path: Path) -> None:
    code, out = _check(tmp_path, "--title", "A title nobody searched for")
    assert code == 3 and "UNCHECKED (offline)" in out


def test_record_needs_an_id(tmp_path: Path) -> None:
    code, _ = _check(tmp_path, "--title", "T", "--record", str(tmp_path / "r.json"))
    assert code == 2


def test_a_chinese_title_gets_the_verdict_an_audit_gives_it(tmp_path: Path) -> None:
    # `auditor check` runs the audit's stage order: the Chinese waterfall decides a Han title
    # before the title search, as it does for the same entry in a bibliography.
    title = "宫颈腺癌中ProEXC和PRMT5的表达及其临床意义"
    bib = tmp_path / "one.bib"
    bib.write_text(f"@article{{a, title={{{title}}}}}\n", encoding="utf-8")
    out = tmp_path / "out"
    common = ["--snapshot", str(SNAPSHOT), "--offline", "--cache-dir", str(tmp_path)]
    result = CliRunner().invoke(app, ["audit", str(bib), "--out", str(out), *common], env={})
    assert result.exit_code in (0, 1, 3), result.output
    row = json.loads((out / "report.json").read_text(encoding="utf-8"))["verdicts"][0]
    _, printed = _check(tmp_path, "--title", title, "--json")
    report = json.loads(printed)
    assert (report["verdict"], report["reason"]) == (row["verdict"], row["reason"])
    assert report["verdict"] == "NOT COVERED"  # the waterfall's, not the title search's
