"""The search endpoints answer in the indexes' real shapes and always give their top hits."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import defusedxml.ElementTree as ET
import pytest

from auditor.emulator import Corpus, Emulator, start_emulator
from auditor.emulator.ranking import rank
from tests.emulator.search_corpus import TITLE, search_corpus

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def corpus() -> Corpus:
    """Three works, each in every index."""
    return search_corpus()


@pytest.fixture
async def emu(corpus: Corpus) -> AsyncIterator[Emulator]:
    emulator = await start_emulator(corpus)
    yield emulator
    await emulator.close()


async def get(url: str, params: dict[str, str]) -> tuple[int, Any]:
    """Status and JSON body of one GET."""
    async with aiohttp.ClientSession() as http, http.get(url, params=params) as resp:
        return resp.status, await resp.json()


def test_rank_orders_by_overlap_and_skips_strangers() -> None:
    entries = [{"text": "deep nets for cats"}, {"text": "cats"}, {"text": "dogs"}]
    assert [i for i, _ in rank(entries, "deep cats", 5)] == [0, 1]
    assert rank(entries, "the of and", 5) == []


async def test_crossref_bibliographic_search(emu: Emulator) -> None:
    params = {"query.bibliographic": "attention is all you need vaswani 2017", "rows": "2"}
    status, body = await get(f"{emu.base_urls['crossref_url']}/works", params)
    assert status == 200
    assert body["message-type"] == "work-list"
    items = body["message"]["items"]
    assert items[0]["DOI"] == "10.5555/attn" and items[0]["score"] > 0
    assert len(items) <= 2
    assert emu.counts["crossref_search"] == 1 and emu.counts["crossref_filter"] == 0


async def test_a_fabricated_title_still_gets_top_hits(emu: Emulator) -> None:
    params = {"q": "Generative Attention Networks for Nothing", "format": "json", "h": "3"}
    _, body = await get(f"{emu.base_urls['dblp_url']}/search/publ/api", params)
    hits = body["result"]["hits"]
    assert int(hits["@sent"]) >= 1 and hits["@total"].isdigit()
    assert {h["info"]["title"] for h in hits["hit"]} >= {"Generative Adversarial Nets."}


async def test_dblp_single_author_is_an_object_and_no_hits_has_no_hit_key(emu: Emulator) -> None:
    base = f"{emu.base_urls['dblp_url']}/search/publ/api"
    async with aiohttp.ClientSession() as http:
        params = {"q": "Generative Adversarial Nets", "format": "json", "h": "1"}
        async with http.get(base, params=params) as r:
            hit = (await r.json())["result"]["hits"]["hit"][0]
        async with http.get(base, params={"q": "zzzqqq", "format": "json"}) as r:
            empty = (await r.json())["result"]["hits"]
    assert hit["info"]["authors"]["author"] == {"@pid": "p/0", "text": "Ian Goodfellow"}
    assert "hit" not in empty and empty["@total"] == "0"


async def test_s2_match_answers_one_paper_or_404(emu: Emulator) -> None:
    base = f"{emu.base_urls['s2_url']}/graph/v1/paper/search/match"
    async with aiohttp.ClientSession() as http:
        params = {"query": "BERT pre-training", "fields": "title,authors,year,externalIds"}
        async with http.get(base, params=params) as r:
            data = (await r.json())["data"]
        async with http.get(base, params={"query": "zzzqqq"}) as r:
            assert r.status == 404
            assert await r.json() == {"error": "Title match not found"}
    assert len(data) == 1 and data[0]["year"] == 2019 and data[0]["matchScore"] > 0
    assert data[0]["externalIds"] == {"DOI": "10.5555/bert"} and "venue" not in data[0]


async def test_arxiv_title_search_is_an_atom_feed(emu: Emulator) -> None:
    params = {"search_query": f'ti:"{TITLE}"', "max_results": "2"}
    async with aiohttp.ClientSession() as http:
        url = f"{emu.base_urls['arxiv_url']}/api/query"
        async with http.get(url, params=params) as r:
            root = ET.fromstring(await r.text())
    entries = root.findall(f"{ATOM}entry")
    assert entries[0].findtext(f"{ATOM}title") == TITLE
    assert entries[0].findtext(f"{ATOM}id") == "http://arxiv.org/abs/1706.00762v2"
    assert emu.counts["arxiv_search"] == 1 and emu.counts["arxiv_query"] == 0


async def test_pubmed_title_esearch(emu: Emulator) -> None:
    params = {
        "db": "pubmed",
        "term": "generative[ti] AND adversarial[ti] AND nets[ti]",
        "retmode": "json",
    }
    _, body = await get(f"{emu.base_urls['eutils_url']}/esearch.fcgi", params)
    result = body["esearchresult"]
    assert result["idlist"][0] == "102" and result["count"].isdigit()
