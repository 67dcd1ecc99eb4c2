"""Resolve over real aiohttp traffic to the loopback register emulator (127.0.0.1 only).

Every register is pinned: a fault (5xx, reset, timeout, truncated, malformed, wrong echo,
unsafe redirect, a service down) ends as `unreachable` with a reason, never `not_found`.
Pacing uses an injected clock whose sleep only yields, so no test waits on a throttle.
"""

from __future__ import annotations

import asyncio

import pytest

from auditor.emulator import Corpus, EmulatorConfig, start_emulator
from auditor.registers import registry
from auditor.resolve import resolve
from auditor.settings import Settings
from auditor.tables import REFERENCES, from_rows
from auditor.transport.net import open_net


def _work(doi: str, title: str, family: str, year: int) -> dict:
    return {
        "DOI": doi,
        "title": [title],
        "author": [{"given": "A.", "family": family}],
        "issued": {"date-parts": [[year, 1]]},
        "container-title": ["Journal of Examples"],
        "type": "journal-article",
    }


CORPUS = {
    "crossref": {
        "10.5555/one": _work("10.5555/one", "First Example", "Lovelace", 2001),
        "10.5555/two": _work("10.5555/two", "Second Example", "Babbage", 2002),
        "10.5555/three": _work("10.5555/three", "Third Example", "Hopper", 2003),
    },
    "pubmed": {
        "1001": {
            "uid": "1001",
            "title": "Pub One.",
            "pubdate": "2010 Jan",
            "authors": [{"name": "Smith J", "authtype": "Author"}],
            "source": "J Ex",
        },
        "1002": {
            "uid": "1002",
            "title": "Pub Two.",
            "pubdate": "2011",
            "authors": [{"name": "Jones K", "authtype": "Author"}],
            "source": "J Ex",
        },
    },
    "arxiv": {
        "1706.03762": {
            "title": "Attention Example",
            "authors": ["Ann Vaswani"],
            "published": "2017-06-12T17:57:34Z",
            "updated": "2017-12-06T03:30:32Z",
            "summary": "s",
            "version": 7,
        },
        "2001.00001": {
            "title": "Another Preprint",
            "authors": ["Bo Li"],
            "published": "2020-01-01T00:00:00Z",
            "updated": "2020-01-01T00:00:00Z",
            "summary": "s",
            "version": 1,
        },
    },
    "agencies": {"10.5555": "Crossref", "10.5281": "DataCite", "10.3969": "ISTIC"},
    "handles": ["10.5281/zenodo.77", "10.3969/j.issn.1000-0001.2020.01.001"],
}

IDS = [
    ("doi", "10.5555/one"),
    ("doi", "10.5555/two"),
    ("doi", "10.5555/three"),
    ("doi", "10.5555/fabricated"),
    ("doi", "10.5281/zenodo.77"),
    ("doi", "10.3969/j.issn.1000-0001.2020.01.001"),
    ("pmid", "1001"),
    ("pmid", "1002"),
    ("pmid", "9999"),
    ("arxiv", "1706.03762"),
    ("arxiv", "2001.00001"),
    ("arxiv", "2001.99999"),
    ("doi", "10.48550/arxiv.2001.00001"),
]

EXPECTED = {
    "10.5555/one": ("found", None),
    "10.5555/two": ("found", None),
    "10.5555/three": ("found", None),
    "10.5555/fabricated": ("not_found", "not_found"),
    "10.5281/zenodo.77": ("not_covered", "registered_with_datacite"),
    "10.3969/j.issn.1000-0001.2020.01.001": ("not_covered", "registered_with_istic"),
    "1001": ("found", None),
    "1002": ("found", None),
    "9999": ("not_found", "not_found"),
    "1706.03762": ("found", None),
    "2001.00001": ("found", None),
    "2001.99999": ("not_found", "not_found"),
    "10.48550/arxiv.2001.00001": ("found", None),
}


def references(ids=IDS):
    rows = [
        {"row_id": i, "source_path": "t.bib", "id_type": t, "identifier": v}
        for i, (t, v) in enumerate(ids)
    ]
    return from_rows(rows, REFERENCES)


class InstantClock:
    """Monotonic time that jumps forward on sleep: pacing is checked without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


@pytest.fixture
async def emulator():
    emu = await start_emulator(Corpus.from_json(CORPUS), EmulatorConfig())
    yield emu
    await emu.close()


def settings_for(emu, tmp_path, **kw) -> Settings:
    values = {
        "cache_dir": str(tmp_path / "cache"),
        "mailto": "t@example.org",
        "max_retries": 3,
        "timeout": 2.0,
        **emu.base_urls,
    }
    values.update(kw)
    return registry.settings(**values)


async def run(emu, settings):
    clock = InstantClock()
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        table = await resolve(references(), settings, net)
    return {r["identifier"]: r for r in table.to_pylist()}, net


async def test_clean_run_verdict_inputs(emulator, tmp_path):
    rows, net = await run(emulator, settings_for(emulator, tmp_path))
    got = {k: (r["status"], r["reason"]) for k, r in rows.items()}
    assert got == EXPECTED
    assert rows["10.5555/one"]["surnames"] == ["Lovelace"] and rows["10.5555/one"]["year"] == 2001
    assert rows["10.5281/zenodo.77"]["agency"] == "DataCite"
    assert emulator.counts.get("esummary") == 1
    assert emulator.counts.get("arxiv_query") == 1
    assert emulator.count_429 == 0


async def test_warm_rerun_zero_requests(emulator, tmp_path):
    settings = settings_for(emulator, tmp_path)
    await run(emulator, settings)
    emulator.reset_counts()
    rows, _ = await run(emulator, settings)
    assert sum(emulator.counts.values()) == 0
    assert {r["tier"] for r in rows.values()} == {"cache"}


FAULTS = [
    "5xx",
    "reset",
    "truncated",
    "malformed",
    "wrong_echo",
    "redirect_http",
    "redirect_ip",
    "timeout",
    "429",
]


@pytest.mark.parametrize("kind", FAULTS)
@pytest.mark.parametrize("victim", ["10.5555/two", "1002", "2001.00001"])
async def test_a_fault_is_never_absence(emulator, tmp_path, kind, victim):
    emulator.config.faults = {victim: kind}
    # The victim stalls until the client gives up (its handler is cancelled then); the timeout
    # is 2.5 times the one that flaked when the machine was busy.
    emulator.config.hang_seconds = 60.0
    settings = settings_for(emulator, tmp_path, max_retries=1, timeout=0.5)
    rows, _ = await run(emulator, settings)
    for key, (status, reason) in EXPECTED.items():
        row = rows[key]
        if key == victim or (victim == "2001.00001" and key == "10.48550/arxiv.2001.00001"):
            assert row["status"] == "unreachable", (key, row)
            assert row["reason"]
            if kind.startswith("redirect"):
                assert row["reason"] == "unsafe_redirect", (key, row)
        else:
            assert (row["status"], row["reason"]) == (status, reason), (key, row)


@pytest.mark.parametrize("service", ["crossref", "eutils", "arxiv", "doi", "handle"])
async def test_a_service_down_leaves_others_untouched(emulator, tmp_path, service):
    emulator.config.down = {service}
    rows, _ = await run(emulator, settings_for(emulator, tmp_path, max_retries=1))
    for key, row in rows.items():
        status, reason = EXPECTED[key]
        assert row["status"] != "not_found" or (status, reason) == ("not_found", "not_found")
        if (status, reason) == (row["status"], row["reason"]):
            continue
        if service == "doi" and status == "not_covered":
            # doiRA down: Handle still says the DOI exists, the agency stays unknown.
            assert (row["status"], row["reason"]) == ("not_covered", "registered_with_other")
            continue
        assert row["status"] == "unreachable", (key, row)
        assert row["reason"] in {"http_5xx", "connection_error", "timeout"}, (key, row)


async def test_transient_faults_give_the_clean_answers(emulator, tmp_path):
    emulator.config.fault_rate = 0.3
    emulator.config.fault_kinds = ("5xx", "reset", "truncated")
    emulator.config.seed = 7
    rows, _ = await run(emulator, settings_for(emulator, tmp_path, max_retries=6))
    assert {k: (r["status"], r["reason"]) for k, r in rows.items()} == EXPECTED


@pytest.mark.parametrize("kind", ["5xx", "reset", "truncated", "malformed", "wrong_echo"])
async def test_doi_system_faults_never_condemn(emulator, tmp_path, kind):
    fabricated = "10.5555/fabricated"
    emulator.config.faults = {f"doi:{fabricated}": kind, f"handle:{fabricated}": kind}
    rows, _ = await run(emulator, settings_for(emulator, tmp_path, max_retries=1))
    assert rows[fabricated]["status"] == "unreachable", rows[fabricated]
    # doiRA alone failing: Handle still settles the DOI.
    emulator.config.faults = {f"doi:{fabricated}": kind}
    rows, _ = await run(emulator, settings_for(emulator, tmp_path / "again", max_retries=1))
    assert (rows[fabricated]["status"], rows[fabricated]["register"]) == ("not_found", "handle")
