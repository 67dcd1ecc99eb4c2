"""End to end: a bibliography with a preprint + its journal version and one DOI under two keys
shows both duplicate groups in every report format of `auditor audit` (offline, snapshot)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from auditor import tables

FIXTURES = Path(__file__).parent / "fixtures"
PUBLISHED = "10.5555/3295222.3295349"


def _snapshot(path: Path) -> None:
    # The arXiv record names its published version: the only link between the two keys.
    record = {
        "register": "arxiv", "id_type": "arxiv", "identifier": "1706.03762", "status": "found",
        "retrieved_at": "2026-11-30T00:00:00Z", "tier": "snapshot",
        "title": "Attention Is All You Need", "authors": ["Ashish Vaswani", "Noam Shazeer"],
        "surnames": ["Vaswani", "Shazeer"], "year": 2017, "doi": PUBLISHED,
    }  # fmt: skip
    pq.write_table(tables.from_rows([record], tables.RECORDS), path)


def test_both_groups_in_every_report_format(tmp_path: Path) -> None:
    from auditor.cli import app

    _snapshot(tmp_path / "snap.parquet")
    out = tmp_path / "out"
    snap, cache = str(tmp_path / "snap.parquet"), str(tmp_path / "c")
    args = ["audit", str(FIXTURES / "duplicates.bib"), "--offline", "-q", "--out", str(out),
            "--snapshot", snap, "--cache-dir", cache]  # fmt: skip
    result = CliRunner(env={}).invoke(app, args)
    assert result.exit_code in (0, 1, 3), result.output

    expected = {
        (1, "vaswani2017preprint", "published_version"),
        (1, "vaswani2017nips", "published_version"),
        (2, "smith2020", "doi"),
        (2, "smith2020dup", "doi"),
        (2, "smith2020web", "url"),
    }
    parquet = pq.read_table(out / "duplicates.parquet").to_pylist()
    assert {(r["group_id"], r["key"], r["basis"]) for r in parquet} == expected
    with open(out / "duplicates.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {(int(r["group_id"]), r["key"], r["basis"]) for r in rows} == expected
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert {(r["group_id"], r["key"], r["basis"]) for r in report["duplicates"]} == expected
    verdicts = pq.read_table(out / "verdicts.parquet").to_pylist()
    assert {v["key"]: v["group_id"] for v in verdicts}["unrelated"] is None
    assert {v["key"]: v["group_id"] for v in verdicts}["vaswani2017nips"] == 1
    html = (out / "report.html").read_text("utf-8")
    assert "2 duplicate groups" in html and PUBLISHED in html and "smith2020dup" in html
