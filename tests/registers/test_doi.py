"""doiRA: one parser and one set of row checks for the resolve stage and the waterfall."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody, RegisterError
from auditor.registers import registry
from auditor.registers.doi import parse_doira, settle

from .conftest import response


def test_doira_and_settle():
    asked = [
        "10.5281/zenodo.1234",
        "10.3969/j.issn.1000-0001.2020.01.001",
        "10.99999/nothing",
        "10.5555/crossref.gone",
        "10.5555/unanswered",
    ]
    answered = parse_doira(asked, response("doira.json"))
    assert "10.5555/unanswered" not in answered
    datacite = settle("10.5281/zenodo.1234", answered["10.5281/zenodo.1234"], "d")
    assert datacite is not None and datacite["status"] == "not_covered"
    assert datacite["reason"] == "registered_with_datacite" and datacite["agency"] == "DataCite"
    istic = settle(asked[1], answered[asked[1]], "d")
    assert istic is not None and istic["reason"] == "registered_with_istic"
    gone = settle("10.99999/nothing", answered["10.99999/nothing"], "d")
    assert gone is not None and gone["status"] == "not_found"
    # RA Crossref although Crossref said 404: the Handle API must decide.
    assert settle("10.5555/crossref.gone", answered["10.5555/crossref.gone"], "d") is None


def test_doira_wrong_echo_and_shapes():
    with pytest.raises(MalformedBody):
        parse_doira(["10.5281/zenodo.1234"], response("doira.json"))
    with pytest.raises(MalformedBody):
        parse_doira(["10.1/x"], response(b'{"DOI":"10.1/x"}'))
    with pytest.raises(RegisterError):
        parse_doira(["10.1/x"], response(b"[]", status=503))


@pytest.mark.parametrize(
    "rows",
    [
        [{"DOI": "10.5555/x", "RA": False}],
        [{"DOI": "10.5555/x", "RA": ""}],
        [{"DOI": "10.5555/x", "RA": "IS\nTIC"}],
        [{"DOI": "10.5555/x", "RA": "ISTIC"}, {"DOI": "10.5555/x", "RA": "ISTIC"}],
        ["10.5555/x"],
    ],
)
def test_doira_rows_are_checked_the_same_for_every_caller(rows):
    with pytest.raises(MalformedBody):
        parse_doira(["10.5555/x"], response(json.dumps(rows).encode()))


def test_doira_row_without_ra_or_known_status_is_no_answer():
    rows = [{"DOI": "10.5555/x"}, {"DOI": "10.5555/y", "status": "DOI does not exist"}]
    answered = parse_doira(["10.5555/x", "10.5555/y"], response(json.dumps(rows).encode()))
    assert answered == {"10.5555/y": None}


async def test_agencies_by_prefix_404_is_no_agency_and_a_missing_row_a_failure(tmp_path):
    from auditor.registers.doi import DoiSystemRegister

    from .fakenet import Call, FakeNet, reply

    def doira(call: Call):
        asked = call.url.split("/doiRA/", 1)[1].split(",")
        if asked == ["10.4040"]:
            return reply(b"Not Found", 404)
        return reply([{"DOI": "10.5555", "RA": "ISTIC"}])  # leaves 10.6666 out

    settings = registry.settings(cache_dir=str(tmp_path), doira_batch_size=2)
    net = FakeNet(settings, doira)
    found = await DoiSystemRegister().agencies(["10.5555", "10.6666", "10.4040"], net)
    assert found["10.5555"] == "ISTIC"
    assert found["10.4040"] is None
    assert isinstance(found["10.6666"], MalformedBody)
    assert net.count("doi") == 2  # two batches of at most two prefixes
