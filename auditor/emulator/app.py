"""The aiohttp app: routes each request to its service, then applies limits, latency and faults.

One path prefix per service: `/crossref`, `/datacite`, `/eutils`, `/arxiv`, `/dblp`, `/s2`,
`/doi`, `/csl`, `/handle`.
Order per request: count it, check the service's rate limit at arrival, wait the latency, then
answer (503 if the service is down, 429 if over the limit, else the fault plan's answer).
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import unquote

from aiohttp import web

from auditor.emulator import arxiv, crossref, datacite, dblp, doi, eutils, faults, handle, s2
from auditor.emulator.config import EmulatorConfig
from auditor.emulator.corpus import Corpus
from auditor.emulator.ratelimit import RateLimiter, retry_after_header
from auditor.emulator.reply import Reply, text_reply

#: Endpoint names, the keys of `counts`.
ENDPOINTS: tuple[str, ...] = (
    "crossref_work",
    "crossref_filter",
    "crossref_search",
    "datacite_dois",
    "datacite_doi",
    "esummary",
    "esearch",
    "arxiv_query",
    "arxiv_search",
    "dblp_search",
    "s2_match",
    "doira",
    "doi_csl",
    "csl",
    "handle",
)

#: Which service (rate-limit and fault scope) each endpoint belongs to.
SERVICE_OF: dict[str, str] = {
    "crossref_work": "crossref",
    "crossref_filter": "crossref",
    "crossref_search": "crossref",
    "datacite_dois": "datacite",
    "datacite_doi": "datacite",
    "esummary": "eutils",
    "esearch": "eutils",
    "arxiv_query": "arxiv",
    "arxiv_search": "arxiv",
    "dblp_search": "dblp",
    "s2_match": "s2",
    "doira": "doi",
    "doi_csl": "doi",
    "landing": "doi",
    "csl": "csl",
    "handle": "handle",
    "unknown": "unknown",
}

#: Request bodies (esummary POST forms) larger than this are refused.
MAX_FORM_BYTES = 1 << 20


@dataclass
class LoggedRequest:
    """One request as the emulator saw it (for tests that check parameters and headers)."""

    endpoint: str
    method: str
    url: str
    params: dict[str, str]
    headers: dict[str, str]
    arrived: float = 0.0
    """Arrival time on the emulator's monotonic clock."""
    status: int | None = None
    """The status answered (None while in flight or when the connection was reset)."""


@dataclass
class Routed:
    """A request resolved to its endpoint: the identifiers it names and how to answer it."""

    endpoint: str
    identifiers: list[str]
    answer: Callable[[set[str]], Reply]


@dataclass
class Registers:
    """The emulator's state: corpus, config, request counts and the request handler."""

    corpus: Corpus
    config: EmulatorConfig
    port: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    count_429: int = 0
    limited: Counter[str] = field(default_factory=Counter)
    fault_counts: Counter[str] = field(default_factory=Counter)
    log: list[LoggedRequest] = field(default_factory=list)
    limiter: RateLimiter = field(default_factory=RateLimiter)
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._rng = random.Random(self.config.seed)
        self._rng_key = (id(self.config), self.config.seed)
        self.reset_counts()

    def reset_counts(self) -> None:
        """Zero every count and the log, and forget rate-limit windows."""
        self.counts = Counter(dict.fromkeys(ENDPOINTS, 0))
        self.count_429 = 0
        self.limited = Counter()
        self.fault_counts = Counter()
        self.log = []
        self.limiter.reset()

    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return f"http://127.0.0.1:{self.port}"

    def route(self, path: str, params: Mapping[str, str], accept: str) -> Routed:
        """Map a decoded path (and query/form) to its endpoint and answer."""
        c = self.corpus
        if path.startswith("/crossref/works/"):
            d = path.removeprefix("/crossref/works/")
            return Routed("crossref_work", [d], lambda w: crossref.work(c, d, w))
        if path in ("/crossref/works", "/crossref/works/") and crossref.is_search(params):
            text = params.get("query.bibliographic", "")
            return Routed("crossref_search", [text], lambda w: crossref.search(c, params, w))
        if path in ("/crossref/works", "/crossref/works/"):
            parsed = crossref.filter_dois(params)
            ids = parsed if isinstance(parsed, list) else []
            return Routed("crossref_filter", ids, lambda w: crossref.works(c, params, w))
        if path in ("/datacite/dois", "/datacite/dois/"):
            asked = datacite.ids(params)
            return Routed("datacite_dois", asked, lambda w: datacite.dois(c, params, w))
        if path.startswith("/datacite/dois/"):
            d = path.removeprefix("/datacite/dois/")
            return Routed("datacite_doi", [d], lambda w: datacite.doi(c, d, w))
        if path == "/eutils/esummary.fcgi":
            ids = eutils.esummary_ids(params)
            return Routed("esummary", ids, lambda w: eutils.esummary(c, params, w))
        if path == "/eutils/esearch.fcgi":
            term = params.get("term", "")
            return Routed("esearch", [term], lambda w: eutils.esearch(c, params, w))
        if path in ("/arxiv/api/query", "/arxiv/query") and not arxiv.id_list(params):
            text = params.get("search_query", "")
            return Routed("arxiv_search", [text], lambda w: arxiv.query(c, params, w))
        if path in ("/arxiv/api/query", "/arxiv/query"):
            ids = arxiv.id_list(params)
            bases = [s[0] for s in map(arxiv.split_id, ids) if s is not None]
            return Routed("arxiv_query", ids + bases, lambda w: arxiv.query(c, params, w))
        if path in ("/dblp/search/publ/api", "/dblp/search/publ/api/"):
            text = params.get("q", "")
            return Routed("dblp_search", [text], lambda w: dblp.search(c, params, w))
        if path == "/s2/graph/v1/paper/search/match":
            text = params.get("query", "")
            return Routed("s2_match", [text], lambda w: s2.match(c, params, w))
        for prefix in ("/handle/api/handles/", "/doi/api/handles/"):
            # doi.org serves the Handle proxy API too (`doi.org/api/handles/{doi}`).
            if path.startswith(prefix):
                d = path.removeprefix(prefix)
                return Routed("handle", [d], partial(handle.handle, c, d))
        for prefix in ("/doi/doiRA/", "/doi/ra/"):
            if path.startswith(prefix):
                asked = [n.strip() for n in path.removeprefix(prefix).split(",") if n.strip()]
                return Routed("doira", asked, partial(doi.doira, c, asked))
        if path.startswith("/doi/"):
            d = path.removeprefix("/doi/")
            return Routed("doi_csl", [d], lambda w: doi.resolve(c, d, accept, self.origin()))
        if path.startswith("/csl/"):
            d = path.removeprefix("/csl/")
            return Routed("csl", [d], lambda w: doi.csl(c, d, w))
        if path.startswith("/landing/"):
            d = path.removeprefix("/landing/")
            return Routed("landing", [d], lambda w: doi.landing(d))
        return Routed("unknown", [], lambda w: text_reply("Not Found", 404))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one request (see the module docstring for the order of events)."""
        arrived = self.clock()
        config = self.config
        if (id(config), config.seed) != self._rng_key:
            # A new config (or seed) restarts the fault sequence: same seed, same faults.
            self._rng, self._rng_key = random.Random(config.seed), (id(config), config.seed)
        params: dict[str, str] = dict(request.query)
        if request.method == "POST":
            if (request.content_length or 0) > MAX_FORM_BYTES:
                return web.Response(status=413, text="Request Entity Too Large")
            form = await request.post()
            params.update({k: str(v) for k, v in form.items()})
        path = unquote(request.rel_url.raw_path)
        routed = self.route(path, params, request.headers.get("Accept", ""))
        service = SERVICE_OF[routed.endpoint]
        self.counts[routed.endpoint] += 1
        entry = LoggedRequest(
            routed.endpoint,
            request.method,
            str(request.rel_url),
            params,
            dict(request.headers),
            arrived,
        )
        self.log.append(entry)
        wait = self.limiter.check(service, config.rate_limits, arrived, config.rate_tolerance)
        fault = faults.FaultPlan()
        if wait is None and service not in config.down:
            fault = faults.plan(config, service, routed.identifiers, self._rng)
        if config.latency > 0:
            await asyncio.sleep(config.latency)
        if service in config.down:
            reply = text_reply("Service Unavailable", 503)
        elif wait is not None:
            self.count_429 += 1
            self.limited[service] += 1
            retry_after = (
                str(config.retry_after)
                if config.retry_after is not None
                else retry_after_header(wait)
            )
            if service == "eutils":
                reply = eutils.rate_limited(config.rate_limits.get("eutils"), retry_after)
            else:
                reply = text_reply("Too Many Requests", 429, **{"Retry-After": retry_after})
        else:
            faulted = await self._faulted(routed, fault, request)
            if faulted is None:
                return await self._reset(request)
            reply = faulted
        if service == "crossref" and fault.kind != "rate_crawl":
            reply.headers.update(crossref.rate_headers(config.rate_limits.get("crossref")))
        entry.status = reply.status
        if fault.kind == "cut":
            return await self._cut(request, reply)
        if fault.kind in faults.STREAMING:
            return await self._stream(request, reply, fault.kind)
        return _response(reply)

    async def _faulted(
        self, routed: Routed, fault: faults.FaultPlan, request: web.Request
    ) -> Reply | None:
        """The answer under the fault plan; None means "reset the connection"."""
        if fault.kind is not None:
            self.fault_counts[fault.kind] += 1
        if fault.wrong_echo:
            self.fault_counts["wrong_echo"] += 1
        if fault.kind in faults.REPLACING:
            return faults.replacement(fault.kind, request.rel_url.raw_path_qs, self.port)
        if fault.kind == "reset":
            return None
        if fault.kind == "timeout":
            await asyncio.sleep(self.config.hang_seconds)
        reply = routed.answer(fault.wrong_echo)
        return faults.corrupt(fault.kind, reply) if fault.kind else reply

    async def _cut(self, request: web.Request, reply: Reply) -> web.StreamResponse:
        """Send the headers (full Content-Length) and half the body, then reset the connection."""
        response = web.StreamResponse(
            status=reply.status, headers={"Content-Type": reply.content_type, **reply.headers}
        )
        response.content_length = len(reply.body)
        await response.prepare(request)
        await response.write(reply.body[: len(reply.body) // 2])
        return await self._reset(request)

    async def _stream(self, request: web.Request, reply: Reply, kind: str) -> web.StreamResponse:
        """`endless`: whitespace as fast as the client reads; `slow_body`: the real body a byte
        every 50 ms. Either stops after `hang_seconds` so a test's emulator never runs on."""
        response = web.StreamResponse(
            status=reply.status, headers={"Content-Type": reply.content_type, **reply.headers}
        )
        await response.prepare(request)
        stop = asyncio.get_running_loop().time() + self.config.hang_seconds
        sent = 0
        try:
            while asyncio.get_running_loop().time() < stop:
                if kind == "endless":
                    await response.write(b" " * 65536)
                    await asyncio.sleep(0)
                else:
                    await response.write(reply.body[sent : sent + 1] or b" ")
                    sent += 1
                    await asyncio.sleep(0.05)
        except (ConnectionResetError, RuntimeError):
            # The client gave up (as it should): nothing more to send.
            return response
        await response.write_eof()
        return response

    async def _reset(self, request: web.Request) -> web.StreamResponse:
        """Cut the connection with a TCP RST before any byte of the answer."""
        transport = request.transport
        if transport is not None:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                # SO_LINGER 0 makes close() send RST instead of FIN: a hard reset.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()
        raise asyncio.CancelledError


def _response(reply: Reply) -> web.Response:
    headers = {"Content-Type": reply.content_type, **reply.headers}
    return web.Response(status=reply.status, body=reply.body, headers=headers)


def build_app(registers: Registers) -> web.Application:
    """An aiohttp app answering every GET/POST path through `registers.handle`."""
    app = web.Application(client_max_size=MAX_FORM_BYTES)
    app.router.add_route("GET", "/{tail:.*}", registers.handle)
    app.router.add_route("POST", "/{tail:.*}", registers.handle)
    return app
