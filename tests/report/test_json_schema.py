"""`report.json` validates against the shipped JSON Schema, which tracks the Arrow schemas."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import jsonschema
import pytest

from auditor import tables
from auditor.report.json import SCHEMA_VERSION, report_text
from auditor.report.rows import REPORT_VERDICTS
from auditor.report.view import build_view
from auditor.result import AuditResult


def _schema() -> dict[str, Any]:
    text = files("auditor.report").joinpath("report.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def test_report_validates(result: AuditResult) -> None:
    jsonschema.validate(json.loads(report_text(build_view(result))), _schema())


def test_schema_tracks_the_tables() -> None:
    props = _schema()["properties"]
    assert props["schema_version"]["const"] == SCHEMA_VERSION
    for name, schema in [
        ("verdicts", REPORT_VERDICTS),
        ("records", tables.RECORDS),
        ("checklist", tables.CHECKLIST),
        ("duplicates", tables.DUPLICATES),
    ]:
        # The verdict rows also carry `authors_parsed` (references.author_names), last.
        extra = ["authors_parsed"] if name == "verdicts" else []
        assert list(props[name]["items"]["properties"]) == [*schema.names, *extra], name


def test_a_wrong_report_is_refused(result: AuditResult) -> None:
    data = json.loads(report_text(build_view(result)))
    data["checklist"][0]["human_result"] = "confirmed by a machine"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _schema())
    data = json.loads(report_text(build_view(result)))
    data["verdicts"][0]["verdict"] = "PROBABLY FINE"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _schema())
