"""GROBID asked through the run's one `Net` (#35 item 7, #37 item 5): the registers' pace, retry,
body cap and redirect rules, against loopback fakes only (the emulator's GROBID, and scripted
aiohttp servers for the answers it does not give)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator
from auditor.grobid import GROBID, ask, ask_about_pdfs, with_grobid
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.settings import Settings
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net, open_net
from tests.load.documents.minipdf import column_pages, pdf_bytes

PDF = pdf_bytes(
    column_pages([(0, "References"), (0, "[1] A. Smith. A title the reader finds. X, 2020.")])
)

WORK = {
    "DOI": "10.5555/grobid.1",
    "type": "journal-article",
    "title": ["Reading references with a service"],
    "author": [{"given": "Ada", "family": "Lovelace", "sequence": "first"}],
    "published": {"date-parts": [[2021]]},
    "container-title": ["Journal of Tests"],
}
REFERENCE = {
    "title": "Reading references with a service",
    "authors": [["Ada", "Lovelace"]],
    "year": 2021,
    "venue": "Journal of Tests",
    "volume": "3",
    "pages": "10-19",
    "doi": "10.5555/grobid.1",
    "raw": "A. Lovelace. Reading references with a service. Journal of Tests, 3:10-19, 2021.",
}


def _corpus() -> Corpus:
    return Corpus(
        crossref={WORK["DOI"]: WORK}, agencies={"10.5555": "Crossref"}, grobid=[REFERENCE]
    )


def _settings(tmp_path: Path, grobid_url: str, **changes: Any) -> Settings:
    values = {"cache_dir": str(tmp_path / "cache"), "max_retries": 2, **changes}
    return registry.settings(grobid_url=grobid_url, **values)


async def _no_wait(seconds: float) -> None:
    """Retry waits cost no time in a test."""


def _net(settings: Settings) -> Any:
    return open_net(settings, with_grobid(settings, registry.hosts()), sleep=_no_wait)


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    running = await start_emulator(_corpus())
    yield running
    await running.close()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Handler], Awaitable[str]]]:
    """`await serve(handler)` → the base URL of a loopback server answering every path."""
    servers: list[TestServer] = []

    async def start(handler: Handler) -> str:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", handler)
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        servers.append(server)
        return str(server.make_url("")).rstrip("/")

    yield start
    for server in servers:
        await server.close()


async def test_a_pdf_is_asked_through_the_net_and_its_tei_read(
    emu: Emulator, tmp_path: Path
) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(PDF)
    settings = _settings(tmp_path, f"{emu.origin}/grobid")
    async with _net(settings) as net:
        answers = await ask_about_pdfs([str(pdf), str(pdf)], None, net)
        assert net.requests == {GROBID: 1}  # one PDF, asked once
        throttle = net.throttles[GROBID]  # its own pace, as each register has
        assert (throttle.concurrency, throttle.rate, len(throttle.starts)) == (2, 4.0, 1)
    [answer] = answers.values()
    assert answer.failure is None and b'<biblStruct xml:id="b0">' in (answer.tei or b"")
    [seen] = emu.log
    assert seen.endpoint == "grobid_references" and seen.method == "POST"
    assert seen.params["includeRawCitations"] == "1" and "input" in seen.params
    assert seen.headers["Content-Type"].startswith("multipart/form-data; boundary=")


async def test_an_audit_reads_the_pdf_with_grobid_and_resolves_its_references(
    emu: Emulator, tmp_path: Path
) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(PDF)
    settings = _settings(tmp_path, f"{emu.origin}/grobid", **emu.base_urls)
    result = await run_audit([str(pdf)], settings)
    refs = result.references.to_pylist()
    assert [(r["key"], r["title"], r["doi"]) for r in refs] == [
        ("b0", "Reading references with a service", "10.5555/grobid.1")
    ]
    assert not result.run.load_problems
    assert result.verdicts.column("verdict").to_pylist() == ["RESOLVES-AND-MATCHES"]
    assert emu.counts["grobid_references"] == 1


async def test_grobids_answer_is_never_cached(emu: Emulator, tmp_path: Path) -> None:
    # The cache holds register records only: a document's own references stay out of it.
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(PDF)
    settings = _settings(tmp_path, f"{emu.origin}/grobid", **emu.base_urls)
    for _ in range(2):
        await run_audit([str(pdf)], settings)
    assert emu.counts["grobid_references"] == 2
    cache = RecordCache.open(settings.cache_dir, ttl_days=1)
    try:
        stored = cache.stats().by_register
        assert stored.get("crossref") == 1 and GROBID not in stored
    finally:
        cache.close()


@pytest.mark.parametrize(
    ("config", "said"),
    [
        (EmulatorConfig(down={"grobid"}), "GROBID could not be asked (http_5xx)"),
        (
            EmulatorConfig(faults={"grobid:document": "malformed"}),
            "GROBID answered no well-formed TEI",
        ),
        (EmulatorConfig(faults={"grobid:document": "redirect_ip"}), "(unsafe_redirect)"),
    ],
)
async def test_a_grobid_that_cannot_help_leaves_the_pdf_to_the_built_in_reader(
    emu: Emulator, tmp_path: Path, config: EmulatorConfig, said: str
) -> None:
    emu.config = config
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(PDF)
    settings = _settings(tmp_path, f"{emu.origin}/grobid", offline=False, **emu.base_urls)
    async with _net(settings) as net:
        result = await run_audit([str(pdf)], settings, net=net)
    assert result.references.column("source_label").to_pylist() == ["1"]  # the built-in reader
    [problem] = result.run.load_problems
    assert said in problem.message and problem.severity == "warning"
    assert problem.message.endswith(": read with the built-in reader instead")
    assert emu.origin not in problem.message  # the operator's address is not the user's to see


async def test_no_reference_found_is_a_warning_and_the_built_in_reader_reads(
    emu: Emulator, tmp_path: Path
) -> None:
    emu.corpus.grobid = []  # GROBID's own 204: processed, no reference found
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(PDF)
    result = await run_audit([str(pdf)], _settings(tmp_path, f"{emu.origin}/grobid"))
    assert result.references.column("source_label").to_pylist() == ["1"]
    assert [p.message for p in result.run.load_problems] == [
        "GROBID found no references: read with the built-in reader instead"
    ]


async def test_a_busy_grobid_is_asked_again_as_a_register_is(
    serve: Callable[[Handler], Awaitable[str]], tmp_path: Path
) -> None:
    statuses = [503, 200]

    async def busy_then_ready(request: web.Request) -> web.Response:
        # GROBID's documented 503: all its threads are in use, send again after a wait
        status = statuses.pop(0)
        body = b"" if status == 503 else _tei()
        return web.Response(status=status, body=body, content_type="application/xml")

    url = await serve(busy_then_ready)
    async with _net(_settings(tmp_path, url)) as net:
        answer = await ask(net, PDF)
        assert net.requests == {GROBID: 2}
    assert answer.failure is None and answer.tei == _tei()


async def test_a_redirect_away_from_grobid_is_refused_and_never_followed(
    serve: Callable[[Handler], Awaitable[str]], tmp_path: Path
) -> None:
    reached: list[str] = []

    async def inside(request: web.Request) -> web.Response:
        reached.append(request.path)  # an address of the operator's network GROBID is not
        return web.Response(body=_tei(), content_type="application/xml")

    target = await serve(inside)

    async def elsewhere(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"{target}/latest/meta-data/")

    url = await serve(elsewhere)
    async with _net(_settings(tmp_path, url)) as net:
        answer = await ask(net, PDF)
    assert answer.tei is None and answer.failure == "GROBID could not be asked (unsafe_redirect)"
    assert reached == []


async def test_a_slow_grobid_times_out_within_the_attempt_limit(
    serve: Callable[[Handler], Awaitable[str]], tmp_path: Path
) -> None:
    release = asyncio.Event()

    async def stalls(request: web.Request) -> web.Response:
        await release.wait()
        return web.Response(body=_tei(), content_type="application/xml")

    url = await serve(stalls)
    try:
        async with _net(_settings(tmp_path, url, max_retries=1)) as net:
            answer = await ask(net, PDF, timeout=0.05)
            assert net.requests == {GROBID: 2}  # a timeout is retried, as a register's is
    finally:
        release.set()
    assert answer.failure == "GROBID could not be asked (timeout)"


async def test_an_answer_past_the_body_cap_is_refused(emu: Emulator, tmp_path: Path) -> None:
    emu.corpus.grobid = [REFERENCE] * 50
    settings = _settings(tmp_path, f"{emu.origin}/grobid", max_body_bytes=4096)
    async with _net(settings) as net:
        answer = await ask(net, PDF)
    assert answer.failure == "GROBID could not be asked (body_too_large)"


async def test_offline_asks_nothing(emu: Emulator, tmp_path: Path) -> None:
    settings = _settings(tmp_path, f"{emu.origin}/grobid", offline=True)
    async with _net(settings) as net:
        answer = await ask(net, PDF)
    assert answer.failure == "GROBID could not be asked (offline)"
    assert emu.counts["grobid_references"] == 0


async def test_a_net_without_grobid_says_so(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "http://127.0.0.1:9")
    async with open_net(settings, registry.hosts(), sleep=_no_wait) as net:
        assert isinstance(net, Net)
        answer = await ask(net, PDF)
    assert answer.failure == "GROBID is not among the hosts of this run"


def _tei() -> bytes:
    return (
        b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><div><listBibl>'
        b'<biblStruct xml:id="b0"><analytic><title level="a" type="main">T</title></analytic>'
        b"</biblStruct></listBibl></div></back></text></TEI>"
    )
