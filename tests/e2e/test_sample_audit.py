"""The README's first command: the bundled sample audits offline with real verdicts for its rows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from auditor.chinese.outcomes import Outcome, verdict_for
from auditor.cli import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"


@pytest.fixture
def clean_env(isolated: Path, tmp_path: Path) -> Path:
    """No AUDITOR_* or leg variables from the developer's shell; a private cache; cwd in tmp."""
    return tmp_path


def _audit(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", *args])
    return result.exit_code, result.output


def test_thesis_sample_offline_gives_the_expected_verdicts(clean_env: Path) -> None:
    bib = clean_env / "thesis.bib"
    shutil.copytree(SAMPLES, clean_env, dirs_exist_ok=True)
    code, output = _audit([str(bib), "--offline", "--out", "out", "--quiet"])
    assert code == 0, output
    verdicts = pd.read_parquet(clean_env / "out" / "verdicts.parquet")
    got = dict(zip(verdicts["key"], verdicts["verdict"], strict=True))
    assert got == {
        "lecun2015deep": "RESOLVES-AND-MATCHES",
        "sadasivan2012": "RESOLVES-AND-MATCHES",  # and corrected in 2012 (P3)
        "wakefield1998": "RESOLVES-AND-MATCHES",  # and retracted in 2010 (P0)
        "tosatto2014": "RESOLVES-BUT-DIFFERS",  # year 2013 claimed, 2015 registered
        "heeren2006tpi": "RESOLVES-BUT-DIFFERS",  # none of the claimed authors wrote it
        "vaswani2017attention": "RESOLVES-AND-MATCHES",
        "gould2006hotjupiters": "RESOLVES-AND-MATCHES",
        "dron2023apob": "RESOLVES-AND-MATCHES",
        "zhang2021quantum": "DOES-NOT-RESOLVE",  # fabricated DOI, condemned by the DOI system
        "willighagen2023shieldbugs": "RESOLVES-AND-MATCHES",  # DataCite dataset
        # The snapshot's ISTIC CSL row: the DOI leg's title check is MATCH (DOI_TITLE_VERIFIED).
        "chu2010targeted": "RESOLVES-AND-MATCHES",
        "who2020guidance": "RESOLVES-BUT-DIFFERS",
        "broken2019": "INVALID",
        "knuth1984texbook": "NOT COVERED",  # a book: a title search would prove nothing
        "he2016resnet": "RESOLVES-AND-MATCHES",  # no identifier: found by title in DBLP
        "okafor2022protein": "NOT FOUND",  # no identifier, and no index holds the work
    }
    rows = verdicts.set_index("key")
    # Decided offline from the snapshot's `istic` row, and the row says so.
    assert rows.loc["chu2010targeted", "reason"] == "DOI_TITLE_VERIFIED"
    assert got["chu2010targeted"] == verdict_for(Outcome.DOI_TITLE_VERIFIED)
    assert rows.loc["chu2010targeted", "tier"] == "snapshot"
    assert rows.loc["chu2010targeted", "retrieved_at"] == "2026-11-30T00:00:00+00:00"
    assert rows.loc["chu2010targeted", "title_register"] == "恶性肿瘤个体化治疗靶向药物的临床表现"
    assert rows.loc["tosatto2014", "year_match"] == False  # noqa: E712
    assert rows.loc["tosatto2014", "title_match"] == True  # noqa: E712
    assert rows.loc["heeren2006tpi", "authors_match"] == False  # noqa: E712
    assert rows.loc["broken2019", "reason"] == "parse_error"
    assert rows.loc["knuth1984texbook", "reason"] == "not_indexed_type"
    assert rows.loc["he2016resnet", "queried_by"] == "title"
    assert rows.loc["he2016resnet", "identifier"] == "10.1109/cvpr.2016.90"
    assert rows.loc["he2016resnet", "tier"] == "snapshot"
    assert list(rows.loc["okafor2022protein", "searched"]) == ["openalex_search", "dblp"]
    assert "AlphaFold" in rows.loc["okafor2022protein", "nearest"][0]
    items = pd.read_parquet(clean_env / "out" / "checklist.parquet").set_index("key")
    assert items.loc["okafor2022protein", "priority"] == "P1"
    assert (
        "no index holds this work (asked: openalex_search, dblp); nearest: Highly"
        in (items.loc["okafor2022protein", "text"])
    )
    assert "No index holds a work with this title either" in items.loc["zhang2021quantum", "text"]
    assert rows.loc["lecun2015deep", "queried_by"] == "id"
    assert list(verdicts["row_id"]) == list(range(len(verdicts)))
    # Same DOI under two keys is one duplicate group.
    assert rows.loc["lecun2015deep", "group_id"] == rows.loc["who2020guidance", "group_id"]
    report = json.loads((clean_env / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["criteria_id"] if "criteria_id" in report else report["run"]["criteria_id"]


def test_every_sample_row_appears_once_in_input_order(clean_env: Path) -> None:
    shutil.copytree(SAMPLES, clean_env, dirs_exist_ok=True)
    inputs = [str(clean_env / n) for n in ("thesis.bib", "screening.ris", "submissions.csv")]
    code, output = _audit([*inputs, "--offline", "--out", "out", "--quiet"])
    assert code == 0, output
    verdicts = pd.read_parquet(clean_env / "out" / "verdicts.parquet")
    assert list(verdicts["row_id"]) == list(range(len(verdicts)))
    per_file = verdicts.groupby("source_path", sort=False).size().to_dict()
    assert per_file == {inputs[0]: 16, inputs[1]: 6, inputs[2]: 7}
    # Every row with a snapshot record got a verdict; only a Chinese row may stay unchecked.
    unchecked = verdicts[verdicts["verdict"] == "UNCHECKED"]
    assert set(unchecked["key"]) <= {"wu2008beidou"}


def test_fail_on_policy_exits_1_and_annotates_the_right_lines(clean_env: Path) -> None:
    shutil.copytree(SAMPLES, clean_env, dirs_exist_ok=True)
    bib = clean_env / "thesis.bib"
    code, output = _audit(
        [
            str(bib),
            "--offline",
            "--out",
            "out",
            "--quiet",
            "--output-format",
            "github",
            "--fail-on",
            "DOES-NOT-RESOLVE,RESOLVES-BUT-DIFFERS",
        ]
    )
    assert code == 1, output
    lines = bib.read_text(encoding="utf-8").splitlines()
    start = {
        line.split("{", 1)[1].rstrip(","): n + 1
        for n, line in enumerate(lines)
        if line.startswith("@") and not line.startswith("@string")
    }
    errors = [line for line in output.splitlines() if line.startswith("::error")]
    for key in ("tosatto2014", "heeren2006tpi", "zhang2021quantum", "who2020guidance"):
        assert any(f"line={start[key]}," in e or f"line={start[key]}:" in e for e in errors), key


def test_the_sample_shows_a_retraction_and_a_correction(clean_env: Path) -> None:
    shutil.copytree(SAMPLES, clean_env, dirs_exist_ok=True)
    bib = clean_env / "thesis.bib"
    # Only P0 fails: the retracted paper matches on every field and still fails the run.
    code, output = _audit([str(bib), "--offline", "--out", "out", "--quiet", "--fail-on", "P0"])
    assert code == 1, output
    checklist = pd.read_parquet(clean_env / "out" / "checklist.parquet")
    items = {(k, r): p for k, r, p in checklist[["key", "reason_code", "priority"]].to_numpy()}
    assert items[("wakefield1998", "work_retracted")] == "P0"
    assert items[("sadasivan2012", "work_corrected")] == "P3"
    assert [k for (k, _), p in items.items() if p == "P0"] == ["wakefield1998"]
    report = json.loads((clean_env / "out" / "report.json").read_text(encoding="utf-8"))
    row = next(r for r in report["verdicts"] if r["key"] == "wakefield1998")
    assert row["verdict"] == "RESOLVES-AND-MATCHES"
    assert row["updates"] == [
        {
            "type": "retraction",
            "relation": "updated_by",
            "date": "2010-02-06",
            "doi": "10.1016/s0140-6736(10)60175-4",
            "pmid": None,
            "source": "publisher",
        }
    ]
    csv_text = (clean_env / "out" / "verdicts.csv").read_text(encoding="utf-8-sig")
    assert "retraction 2010-02-06 doi:10.1016/s0140-6736(10)60175-4 (publisher)" in csv_text
    html = (clean_env / "out" / "report.html").read_text(encoding="utf-8")
    assert "retraction 2010-02-06 doi:10.1016/s0140-6736(10)60175-4 (publisher)" in html


def test_thesis_sample_online_asks_no_register(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README promises the sample needs no network: online, with every register aimed at a
    closed loopback port, the run must still answer every row from the snapshot (a request
    would fail at once and leave its row UNCHECKED)."""
    from auditor.registers import registry

    for name in registry.hosts():
        monkeypatch.setenv(f"AUDITOR_{name.upper()}_URL", "http://127.0.0.1:9")
    shutil.copytree(SAMPLES, clean_env, dirs_exist_ok=True)
    code, output = _audit([str(clean_env / "thesis.bib"), "--out", "out", "--json"])
    assert code == 0, output
    verdicts = pd.read_parquet(clean_env / "out" / "verdicts.parquet")
    assert "UNCHECKED" not in set(verdicts["verdict"]), output
    search = json.loads(output)["search"]
    assert search and all(use["requests"] == 0 for use in search), search
