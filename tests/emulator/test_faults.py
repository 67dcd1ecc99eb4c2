"""Faults per identifier and at a rate: each kind does what a real broken register does."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import defusedxml
import defusedxml.ElementTree as ET
import pytest

from auditor.emulator import Emulator, EmulatorConfig
from auditor.emulator.faults import UNSAFE_HOST, UNSAFE_IP
from tests.emulator.conftest import DOI, PMID


def work_url(emu: Emulator, doi: str = DOI) -> str:
    return f"{emu.base_urls['crossref_url']}/works/{doi}"


async def test_5xx_for_the_faulted_id_only(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.config.faults = {DOI: "5xx"}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 500
    async with http.get(work_url(emu, "10.1038/srep16696")) as resp:
        assert resp.status == 200
    assert emu.fault_counts["5xx"] == 1


async def test_a_faulted_id_sinks_its_whole_batch(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {"36723951": "5xx"}
    params = {"db": "pubmed", "retmode": "json", "id": f"{PMID},36723951"}
    url = f"{emu.base_urls['eutils_url']}/esummary.fcgi"
    async with http.get(url, params=params) as resp:
        assert resp.status == 500
    async with http.get(url, params={**params, "id": PMID}) as resp:
        assert resp.status == 200


async def test_service_scoped_fault_spares_other_services(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {f"crossref:{DOI}": "5xx"}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 500
    async with http.get(f"{emu.base_urls['handle_url']}/api/handles/{DOI}") as resp:
        assert resp.status == 200


async def test_timeout_stalls_past_the_client_deadline(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {DOI: "timeout"}
    emu.config.hang_seconds = 30.0
    with pytest.raises(asyncio.TimeoutError):
        async with http.get(work_url(emu), timeout=aiohttp.ClientTimeout(total=0.05)):
            pass


async def test_reset_cuts_the_connection(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.config.faults = {DOI: "reset"}
    with pytest.raises(aiohttp.ClientError):
        async with http.get(work_url(emu)) as resp:
            await resp.read()
    emu.config.faults = {}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 200


async def test_truncated_body_is_half_a_document(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {DOI: "truncated"}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 200
        raw = await resp.read()
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)
    assert raw.startswith(b'{"status":"ok"')


async def test_malformed_json_is_an_html_page(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.config.faults = {DOI: "malformed"}
    async with http.get(work_url(emu)) as resp:
        assert resp.content_type == "application/json"
        raw = await resp.read()
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)


async def test_malformed_atom_is_refused_by_defusedxml(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {"1707.08567": "malformed"}
    url = f"{emu.base_urls['arxiv_url']}/api/query"
    async with http.get(url, params={"id_list": "1707.08567v1"}) as resp:
        raw = await resp.read()
    with pytest.raises(defusedxml.DefusedXmlException):
        ET.fromstring(raw)


async def test_wrong_echo_names_another_record(emu: Emulator, http: aiohttp.ClientSession) -> None:
    emu.config.faults = {DOI: "wrong_echo", PMID: "wrong_echo", "1707.08567": "wrong_echo"}
    async with http.get(work_url(emu)) as resp:
        assert (await resp.json())["message"]["DOI"] != DOI
    params = {"db": "pubmed", "retmode": "json", "id": f"{PMID},36723951"}
    async with http.get(f"{emu.base_urls['eutils_url']}/esummary.fcgi", params=params) as resp:
        result = (await resp.json())["result"]
    assert result[PMID]["uid"] != PMID
    assert result["36723951"]["uid"] == "36723951"
    url = f"{emu.base_urls['arxiv_url']}/api/query"
    async with http.get(url, params={"id_list": "1707.08567"}) as resp:
        text = await resp.text()
    assert "http://arxiv.org/abs/1707.08567v1" not in text
    async with http.get(f"{emu.base_urls['doi_url']}/doiRA/{DOI}") as resp:
        assert (await resp.json())[0]["DOI"] != DOI


async def test_unsafe_redirects_point_off_loopback_trust(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {DOI: "redirect_http", "10.1038/srep16696": "redirect_ip"}
    async with http.get(work_url(emu), allow_redirects=False) as resp:
        assert resp.status == 302
        assert resp.headers["Location"].startswith(f"http://{UNSAFE_HOST}/crossref/works/")
    async with http.get(work_url(emu, "10.1038/srep16696"), allow_redirects=False) as resp:
        assert resp.headers["Location"].startswith(f"https://{UNSAFE_IP}:{emu.port}/")


async def test_injected_429_is_not_counted_as_rate_limiting(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {DOI: "429"}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 429
        assert resp.headers["Retry-After"] == "1"
    assert emu.count_429 == 0
    assert emu.fault_counts["429"] == 1


async def test_down_service_answers_503_and_others_work(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.down = {"crossref"}
    async with http.get(work_url(emu)) as resp:
        assert resp.status == 503
    async with http.get(f"{emu.base_urls['handle_url']}/api/handles/{DOI}") as resp:
        assert resp.status == 200


async def test_transient_faults_hit_at_the_rate_and_retries_succeed(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config = EmulatorConfig(fault_rate=0.3, fault_kinds=("5xx",), seed=7)
    statuses = []
    for _ in range(200):
        async with http.get(work_url(emu)) as resp:
            statuses.append(resp.status)
    failures = statuses.count(500)
    assert 30 < failures < 90  # 0.3 of 200 = 60, far from both bounds
    assert statuses.count(200) == 200 - failures
    # A retry loop always gets through eventually.
    for _ in range(20):
        async with http.get(work_url(emu)) as resp:
            if resp.status == 200:
                break
    else:
        pytest.fail("transient faults never cleared")


async def test_same_seed_same_faults(emu: Emulator, http: aiohttp.ClientSession) -> None:
    async def run(seed: int) -> list[int]:
        emu.config = EmulatorConfig(fault_rate=0.5, fault_kinds=("5xx",), seed=seed)
        out = []
        for _ in range(30):
            async with http.get(work_url(emu)) as resp:
                out.append(resp.status)
        return out

    first = await run(3)
    assert await run(4) != first
    assert await run(3) == first


def test_unknown_fault_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown fault kinds"):
        EmulatorConfig(faults={"x": "explode"})
    with pytest.raises(ValueError, match="unknown services"):
        EmulatorConfig(down={"scopus"})


async def test_cut_sends_half_the_promised_body_then_resets(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config.faults = {DOI: "cut"}
    with pytest.raises(aiohttp.ClientPayloadError):
        async with http.get(work_url(emu)) as resp:
            assert resp.status == 200
            await resp.read()
    assert emu.fault_counts["cut"] == 1
