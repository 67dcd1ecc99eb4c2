"""Parsers against fixture bodies: right rows for good bodies, `RegisterError` for bad ones."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody, Reason, RegisterError
from auditor.registers.arxiv import arxiv_key, id_from_doi, parse_error_feed, parse_feed
from auditor.registers.crossref import parse_work, parse_work_list
from auditor.registers.doi import parse_doira, settle
from auditor.registers.handle import parse_handle
from auditor.registers.pubmed import parse_esummary

from .conftest import body, response


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


def test_arxiv_feed():
    asked = ["1707.08567", "astro-ph/0601001", "0808.05394"]
    rows = parse_feed(asked, response("arxiv_feed.xml"))
    new = rows["1707.08567"]
    assert new["title"] == "Proceedings of an Example Workshop"
    assert new["surnames"] == ["Immink", "With"] and new["year"] == 2017
    assert new["doi"] == "10.5555/example.proc"
    assert rows["astro-ph/0601001"]["year"] == 2006
    assert rows["0808.05394"]["status"] == "not_found"


def test_arxiv_entry_not_asked_is_wrong_echo():
    with pytest.raises(MalformedBody) as info:
        parse_feed(["1707.08567"], response("arxiv_feed.xml"))
    assert info.value.reason in {Reason.WRONG_ECHO, Reason.MALFORMED_BODY}


@pytest.mark.parametrize(
    "raw",
    [
        body("arxiv_feed.xml")[:400],  # truncated
        b"<html><body>Service unavailable</body></html>",
        b'<!DOCTYPE x [<!ENTITY a "aaaa">]><feed xmlns="http://www.w3.org/2005/Atom">&a;</feed>',
    ],
)
def test_arxiv_malformed_never_not_found(raw):
    with pytest.raises(MalformedBody):
        parse_feed(["1707.08567"], response(raw))


def test_arxiv_total_results_must_agree():
    raw = body("arxiv_feed.xml").replace(
        b"<opensearch:totalResults>2<", b"<opensearch:totalResults>3<"
    )
    with pytest.raises(MalformedBody):
        parse_feed(["1707.08567", "astro-ph/0601001"], response(raw))


def test_arxiv_error_entry():
    rows = parse_error_feed(["xyz"], response("arxiv_error_400.xml", status=400))
    assert rows["xyz"]["status"] == "not_found"
    with pytest.raises(MalformedBody):
        parse_error_feed(["xyz", "1707.08567"], response("arxiv_error_400.xml", status=400))
    with pytest.raises(MalformedBody):  # an error entry in a 200 answer
        parse_feed(["xyz"], response("arxiv_error_400.xml"))


def test_arxiv_ids():
    assert arxiv_key("http://arxiv.org/abs/1707.08567v3") == "1707.08567"
    assert arxiv_key("math.GT/0309136") == "math/0309136"
    assert id_from_doi("10.48550/arXiv.1706.03762") == "1706.03762"
    assert id_from_doi("10.1038/nature14539") is None


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


def test_handle():
    found = parse_handle("10.5555/exists", response("handle_found.json"))
    assert found["status"] == "not_covered" and found["register"] == "handle"
    absent = parse_handle("10.5555/absent", response("handle_absent.json", status=404))
    assert absent["status"] == "not_found"


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"<html>DOI Not Found</html>", 404),  # a 404 that is not the Handle JSON
        (b'{"responseCode":100,"handle":"10.5555/absent"}', 200),
        (b'{"responseCode":2}', 500),
        (b'{"responseCode":1,"handle":"10.5555/other"}', 200),
    ],
)
def test_handle_faults_are_never_absence(raw, status):
    with pytest.raises(RegisterError):
        parse_handle("10.5555/absent", response(raw, status=status))


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
