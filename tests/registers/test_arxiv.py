"""arXiv Atom feeds: entries, echoes, error entries, ids."""

from __future__ import annotations

import pytest

from auditor.errors import MalformedBody, Reason
from auditor.registers.arxiv import arxiv_key, id_from_doi, parse_error_feed, parse_feed

from .conftest import body, response


def test_arxiv_feed():
    asked = ["1707.08567", "astro-ph/0601001", "0808.05394"]
    rows = parse_feed(asked, response("arxiv_feed.xml"))
    new = rows["1707.08567"]
    assert new["title"] == "Proceedings of an Example Workshop"
    assert new["surnames"] == ["Immink", "With"] and new["year"] == 2017
    assert new["doi"] == "10.5555/example.proc"
    assert rows["astro-ph/0601001"]["year"] == 2006
    assert rows["0808.05394"]["status"] == "not_found"


def test_arxiv_journal_ref_is_the_records_venue_evidence():
    rows = parse_feed(["1707.08567", "astro-ph/0601001"], response("arxiv_feed.xml"))
    # `<arxiv:journal_ref>` as the authors wrote it; none where the entry has none.
    assert rows["astro-ph/0601001"]["container_title"] == "Ex.Astron.56:1-50,2006"
    assert rows["1707.08567"]["container_title"] is None
    assert rows["1707.08567"]["work_type"] == "preprint"


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
