"""`audit` shows what the loader saw: in the console summary, `report.json` and the HTML, with
untrusted text (keys, paths) printed literally, never as terminal sequences or Rich markup."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from auditor.cli import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"

BIB = """@article{good,
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title = {Deep learning}, journal = nature, year = {2015}, doi = {10.1038/nature14539},
}

@article{broken\x1b]0;owned\x07[/red],
  title = {Unclosed
"""


def test_loader_problems_are_in_summary_json_and_html(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner(env={}).invoke(
        app,
        [
            "audit",
            str(bib),
            "--offline",
            "--snapshot",
            str(SAMPLES / "snapshot.parquet"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code in (0, 1), result.output
    assert "Loader" in result.output and "problem" in result.output
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f]", result.output)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    problems = report["run"]["load_problems"]
    assert problems and all(p["path"] == str(bib) for p in problems)
    assert {p["severity"] for p in problems} <= {"error", "warning"}
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "What the loader saw" in html
    assert problems[0]["message"].split("'")[0].strip()[:20] in html
