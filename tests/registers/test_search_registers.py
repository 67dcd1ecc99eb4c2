"""The title-search registers over real loopback traffic: candidates, "found nothing", failures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from auditor.emulator import Emulator, EmulatorConfig, start_emulator
from auditor.errors import Reason
from auditor.registers import registry
from auditor.registers.arxiv_search import ArxivSearchRegister
from auditor.registers.crossref_search import CrossrefSearchRegister, bibliographic
from auditor.registers.dblp import DblpRegister
from auditor.registers.interface import SearchRegister, TitleQuery
from auditor.registers.openalex_search import OpenalexSearchRegister
from auditor.registers.pubmed_search import PubmedSearchRegister, title_term
from auditor.registers.s2 import SemanticScholarRegister
from auditor.settings import Settings
from auditor.transport.net import open_net
from tests.emulator.search_corpus import TITLE, search_corpus
from tests.registers.test_emulator import InstantClock

ALL: list[type[SearchRegister]] = [
    CrossrefSearchRegister,
    OpenalexSearchRegister,
    DblpRegister,
    ArxivSearchRegister,
    SemanticScholarRegister,
    PubmedSearchRegister,
]
ATTENTION = TitleQuery(TITLE, "Vaswani", 2017)
NOTHING = TitleQuery("zzqx wvvy", None, None)


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = await start_emulator(search_corpus(), EmulatorConfig())
    yield emulator
    await emulator.close()


def settings(emu: Emulator, tmp_path: Path, **kw: object) -> Settings:
    base = {"cache_dir": str(tmp_path), "max_retries": 1, "timeout": 2.0, **emu.base_urls}
    return registry.settings(**{**base, **kw})  # type: ignore[arg-type]


async def ask(register: SearchRegister, s: Settings, *queries: TitleQuery) -> dict:
    clock = InstantClock()
    async with open_net(s, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        return await register.search(list(queries), net)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
async def test_top_candidate_is_the_work(cls: type[SearchRegister], emu: Emulator, tmp_path):
    answers = await ask(cls(), settings(emu, tmp_path), ATTENTION, NOTHING)
    best = answers[ATTENTION].candidates[0]
    assert answers[ATTENTION].reason is None
    assert best["status"] == "found" and best["register"] == cls.name
    assert best["title"].rstrip(".") == TITLE
    assert (
        best["surnames"][0] == "Vaswani"
        and best["year"] == 2017
        or cls.name
        in (
            "crossref_search",  # the test corpus' Crossref records carry another author and year
            "openalex_search",  # OpenAlex holds those Crossref records too
            "pubmed_search",
        )
    )
    # A title sharing no word with any work: the index's "found nothing", not a failure.
    assert answers[NOTHING].candidates == () and answers[NOTHING].reason is None


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
async def test_a_down_index_is_a_reason_never_an_empty_answer(
    cls: type[SearchRegister], emu: Emulator, tmp_path
):
    service = {
        "crossref_search": "crossref",
        "openalex_search": "openalex",
        "arxiv_search": "arxiv",
        "pubmed_search": "eutils",
    }
    emu.config = EmulatorConfig(down={service.get(cls.name, cls.name)})
    answers = await ask(cls(), settings(emu, tmp_path), ATTENTION)
    assert answers[ATTENTION].candidates == ()
    assert answers[ATTENTION].reason is Reason.HTTP_5XX


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.name)
async def test_a_malformed_body_is_a_failure_to_look(
    cls: type[SearchRegister], emu: Emulator, tmp_path
):
    emu.config = EmulatorConfig(fault_rate=1.0, fault_kinds=("malformed",))
    answers = await ask(cls(), settings(emu, tmp_path, max_retries=0), ATTENTION)
    assert answers[ATTENTION].reason is not None and answers[ATTENTION].candidates == ()


async def test_requests_carry_the_real_parameters(emu: Emulator, tmp_path) -> None:
    s = settings(emu, tmp_path, s2_api_key="k3y")
    for cls in ALL:
        await ask(cls(), s, ATTENTION)
    by = {e.endpoint: e for e in emu.log}
    assert by["crossref_search"].params["query.bibliographic"] == bibliographic(ATTENTION)
    assert bibliographic(ATTENTION) == f"{TITLE} Vaswani 2017"
    assert by["dblp_search"].params == {"q": TITLE, "format": "json", "h": "5"}
    assert by["arxiv_search"].params["search_query"] == f'ti:"{TITLE}"'
    assert by["s2_match"].headers["x-api-key"] == "k3y"
    assert by["openalex_search"].params == {"filter": f"title.search:{TITLE}", "per-page": "5"}
    assert by["esearch"].params["term"] == title_term(TITLE)
    assert title_term(TITLE) == "attention[ti] AND all[ti] AND you[ti] AND need[ti]"
    assert emu.counts["esummary"] == 1


async def test_each_query_is_one_request(emu: Emulator, tmp_path) -> None:
    queries = [ATTENTION, TitleQuery("Generative Adversarial Nets"), ATTENTION]
    await ask(DblpRegister(), settings(emu, tmp_path), *queries)
    assert emu.counts["dblp_search"] == 2
