"""PubMed esummary: found, not found, and answers that are failures to look."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody, Reason, RegisterError
from auditor.registers.pubmed import parse_esummary

from .conftest import body, response


def test_esummary_found_and_not_found():
    rows = parse_esummary(["11111111", "22222222"], response("esummary.json"))
    found, missing = rows["11111111"], rows["22222222"]
    assert found["status"] == "found" and found["year"] == 2019
    assert found["surnames"] == ["Peloso", "Lester", "Example"]
    assert found["doi"] == "10.5555/circ.118.002376" and found["language"] == "eng"
    assert missing["status"] == "not_found" and missing["reason"] == "not_found"


def test_esummary_missing_asked_id_or_extra_id_is_a_fault():
    with pytest.raises(MalformedBody):
        parse_esummary(["11111111", "22222222", "33333333"], response("esummary.json"))
    with pytest.raises(MalformedBody) as info:
        parse_esummary(["11111111"], response("esummary.json"))
    assert info.value.reason is Reason.WRONG_ECHO


def test_esummary_wrong_uid_echo():
    data = json.loads(body("esummary.json"))
    data["result"]["11111111"]["uid"] = "99999999"
    with pytest.raises(MalformedBody) as info:
        parse_esummary(["11111111", "22222222"], response(json.dumps(data).encode()))
    assert info.value.reason is Reason.WRONG_ECHO


def test_esummary_other_error_is_not_absence():
    data = json.loads(body("esummary.json"))
    data["result"]["22222222"]["error"] = "database temporarily unavailable"
    with pytest.raises(RegisterError):
        parse_esummary(["11111111", "22222222"], response(json.dumps(data).encode()))
