"""Tests of `auditor check` (one reference against a record file) and `auditor criteria`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.commands.check_steps import check_reference, record_from_json, reference_table
from auditor.settings import Settings

RECORD = {
    "register": "crossref",
    "title": "Attention Is All You Need",
    "surnames": ["Vaswani", "Shazeer", "Parmar"],
    "year": 2017,
    "retrieved_at": "2026-11-30T00:00:00Z",
}
BASE = ["check", "--id", "https://doi.org/10.5555/ATT", "--title", "Attention is all you need"]


def _invoke(tmp_path: Path, args: list[str], record: Any = RECORD) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, [*args, "--record", str(path)], env={})
    return result.exit_code, result.output


def test_match_prints_every_field(tmp_path: Path) -> None:
    args = [*BASE, "--author", "Vaswani, A.", "--author", "Noam Shazeer", "--year", "2017"]
    code, out = _invoke(tmp_path, args)
    assert code == 0, out
    assert "RESOLVES-AND-MATCHES" in out and "doi 10.5555/att" in out
    assert "title    yes (score 1.000)" in out and "year     yes" in out


def test_json_form_and_differs_exit_code(tmp_path: Path) -> None:
    code, out = _invoke(tmp_path, [*BASE, "--year", "2014", "--json"])
    assert code == 1
    report = json.loads(out)
    assert report["verdict"] == "RESOLVES-BUT-DIFFERS" and report["reason"] == "year_differs"
    assert report["criteria_id"] == "auditor/v2" and report["findings"] == ["year_differs"]
    assert [f["field"] for f in report["fields"]] == ["title", "authors", "year", "venue"]
    assert report["fields"][1]["match"] is None  # no claimed authors: not compared
    assert report["fields"][2] == {
        "field": "year",
        "claimed": 2014,
        "register": 2017,
        "match": False,
    }


def test_not_found_record(tmp_path: Path) -> None:
    code, out = _invoke(
        tmp_path, [*BASE, "--json"], {"register": "crossref", "status": "not_found"}
    )
    assert code == 1 and json.loads(out)["verdict"] == "DOES-NOT-RESOLVE"


def test_without_record_offline_resolves_from_snapshot_and_cache_only(tmp_path: Path) -> None:
    # Live resolution is tested over the emulator in test_check_live.py; here no socket opens.
    result = CliRunner().invoke(
        app, [*BASE, "--json", "--offline", "--cache-dir", str(tmp_path / "c")], env={}
    )
    assert result.exit_code == 3
    report = json.loads(result.output)
    assert (report["verdict"], report["reason"]) == ("UNCHECKED", "offline")


def test_type_contradiction_is_invalid(tmp_path: Path) -> None:
    code, out = _invoke(tmp_path, ["check", "--id", "12345", "--type", "doi", "--title", "T"])
    assert code == 1 and "INVALID (type_contradiction)" in out


@pytest.mark.parametrize(
    "record", [["not", "an", "object"], {"colour": "red"}, {"register": "crossref", "year": "x"}]
)
def test_bad_record_file_is_a_usage_error(tmp_path: Path, record: Any) -> None:
    code, out = _invoke(tmp_path, BASE, record)
    assert code == 2


def test_control_characters_are_escaped(tmp_path: Path) -> None:
    record = {**RECORD, "title": "Attention\x1b[31m is all you need"}
    code, out = _invoke(tmp_path, BASE, record)
    assert "\x1b" not in out and "\\x1b" in out


def test_surnames_derived_by_register_rule() -> None:
    refs = reference_table("31452104", None, "A title", ["Smith J", "Jones, K"], None)
    source = record_from_json(
        {"register": "pubmed", "title": "A title", "authors": ["Smith J", "Jones K"]}
    )
    report = check_reference(refs, Settings(), source)
    assert report["fields"][1]["register"] == ["Smith", "Jones"]
    assert report["id_type"] == "pmid"
    with pytest.raises(ValueError, match="family"):
        record_from_json({"register": "crossref", "authors": ["Ashish Vaswani"]})


def test_criteria_command_prints_the_document() -> None:
    result = CliRunner().invoke(app, ["criteria", "--id", "reference-resolution/v1"], env={})
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["criteria_id"] == "reference-resolution/v1"
    ids = {d["id"] for d in doc["decisions"]}
    for topic in (
        "empty_title",
        "register_without_authors",
        "register_without_year",
        "et_al",
        "corporate_authors",
        "particles",
        "hyphen_apostrophe",
        "initials",
        "cjk_author_names",
        "duplicate_surnames",
        "han_titles",
    ):
        assert topic in ids
    assert doc["known_issues"] and doc["unicode_version"]


def test_criteria_flag_names_the_criteria_of_the_verdict(tmp_path: Path) -> None:
    code, out = _invoke(tmp_path, [*BASE, "--json"])
    assert json.loads(out)["criteria_id"] == "auditor/v2"
    code, out = _invoke(tmp_path, [*BASE, "--json", "--criteria", "reference-resolution/v1"])
    assert json.loads(out)["criteria_id"] == "reference-resolution/v1"
    code, out = _invoke(tmp_path, [*BASE, "--criteria", "nope/v9"])
    assert code == 2 and "unknown criteria" in out


def test_criteria_command_default_and_unknown_id() -> None:
    result = CliRunner().invoke(app, ["criteria"], env={})
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["criteria_id"] == "auditor/v2"
    assert {"rules", "decisions", "known_issues"} <= set(doc)
    result = CliRunner().invoke(app, ["criteria", "--id", "nope"], env={})
    assert result.exit_code == 2


def test_one_year_off_differs_under_v1_only(tmp_path: Path) -> None:
    code, out = _invoke(tmp_path, [*BASE, "--year", "2016", "--json"])
    assert code == 0 and json.loads(out)["verdict"] == "RESOLVES-AND-MATCHES"
    args = [*BASE, "--year", "2016", "--json", "--criteria", "reference-resolution/v1"]
    code, out = _invoke(tmp_path, args)
    assert code == 1 and json.loads(out)["reason"] == "year_differs"


def test_the_venue_is_compared_under_v2(tmp_path: Path) -> None:
    record = {**RECORD, "container_title": "Advances in Neural Information Processing Systems"}
    code, out = _invoke(tmp_path, [*BASE, "--venue", "NeurIPS", "--json"], record)
    assert code == 0 and json.loads(out)["fields"][3]["match"] is True
    code, out = _invoke(tmp_path, [*BASE, "--venue", "ICML", "--json"], record)
    report = json.loads(out)
    assert code == 1 and report["reason"] == "venue_differs"


@pytest.mark.parametrize(
    "body", [b"[" * 100_000 + b"]" * 100_000, b'{"title": "x", "year": 99999999999}', b"NaN"]
)
def test_a_hostile_record_file_is_exit_2_not_a_traceback(tmp_path: Path, body: bytes) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(body)
    args = ["check", "--title", "Deep learning", "--id", "10.1038/nature14539"]
    result = CliRunner().invoke(app, [*args, "--record", str(path)], env={})
    assert result.exit_code == 2, result.output
    assert "--record" in result.output


def test_a_retracted_record_is_a_finding_even_when_it_matches(tmp_path: Path) -> None:
    retraction = {
        "type": "retraction",
        "relation": "updated_by",
        "date": "2018-03-04",
        "doi": "10.5555/notice",
        "pmid": None,
        "source": "retraction-watch",
    }
    code, out = _invoke(tmp_path, [*BASE, "--year", "2017"], {**RECORD, "updates": [retraction]})
    assert code == 1, out
    assert "RESOLVES-AND-MATCHES" in out
    assert "update     retraction 2018-03-04 doi:10.5555/notice (retraction-watch)" in out
    correction = {**retraction, "type": "correction"}
    code, out = _invoke(
        tmp_path, [*BASE, "--year", "2017", "--json"], {**RECORD, "updates": [correction]}
    )
    assert code == 0, out
    assert json.loads(out)["updates"] == [correction]


ID_ONLY = ["check", "--id", "https://doi.org/10.5555/ATT"]


def test_id_alone_prints_the_record(tmp_path: Path) -> None:
    record = {**RECORD, "authors": ["Ashish Vaswani", "Noam Shazeer"], "container_title": "NIPS"}
    code, out = _invoke(tmp_path, ID_ONLY, record)
    assert code == 0, out
    assert "record     found" in out and "register   crossref (tier snapshot" in out
    assert "title      Attention Is All You Need" in out
    assert "authors    Ashish Vaswani; Noam Shazeer" in out and "venue      NIPS" in out
    assert "verdict" not in out  # nothing was claimed, so nothing was compared
    code, out = _invoke(tmp_path, [*ID_ONLY, "--json"], record)
    report = json.loads(out)
    assert (report["status"], report["identifier"], report["year"]) == (
        "found",
        "10.5555/att",
        2017,
    )


def test_id_alone_says_no_such_record_retracted_or_unchecked(tmp_path: Path) -> None:
    code, out = _invoke(tmp_path, ID_ONLY, {"register": "crossref", "status": "not_found"})
    assert code == 1 and "record     not_found" in out
    notice = {"type": "retraction", "relation": "updated_by", "date": "2018-03-04"}
    code, out = _invoke(tmp_path, ID_ONLY, {**RECORD, "updates": [notice]})
    assert code == 1 and "update     retraction 2018-03-04" in out
    offline = [*ID_ONLY, "--offline", "--cache-dir", str(tmp_path / "c")]
    result = CliRunner().invoke(app, offline, env={})
    assert result.exit_code == 3 and "record     unreachable (offline" in result.output


def test_neither_id_nor_title_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["check"], env={})
    assert result.exit_code == 2 and "give --id" in result.output
