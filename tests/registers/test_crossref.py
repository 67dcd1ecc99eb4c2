"""Crossref: work and work-list bodies, echoes, and failures that are never absence."""

from __future__ import annotations

import pytest

from auditor.errors import MalformedBody, Reason
from auditor.registers.crossref import parse_work, parse_work_list

from .conftest import response


def test_crossref_work():
    row = parse_work("10.5555/example.one", response("crossref_work.json"))
    assert row["status"] == "found" and row["register"] == "crossref"
    assert row["title"] == "A Worked Example of Register Records"
    assert row["surnames"] == ["Lovelace", "Babbage", ""]
    assert row["authors"][2] == "The Analytical Engine Consortium"
    assert row["year"] == 1997
    assert row["container_title"] == "Journal of Examples"
    assert (row["volume"], row["issue"], row["pages"]) == ("15", "4", "509-515")
    assert row["doi"] == "10.5555/example.one" and row["agency"] == "Crossref"
    assert len(row["body_digest"]) == 64 and row["retrieved_at"].endswith("+00:00")


def test_crossref_wrong_echo_is_not_a_record():
    with pytest.raises(MalformedBody) as info:
        parse_work("10.5555/example.other", response("crossref_work.json"))
    assert info.value.reason is Reason.WRONG_ECHO


@pytest.mark.parametrize(
    "raw",
    [
        b"Resource not found.",
        b'{"status":"ok","message-type":"work-list","message":{}}',
        b'{"status":"failed","message-type":"validation-failure","message":[]}',
        b'{"status":"ok","message-type":"work","message":{"DOI":',
    ],
)
def test_crossref_malformed(raw):
    with pytest.raises(MalformedBody):
        parse_work("10.5555/example.one", response(raw))


def test_crossref_work_list_and_absent():
    asked = ["10.5555/example.one", "10.5555/example.two", "10.5555/example.three"]
    rows = parse_work_list(asked, response("crossref_work_list.json"))
    assert set(rows) == {"10.5555/example.one", "10.5555/example.two"}
    assert rows["10.5555/example.two"]["title"] is None
    assert rows["10.5555/example.two"]["year"] == 2019  # [[null]] falls through to created


def test_crossref_work_list_with_an_item_not_asked_is_refused():
    with pytest.raises(MalformedBody) as info:
        parse_work_list(["10.5555/example.one"], response("crossref_work_list.json"))
    assert info.value.reason is Reason.WRONG_ECHO
