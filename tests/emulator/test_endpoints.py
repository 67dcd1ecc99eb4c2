"""Every endpoint answers in the real wire shape, from the corpus."""

from __future__ import annotations

import json
from urllib.parse import quote

import aiohttp
import defusedxml.ElementTree as ET

from auditor.emulator import Emulator
from tests.emulator.conftest import COORD_TERM, DOI, ISTIC_DOI, PMID, TA

ATOM = "{http://www.w3.org/2005/Atom}"


async def test_base_urls_are_the_settings_fields_on_loopback(emu: Emulator) -> None:
    assert set(emu.base_urls) == {
        "crossref_url",
        "datacite_url",
        "eutils_url",
        "arxiv_url",
        "dblp_url",
        "s2_url",
        "openalex_url",
        "doi_url",
        "handle_url",
    }
    assert emu.base_urls["crossref_url"] == f"http://127.0.0.1:{emu.port}/crossref"


async def test_crossref_work_found_with_escaped_slashes_and_rate_headers(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    url = f"{emu.base_urls['crossref_url']}/works/{quote(DOI, safe='')}"
    async with http.get(url) as resp:
        raw = await resp.text()
        assert resp.status == 200
        assert resp.headers["X-Rate-Limit-Limit"] == "50"
        assert resp.headers["X-Rate-Limit-Interval"] == "1s"
    assert "10.1371\\/journal.pone.0033693" in raw
    body = json.loads(raw)
    assert body["status"] == "ok"
    assert body["message-type"] == "work"
    assert body["message"]["DOI"] == DOI


async def test_crossref_work_matches_case_insensitively_unescaped_path(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    async with http.get(f"{emu.base_urls['crossref_url']}/works/{DOI.upper()}") as resp:
        assert resp.status == 200


async def test_crossref_unknown_doi_is_plain_text_404(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    async with http.get(f"{emu.base_urls['crossref_url']}/works/10.1371/notarealdoi") as resp:
        assert resp.status == 404
        assert resp.content_type == "text/plain"
        assert await resp.text() == "Resource not found."
    assert emu.counts["crossref_work"] == 1


async def test_crossref_filter_lists_found_items_only(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    params = {"filter": f"doi:{DOI},doi:10.9999/absent,doi:10.1038/srep16696", "rows": "3"}
    async with http.get(f"{emu.base_urls['crossref_url']}/works", params=params) as resp:
        body = await resp.json()
    assert body["message-type"] == "work-list"
    assert [i["DOI"] for i in body["message"]["items"]] == [DOI, "10.1038/srep16696"]
    assert body["message"]["total-results"] == 2
    assert emu.counts["crossref_filter"] == 1


async def test_crossref_filter_rejects_other_filters_and_huge_rows(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    base = f"{emu.base_urls['crossref_url']}/works"
    async with http.get(base, params={"filter": "from-pub-date:2020"}) as resp:
        assert resp.status == 400
        assert (await resp.json())["message-type"] == "validation-failure"
    async with http.get(base, params={"filter": f"doi:{DOI}", "rows": "5000"}) as resp:
        assert resp.status == 400


async def test_esummary_get_found_and_missing(emu: Emulator, http: aiohttp.ClientSession) -> None:
    params = {"db": "pubmed", "retmode": "json", "id": f"{PMID},40482261"}
    async with http.get(f"{emu.base_urls['eutils_url']}/esummary.fcgi", params=params) as resp:
        body = await resp.json()
    result = body["result"]
    assert result["uids"] == [PMID, "40482261"]
    assert result[PMID]["title"] == "Rare variants in lipids."
    assert result["40482261"] == {"uid": "40482261", "error": "cannot get document summary"}
    assert body["header"]["type"] == "esummary"


async def test_esummary_post_form_body(emu: Emulator, http: aiohttp.ClientSession) -> None:
    form = {"db": "pubmed", "retmode": "json", "id": ",".join([PMID, "36723951"])}
    async with http.post(f"{emu.base_urls['eutils_url']}/esummary.fcgi", data=form) as resp:
        body = await resp.json()
    assert body["result"]["uids"] == [PMID, "36723951"]
    assert emu.log[-1].method == "POST"
    assert emu.counts["esummary"] == 1


async def test_esearch_coordinate_term_and_journal_coverage(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    url = f"{emu.base_urls['eutils_url']}/esearch.fcgi"
    async with http.get(url, params={"db": "pubmed", "retmode": "json", "term": COORD_TERM}) as r:
        hit = (await r.json())["esearchresult"]
    assert hit["count"] == "1"
    assert hit["idlist"] == ["18589007"]
    assert hit["querytranslation"] == COORD_TERM
    async with http.get(
        url, params={"db": "pubmed", "retmode": "json", "term": f'"{TA}"[ta]'}
    ) as r:
        coverage = (await r.json())["esearchresult"]
    assert coverage["count"] == "1"
    term = f'"{TA}"[ta] AND 88[vi] AND 9999[pg]'
    async with http.get(url, params={"db": "pubmed", "retmode": "json", "term": term}) as r:
        zero = (await r.json())["esearchresult"]
    assert zero["count"] == "0"
    assert zero["idlist"] == []
    assert zero["warninglist"]["outputmessages"] == ["No items found."]
    assert emu.counts["esearch"] == 3


async def test_arxiv_feed_drops_unknown_ids_and_keeps_versions(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    params = {"id_list": "1707.08567v1,0808.05394,astro-ph/0601001", "max_results": "5"}
    async with http.get(f"{emu.base_urls['arxiv_url']}/api/query", params=params) as resp:
        assert resp.status == 200
        assert resp.content_type == "application/atom+xml"
        root = ET.fromstring(await resp.read())
    entries = root.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}id") for e in entries] == [
        "http://arxiv.org/abs/1707.08567v1",
        "http://arxiv.org/abs/astro-ph/0601001v2",
    ]
    total = root.findtext("{http://a9.com/-/spec/opensearch/1.1/}totalResults")
    assert total == "2"
    assert entries[0].findtext(f"{ATOM}summary") == "The 10th Asia-Europe workshop <&> more."
    assert entries[1].findtext("{http://arxiv.org/schemas/atom}journal_ref") == (
        "ActaAstron.56:1-50,2006"
    )
    assert entries[1].findtext("{http://arxiv.org/schemas/atom}comment") == "50 pages"
    primary = entries[1].find("{http://arxiv.org/schemas/atom}primary_category")
    assert primary is not None and primary.get("term") == "astro-ph"


async def test_arxiv_version_beyond_latest_is_dropped_and_default_max_is_ten(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    async with http.get(
        f"{emu.base_urls['arxiv_url']}/api/query", params={"id_list": "1707.08567v3"}
    ) as resp:
        root = ET.fromstring(await resp.read())
    assert root.findall(f"{ATOM}entry") == []
    assert root.findtext("{http://a9.com/-/spec/opensearch/1.1/}itemsPerPage") == "10"


async def test_arxiv_malformed_id_is_400_with_error_entry(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    params = {"id_list": "1707.08567,abc"}
    async with http.get(f"{emu.base_urls['arxiv_url']}/api/query", params=params) as resp:
        assert resp.status == 400
        root = ET.fromstring(await resp.read())
    (entry,) = root.findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}id") == "https://arxiv.org/api/errors#incorrect_id_format_for_abc"
    assert entry.findtext(f"{ATOM}title") == "Error"


async def test_doira_rows_per_prefix_and_doi(emu: Emulator, http: aiohttp.ClientSession) -> None:
    names = ["10.3969", "10.99999", ISTIC_DOI, "10.3969/not-registered", "10.1038"]
    async with http.get(f"{emu.base_urls['doi_url']}/doiRA/{','.join(names)}") as resp:
        rows = await resp.json()
    assert rows == [
        {"DOI": "10.3969", "RA": "ISTIC"},
        {"DOI": "10.99999", "status": "DOI does not exist"},
        {"DOI": ISTIC_DOI, "RA": "ISTIC"},
        {"DOI": "10.3969/not-registered", "status": "DOI does not exist"},
        {"DOI": "10.1038", "RA": "Crossref"},
    ]


async def test_content_negotiation_redirects_to_csl_on_the_same_server(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    accept = {"Accept": "application/vnd.citationstyles.csl+json"}
    url = f"{emu.base_urls['doi_url']}/{ISTIC_DOI}"
    async with http.get(url, headers=accept, allow_redirects=False) as resp:
        assert resp.status == 302
        location = resp.headers["Location"]
        assert "Handle Redirect" in await resp.text()
    assert location == f"{emu.origin}/csl/{ISTIC_DOI}"
    async with http.get(location) as resp:
        assert resp.content_type == "application/vnd.citationstyles.csl+json"
        record = json.loads(await resp.text())
    assert record["title"] == "宫颈腺癌"
    assert (emu.counts["doi_csl"], emu.counts["csl"]) == (1, 1)


async def test_content_negotiation_of_crossref_doi_transforms_the_work(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    accept = {"Accept": "application/vnd.citationstyles.csl+json"}
    async with http.get(f"{emu.base_urls['doi_url']}/{DOI}", headers=accept) as resp:
        record = json.loads(await resp.text())
    assert record["title"] == "A study of slashes"
    assert record["type"] == "journal-article"


async def test_content_negotiation_unknown_doi_and_non_doi_are_html_errors(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    accept = {"Accept": "application/vnd.citationstyles.csl+json"}
    async with http.get(f"{emu.base_urls['doi_url']}/10.1126/foo", headers=accept) as resp:
        assert resp.status == 404
        assert resp.content_type == "text/html"
        assert "DOI Not Found" in await resp.text()
    async with http.get(f"{emu.base_urls['doi_url']}/foo", headers=accept) as resp:
        assert resp.status == 400
        assert "Not a DOI" in await resp.text()


async def test_handle_exists_and_absent(emu: Emulator, http: aiohttp.ClientSession) -> None:
    base = f"{emu.base_urls['handle_url']}/api/handles"
    async with http.get(f"{base}/10.5281/zenodo.8242099") as resp:
        found = await resp.json()
        assert resp.status == 200
    assert found["responseCode"] == 1
    assert found["values"][0]["type"] == "URL"
    async with http.get(f"{base}/{DOI}") as resp:
        crossref_doi = await resp.json()
    assert crossref_doi["responseCode"] == 1
    assert any(v["index"] == 700050 for v in crossref_doi["values"])
    async with http.get(f"{base}/10.1000/absent") as resp:
        assert resp.status == 404
        assert await resp.json() == {"responseCode": 100, "handle": "10.1000/absent"}
    assert emu.counts["handle"] == 3
    # doi.org answers the same API at /api/handles.
    async with http.get(f"{emu.base_urls['doi_url']}/api/handles/{DOI}") as resp:
        assert (await resp.json())["responseCode"] == 1
    assert emu.counts["handle"] == 4


async def test_corpus_edits_are_served_live(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.corpus.csl["10.3969/new"] = {"DOI": "10.3969/new", "title": "new"}
    async with http.get(f"{emu.base_urls['handle_url']}/api/handles/10.3969/new") as resp:
        assert (await resp.json())["responseCode"] == 1


async def test_esearch_answers_fielded_queries_from_the_documents(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.corpus.pubmed["18589007"].update(volume="88", pages="801-5")
    url = f"{emu.base_urls['eutils_url']}/esearch.fcgi"

    async def count(term: str) -> str:
        params = {"db": "pubmed", "retmode": "json", "term": term}
        async with http.get(url, params=params) as resp:
            return str((await resp.json())["esearchresult"]["count"])

    assert await count(f'"{TA}"[ta] AND 88[vi] AND 801[pg]') == "1"
    assert await count(f'"{TA.upper()}"[ta] AND 88[vi]') == "1"
    assert await count(f'"{TA}"[ta] AND 88[vi] AND 802[pg]') == "0"
    assert await count(f'"{TA}"[ta] AND peloso[1au]') == "1"
    assert await count("lipids[ti]") == "0"  # an unemulated tag matches nothing
    assert await count(f'"{TA}"[ta] OR 88[vi]') == "0"  # only AND is understood
