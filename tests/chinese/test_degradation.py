"""A failure to look is never a verdict: malformed bodies and outages become UNCHECKED."""

from __future__ import annotations

from typing import Any

import pytest

from auditor import tables
from auditor.chinese.waterfall import run_waterfall
from tests.chinese.conftest import waterfall
from tests.chinese.helpers import JOURNAL, TA, TITLE, csl, pubmed_doc, refs, verdicts_for

D = "10.5555/cma.j.cn112137-20231008-00670"
CN = "10.13209/j.0479-8023.2020.001"


async def _run(registers, *rows: dict[str, Any], **settings: Any):
    references = refs(*rows)
    return await waterfall(
        registers.settings(**settings), references, verdicts_for(references), None
    )


def _assert_unchecked(result, reason: str | None = None) -> None:
    out = result.outcomes.to_pylist()[0]
    assert out["status"] == "unchecked", out
    assert out["contribution"] is None and out["priority"] is None
    assert result.verdicts["verdict"].to_pylist() == ["UNCHECKED"]
    assert result.items.num_rows == 0  # never an item that suggests absence
    if reason:
        assert out["reason_code"] == reason


@pytest.mark.parametrize(
    "body",
    [
        {},
        [],
        None,
        [{"DOI": "10.6666", "RA": "ISTIC"}],
        [{"DOI": "10.5555", "RA": False}],
        [{"DOI": "10.5555"}],
        [{"DOI": "10.5555", "RA": ""}],
        [{"DOI": "10.5555", "RA": "ISTIC"}, {"DOI": "10.5555", "RA": "ISTIC"}],
        [{"DOI": "10.5555", "RA": "IS\nTIC"}],
        "[" * 5000 + "]" * 5000,
        "<html>not json</html>",
    ],
)
async def test_doira_malformed_raises_unavailable(registers, body):
    registers.override("/doi/doiRA/10.5555", 200, body)
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": D}))


async def test_doira_http_404_means_no_agency(registers):
    registers.override("/doi/doiRA/10.5555", 404, "not found")
    result = await _run(registers, {"title": TITLE, "doi": D})
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_RA_UNRESOLVED"]


async def test_doira_5xx_is_unchecked(registers):
    registers.override("/doi/doiRA/10.5555", 503, "busy")
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": D}), "http_5xx")


@pytest.mark.parametrize(
    "body",
    [
        csl(D, title={"zh": TITLE}),
        csl(D, title=[42]),
        csl(D, title=[]),
        csl(D, author=42),
        csl(D, issued={"date-parts": [["２０２３"]]}),
        csl(D, issued={"date-parts": [[20231]]}),
        csl(D, DOI=""),
        csl(D, DOI="10.5555/another"),
        "<html>ISTIC landing page</html>",
        ["not", "an", "object"],
    ],
)
async def test_csl_malformed_raises_unavailable(registers, corpus, body):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = body
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": D}))


@pytest.mark.parametrize(
    "body",
    [csl(D, title=[TITLE]), csl(D, issued=None), csl(D, issued={"date-parts": [[None]]})],
)
async def test_csl_accepted_variants(registers, corpus, body):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = {k: v for k, v in body.items() if v is not None}
    result = await _run(registers, {"title": TITLE, "doi": D, "year": 1999})
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_TITLE_VERIFIED"]


@pytest.mark.parametrize(
    "body", [{"responseCode": 2}, {"responseCode": True}, {"responseCode": 100.0}, {}, "x"]
)
async def test_handle_unknown_codes_raise_unavailable(registers, corpus, body):
    corpus.agencies["10.13209"] = "CNKI"
    registers.override(f"/handle/api/handles/{CN}", 200, body)
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": CN}))


async def test_handle_wrong_echo_raises(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    registers.override(f"/handle/api/handles/{CN}", 200, {"responseCode": 1, "handle": "10.1/x"})
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": CN}), "wrong_echo")


async def test_handle_encodes_reserved_characters(registers, corpus):
    doi = "10.13209/a?b#c"
    corpus.agencies["10.13209"] = "CNKI"
    corpus.handles.add(doi)
    result = await _run(registers, {"title": TITLE, "doi": doi})
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_EXISTS_TITLE_UNVERIFIABLE"]
    assert any("a%3Fb%23c" in s for s in registers.seen)


COVER = f'"{TA}"[ta]'
VP = f'"{TA}"[ta] AND 103[vi] AND 3967[pg]'


def _cited() -> dict[str, Any]:
    return {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "3967"}


@pytest.mark.parametrize(
    "body",
    [
        {"esearchresult": {"count": 2, "idlist": ["1", "2"]}},
        {"esearchresult": {"count": "2", "idlist": ["1"]}},
        {"esearchresult": {"count": "2", "idlist": ["1", "1"]}},
        {"esearchresult": {"count": "1", "idlist": ["abc"]}},
        {"esearchresult": {"count": "1", "idlist": [1]}},
        {"esearchresult": {"ERROR": "Invalid query"}},
        {"header": {}},
    ],
)
async def test_esearch_inconsistent_raises(registers, corpus, body):
    corpus.esearch[COVER] = ["1"]
    registers.override("/eutils/esearch.fcgi", 200, body)
    _assert_unchecked(await _run(registers, _cited()))


@pytest.mark.parametrize(
    "doc",
    [
        {"uid": "99", "error": "x"},
        pubmed_doc("38129176"),
        pubmed_doc("38129175", pubdate="２０２３"),
        pubmed_doc("38129175", pubdate="Dec 2023"),
    ],
)
async def test_esummary_wrong_echo_or_bad_year_raises(registers, corpus, doc):
    corpus.esearch[COVER] = ["1"]
    corpus.esearch[VP] = ["38129175"]
    corpus.pubmed["38129175"] = doc
    _assert_unchecked(await _run(registers, _cited()))


async def test_esummary_uids_echo_must_name_the_pmid(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    corpus.esearch[VP] = ["38129175"]
    registers.override(
        "/eutils/esummary.fcgi",
        200,
        {"result": {"uids": ["1"], "38129175": pubmed_doc("38129175")}},
    )
    _assert_unchecked(await _run(registers, _cited()), "wrong_echo")


async def test_no_network_means_unchecked_offline(registers):
    references = refs({"title": TITLE, "doi": D})
    result = await run_waterfall(
        references,
        verdicts_for(references),
        tables.empty(tables.RECORDS),
        registers.settings(),
        None,
    )
    _assert_unchecked(result, "offline")


async def test_outage_touches_only_dependent_rows(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    registers.override("/doi/doiRA/10.13209,10.5555", 200, "garbage")
    corpus.esearch[COVER] = []
    result = await _run(
        registers, {"title": TITLE, "doi": D}, {"title": TITLE, "doi": CN}, _cited()
    )
    assert result.outcomes["status"].to_pylist() == ["unchecked", "unchecked", "skipped"]
    assert result.outcomes["reason_code"].to_pylist()[2] == "JOURNAL_NOT_INDEXED"


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (404, "<html>Not Found</html>"),  # a proxy's or CDN's page, not the Handle API's answer
        (404, {"responseCode": 1, "handle": CN}),
        (200, {"responseCode": 100, "handle": CN}),
    ],
)
async def test_cnki_handle_answer_without_the_handle_json_is_unchecked(
    registers, corpus, status, body
):
    # The DOI system's rule everywhere: only a 404 carrying responseCode 100 says "no such DOI".
    corpus.agencies["10.13209"] = "CNKI"
    registers.override(f"/handle/api/handles/{CN}", status, body)
    _assert_unchecked(await _run(registers, {"title": TITLE, "doi": CN}))
