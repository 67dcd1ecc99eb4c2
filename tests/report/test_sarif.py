"""SARIF 2.1.0: the log validates against the checked-in OASIS schema; rules, levels, locations
and fingerprints say what the annotations say."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.report.annotations import github_annotations
from auditor.report.sarif import sarif_log
from auditor.result import AuditResult

SCHEMA = json.loads(
    (Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"


def _validate(log: dict[str, Any]) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def _results(log: dict[str, Any]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = log["runs"][0]["results"]
    return results


def _where(result: dict[str, Any]) -> tuple[str, int]:
    physical = result["locations"][0]["physicalLocation"]
    return physical["artifactLocation"]["uri"], physical["region"]["startLine"]


def test_the_log_validates_against_the_sarif_schema(result: AuditResult) -> None:
    log = sarif_log(result)
    _validate(log)
    assert _results(log)


def test_the_schema_check_can_fail(result: AuditResult) -> None:
    log = sarif_log(result)
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(AssertionError):
        _validate(log)


def test_every_result_has_its_rule_with_help(result: AuditResult) -> None:
    log = sarif_log(result)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids))
    for item in _results(log):
        assert ids[item["ruleIndex"]] == item["ruleId"]
    for rule in rules:
        assert rule["help"]["text"] and rule["shortDescription"]["text"]
        outcome, reason = rule["id"].split("/")
        assert outcome == rule["properties"]["outcome"].lower().replace(" ", "-")
        assert reason == (rule["properties"]["reason"] or "none")


def test_errors_are_the_failing_rows_the_annotations_name(result: AuditResult) -> None:
    for fail_on in ((), ("P0",)):
        errors = [_where(r) for r in _results(sarif_log(result, fail_on)) if r["level"] == "error"]
        annotated = [
            (line.split("file=")[1].split(",")[0], int(line.split("line=")[1].split(",")[0]))
            for line in github_annotations(result, fail_on).splitlines()
            if line.startswith("::error")
        ]
        assert errors == annotated and errors


def test_fingerprints_survive_moved_lines_and_tell_references_apart(result: AuditResult) -> None:
    before = sarif_log(result)
    verdicts = result.verdicts
    index = verdicts.schema.get_field_index("source_line")
    moved = pc.add(verdicts["source_line"], pa.scalar(5, verdicts.schema.field(index).type))
    shifted = dataclasses.replace(result, verdicts=verdicts.set_column(index, "source_line", moved))
    after = sarif_log(shifted)

    def prints(log: dict[str, Any]) -> list[str]:
        return [r["partialFingerprints"]["auditorReference/v1"] for r in _results(log)]

    assert prints(before) == prints(after)
    assert len(set(prints(before))) == len(prints(before))
    assert [_where(r)[1] + 5 for r in _results(before)] == [_where(r)[1] for r in _results(after)]


def test_control_characters_never_reach_the_log(result: AuditResult) -> None:
    verdicts = result.verdicts
    index = verdicts.schema.get_field_index("key")
    keys = pa.array([f"k\x1b]8;;evil\x07{i}" for i in range(verdicts.num_rows)], pa.string())
    hostile = dataclasses.replace(result, verdicts=verdicts.set_column(index, "key", keys))
    text = json.dumps(sarif_log(hostile))
    assert "\\u001b" not in text and "\\u0007" not in text
    assert "k]8;;evil" in text


def _with_column(result: AuditResult, name: str, values: list[Any]) -> AuditResult:
    verdicts = result.verdicts
    index = verdicts.schema.get_field_index(name)
    column = pa.array(values, verdicts.schema.field(index).type)
    return dataclasses.replace(result, verdicts=verdicts.set_column(index, name, column))


def test_a_rule_defaults_to_the_worst_level_of_its_results(result: AuditResult) -> None:
    log = sarif_log(result, ("P0",))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    order = ["error", "warning", "note"]
    for index, rule in enumerate(rules):
        levels = [r["level"] for r in _results(log) if r["ruleIndex"] == index]
        assert rule["defaultConfiguration"]["level"] == min(levels, key=order.index)


def test_identical_entries_are_two_alerts(result: AuditResult) -> None:
    n = result.verdicts.num_rows
    same = _with_column(result, "key", ["twin"] * n)
    same = _with_column(same, "identifier", ["10.1/twin"] * n)
    same = _with_column(same, "source_path", ["refs.bib"] * n)
    prints = [r["partialFingerprints"]["auditorReference/v1"] for r in _results(sarif_log(same))]
    assert len(prints) > 1 and len(set(prints)) == len(prints)


def test_a_path_with_a_space_is_a_percent_encoded_relative_uri(
    result: AuditResult, isolated: Path
) -> None:
    n = result.verdicts.num_rows
    spaced = _with_column(result, "source_path", [str(isolated / "my refs" / "a#b.bib")] * n)
    log = sarif_log(spaced)
    _validate(log)
    uris = {_where(r)[0] for r in _results(log)}
    assert uris == {"my%20refs/a%23b.bib"}
    base = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == isolated.resolve().as_uri() + "/"
    outside = _with_column(result, "source_path", ["/elsewhere/refs.bib"] * n)
    assert {_where(r)[0] for r in _results(sarif_log(outside))} == {"file:///elsewhere/refs.bib"}


@pytest.fixture
def sample(isolated: Path, tmp_path: Path) -> Path:
    shutil.copytree(SAMPLES, tmp_path, dirs_exist_ok=True)
    return tmp_path


def test_output_format_sarif_prints_a_valid_log_of_the_sample(sample: Path) -> None:
    run = CliRunner().invoke(
        app,
        ["audit", "thesis.bib", "--offline", "--out", "out", "--output-format", "sarif",
         "--fail-on", "DOES-NOT-RESOLVE"],
    )  # fmt: skip
    assert run.exit_code == 1, run.output
    log = json.loads(run.stdout)
    _validate(log)
    errors = [r for r in _results(log) if r["level"] == "error"]
    assert [r["ruleId"] for r in errors] == ["does-not-resolve/not_found"]
    uri, line = _where(errors[0])
    assert uri == "thesis.bib"
    bib = (sample / "thesis.bib").read_text(encoding="utf-8").splitlines()
    assert "zhang2021quantum" in bib[line - 1]
    # a retracted work that matches field by field is its own rule, a warning the policy let by
    retracted = [r for r in _results(log) if r["ruleId"] == "retracted/work_retracted"]
    assert [r["properties"]["key"] for r in retracted] == ["wakefield1998"]
    assert retracted[0]["level"] == "warning"
    assert retracted[0]["message"]["text"].startswith("wakefield1998:")


def test_sarif_and_json_cannot_share_stdout(sample: Path) -> None:
    run = CliRunner().invoke(
        app, ["audit", "thesis.bib", "--offline", "--output-format", "sarif", "--json"]
    )
    assert run.exit_code == 2
    assert "choose one" in run.output
