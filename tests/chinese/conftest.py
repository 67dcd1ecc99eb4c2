"""Loopback registers for the waterfall tests: doiRA, CSL content negotiation, Handle, E-utilities.

`ChineseRegisters` serves the real wire shapes on 127.0.0.1 from a small corpus, counts requests
per endpoint, and lets a test replace any answer (`override`) to script malformed bodies,
failures and redirects. `fetch` is the transport the waterfall would get from the run's `Net`.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pytest
from aiohttp import web

from auditor import tables
from auditor.chinese.waterfall import WaterfallResult, run_waterfall
from auditor.registers import registry
from auditor.settings import Settings
from auditor.transport.net import open_net


@dataclass
class Corpus:
    """What the loopback registers know."""

    agencies: dict[str, str] = field(default_factory=dict)  # prefix → RA
    csl: dict[str, dict[str, Any]] = field(default_factory=dict)  # DOI → CSL-JSON
    handles: set[str] = field(default_factory=set)  # DOIs in the Handle system
    esearch: dict[str, list[str]] = field(default_factory=dict)  # exact term → PMIDs
    pubmed: dict[str, dict[str, Any]] = field(default_factory=dict)  # PMID → esummary doc


@dataclass
class ChineseRegisters:
    """A running loopback server plus its request log."""

    corpus: Corpus
    base: str = ""
    cache_dir: str = ""
    counts: Counter[str] = field(default_factory=Counter)
    seen: list[str] = field(default_factory=list)
    overrides: dict[str, web.Response] = field(default_factory=dict)
    last_params: dict[str, dict[str, str]] = field(default_factory=dict)

    def override(self, path: str, status: int = 200, body: Any = None, **headers: str) -> None:
        """Answer `path` (exact, decoded) with `body` (JSON-encoded unless bytes/str)."""
        if isinstance(body, bytes | str):
            raw = body.encode() if isinstance(body, str) else body
        else:
            raw = json.dumps(body).encode()
        self.overrides[path] = (status, raw, headers)  # type: ignore[assignment]

    def settings(self, **extra: Any) -> Settings:
        """Settings whose base URLs point here."""
        values: dict[str, Any] = {
            "doi_url": f"{self.base}/doi",
            "handle_url": f"{self.base}/handle",
            "eutils_url": f"{self.base}/eutils",
            "ncbi_email": "tester@example.org",
            "cache_dir": self.cache_dir,
            "max_retries": 1,
        }
        values.update(extra)
        return registry.settings(**values)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("GET", "/{tail:.*}", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        self.seen.append(str(request.rel_url))
        if path in self.overrides:
            self.counts["override"] += 1
            status, raw, headers = self.overrides[path]  # type: ignore[misc]
            return web.Response(status=status, body=raw, headers=headers)
        if path.startswith("/doi/doiRA/"):
            self.counts["doira"] += 1
            rows = []
            for p in path.removeprefix("/doi/doiRA/").split(","):
                ra = self.corpus.agencies.get(p)
                rows.append(
                    {"DOI": p, "RA": ra} if ra else {"DOI": p, "status": "DOI does not exist"}
                )
            return web.json_response(rows)
        if path.startswith("/doi/"):
            self.counts["doi_csl"] += 1
            doi = path.removeprefix("/doi/")
            if doi in self.corpus.csl and "csl+json" in request.headers.get("Accept", ""):
                return web.Response(status=302, headers={"Location": f"/csl/{doi}"})
            return web.Response(
                status=404, text="<html>Error: DOI Not Found</html>", content_type="text/html"
            )
        if path.startswith("/csl/"):
            self.counts["csl"] += 1
            return web.json_response(self.corpus.csl[path.removeprefix("/csl/")])
        if path.startswith("/handle/api/handles/"):
            self.counts["handle"] += 1
            doi = path.removeprefix("/handle/api/handles/")
            if doi in self.corpus.handles or doi in self.corpus.csl:
                return web.json_response({"responseCode": 1, "handle": doi, "values": []})
            return web.json_response({"responseCode": 100, "handle": doi}, status=404)
        if path == "/eutils/esearch.fcgi":
            self.counts["esearch"] += 1
            q = dict(request.query)
            self.last_params["esearch"] = q
            ids = self.corpus.esearch.get(q["term"], [])
            retmax = int(q.get("retmax", "20"))
            return web.json_response(
                {
                    "header": {"type": "esearch", "version": "0.3"},
                    "esearchresult": {
                        "count": str(len(ids)),
                        "retmax": str(min(len(ids), retmax)),
                        "retstart": "0",
                        "idlist": ids[:retmax],
                        "querytranslation": q["term"],
                    },
                }
            )
        if path == "/eutils/esummary.fcgi":
            self.counts["esummary"] += 1
            q = dict(request.query)
            self.last_params["esummary"] = q
            pmid = q["id"]
            doc = self.corpus.pubmed.get(
                pmid, {"uid": pmid, "error": "cannot get document summary"}
            )
            return web.json_response(
                {
                    "header": {"type": "esummary", "version": "0.3"},
                    "result": {"uids": [pmid], pmid: doc},
                }
            )
        return web.Response(status=500, text="no such route")


@pytest.fixture
def corpus() -> Corpus:
    """An empty corpus each test fills in."""
    return Corpus()


@pytest.fixture
async def registers(corpus: Corpus, tmp_path: Any) -> AsyncIterator[ChineseRegisters]:
    """The loopback registers on 127.0.0.1, port 0."""
    regs = ChineseRegisters(corpus, cache_dir=str(tmp_path / "cache"))
    runner = web.AppRunner(regs.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    regs.base = f"http://127.0.0.1:{port}"
    yield regs
    await runner.cleanup()


class FakeClock:
    """A monotonic clock that sleeping advances: throttles pace without the test waiting."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


async def waterfall(
    settings: Settings,
    references: pa.Table,
    verdicts: pa.Table,
    records: pa.Table | None = None,
    **kwargs: Any,
) -> WaterfallResult:
    """Run the stage through the real transport (`open_net`) with an injected clock."""
    clock = FakeClock()
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        return await run_waterfall(
            references,
            verdicts,
            records if records is not None else tables.empty(tables.RECORDS),
            settings,
            net,
            **kwargs,
        )
