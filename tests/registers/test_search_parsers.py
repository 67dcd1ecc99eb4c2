"""Search-answer parsers on bodies in the indexes' real shapes (written here, not copied)."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody
from auditor.registers import arxiv_search, crossref_search, dblp, pubmed_search, s2
from auditor.transport.net import Response


def response(body: object, status: int = 200) -> Response:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Response(status, {}, raw, "http://127.0.0.1/x")


def dblp_body(*infos: dict) -> dict:
    hits: dict = {"@total": str(len(infos)), "@computed": str(len(infos)), "@sent": str(len(infos))}
    if infos:
        hits["hit"] = [{"@score": "9", "@id": str(i), "info": x} for i, x in enumerate(infos)]
    return {"result": {"query": "q", "status": {"@code": "200", "text": "OK"}, "hits": hits}}


def test_dblp_single_author_homonym_suffix_tex_title_and_trailing_period() -> None:
    info = {
        "authors": {"author": {"@pid": "1", "text": "Wei Wang 0001"}},
        "title": "Augmenting Online Algorithms with $\\varepsilon$-Accurate Predictions.",
        "venue": ["NeurIPS", "CoRR"],
        "year": "2022",
        "doi": "10.5555/X",
        "key": "conf/nips/W22",
    }
    (row,) = dblp.parse_search(response(dblp_body(info)))
    assert row["title"] == "Augmenting Online Algorithms with ε-Accurate Predictions"
    assert row["authors"] == ["Wei Wang"] and row["surnames"] == ["Wang"]
    assert row["container_title"] == "NeurIPS" and row["year"] == 2022
    assert (row["id_type"], row["identifier"], row["doi"]) == ("doi", "10.5555/x", "10.5555/x")


def test_dblp_no_hits_is_empty_and_another_shape_is_malformed() -> None:
    assert dblp.parse_search(response(dblp_body())) == []
    with pytest.raises(MalformedBody):
        dblp.parse_search(response({"result": {}}))
    with pytest.raises(MalformedBody):
        dblp.parse_search(response(b"<html>busy</html>"))


def test_s2_match_and_its_no_match_404() -> None:
    paper = {
        "paperId": "abc",
        "title": "A Title",
        "matchScore": 88.1,
        "authors": [{"authorId": "1", "name": "Ann Lee"}],
        "year": 2020,
        "venue": "",
        "externalIds": {"ArXiv": "2001.00001", "CorpusId": 5},
    }
    (row,) = s2.parse_match(response({"data": [paper]}))
    assert (row["id_type"], row["identifier"]) == ("arxiv", "2001.00001")
    assert row["container_title"] == "arXiv" and row["surnames"] == ["Lee"]
    assert s2.parse_match(response({"error": "Title match not found"}, 404)) == []
    with pytest.raises(MalformedBody):
        s2.parse_match(response({"message": "Internal"}, 404))


def test_crossref_work_list_items_are_work_rows() -> None:
    item = {
        "DOI": "10.5555/A",
        "title": ["T"],
        "author": [{"given": "A", "family": "B"}],
        "issued": {"date-parts": [[2001]]},
        "score": 50.2,
    }
    body = {"status": "ok", "message-type": "work-list", "message": {"items": [item]}}
    (row,) = crossref_search.parse_search(response(body))
    assert row["identifier"] == "10.5555/a" and row["register"] == "crossref_search"
    with pytest.raises(MalformedBody):
        crossref_search.parse_search(response({"status": "ok", "message-type": "work"}))


def test_arxiv_feed_entries_and_error_entry() -> None:
    feed = (
        b"<?xml version='1.0' encoding='UTF-8'?>"
        b'<feed xmlns="http://www.w3.org/2005/Atom" '
        b'xmlns:arxiv="http://arxiv.org/schemas/atom"><entry>'
        b"<id>http://arxiv.org/abs/1706.03762v7</id><title>Attention Is\n All You Need</title>"
        b"<published>2017-06-12T17:57:34Z</published>"
        b"<author><name>Ashish Vaswani</name></author></entry></feed>"
    )
    (row,) = arxiv_search.parse_search(response(feed))
    assert (row["identifier"], row["title"], row["year"]) == (
        "1706.03762",
        "Attention Is All You Need",
        2017,
    )
    bad = feed.replace(b"http://arxiv.org/abs/1706.03762v7", b"https://arxiv.org/api/errors#x")
    with pytest.raises(MalformedBody):
        arxiv_search.parse_search(response(bad))


def test_pubmed_esearch_ids_and_errors() -> None:
    ok = {"esearchresult": {"count": "1", "idlist": ["123"]}}
    assert pubmed_search.parse_esearch(response(ok)) == ["123"]
    with pytest.raises(MalformedBody):
        pubmed_search.parse_esearch(response({"esearchresult": {"ERROR": "bad"}}))
    assert pubmed_search.title_term("The Role of p53: a Review") == (
        "role[ti] AND p53[ti] AND review[ti]"
    )
