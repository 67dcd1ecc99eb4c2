"""The aiohttp app: routes each request to its service, then applies limits, latency and faults.

One path prefix per service, each an `EmulatedService` listed in `services.py` (`/crossref`,
`/datacite`, `/eutils`, `/arxiv`, `/dblp`, `/s2`, `/doi`, `/csl`, `/handle`, `/grobid`).
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
from urllib.parse import unquote

from aiohttp import web

from auditor.emulator import faults
from auditor.emulator.config import EmulatorConfig
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.ratelimit import RateLimiter, retry_after_header
from auditor.emulator.reply import Reply, text_reply
from auditor.emulator.services import BY_NAME, ENDPOINTS, SERVICE_OF, SERVICES

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
        asked = Asked(path, params, accept, self.origin())
        for service in SERVICES:
            routed = service.route(self.corpus, asked)
            if routed is not None:
                return routed
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
            reply = self._limited(service, wait)
        else:
            faulted = await self._faulted(routed, fault, request)
            if faulted is None:
                return await self._reset(request)
            reply = faulted
        if fault.kind != "rate_crawl":
            reply.headers.update(_service(service).rate_headers(config.rate_limits.get(service)))
        entry.status = reply.status
        if fault.kind == "cut":
            return await self._cut(request, reply)
        if fault.kind in faults.STREAMING:
            return await self._stream(request, reply, fault.kind)
        return _response(reply)

    def _limited(self, service: str, wait: float) -> Reply:
        """The 429 of `service` over its rate limit, counted; `Retry-After` from the config, else
        the seconds until the window has room (`wait`)."""
        config = self.config
        self.count_429 += 1
        self.limited[service] += 1
        retry_after = (
            str(config.retry_after) if config.retry_after is not None else retry_after_header(wait)
        )
        return _service(service).rate_limited(config.rate_limits.get(service), retry_after)

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


def _service(name: str) -> EmulatedService:
    """The service called `name`; the plain default for a request no service answers."""
    return BY_NAME.get(name, _UNKNOWN)


class _Unknown(EmulatedService):
    """What answers for a path no service claims: 404, with the default limit behaviour."""

    name = "unknown"
    url_setting = None
    endpoints = ()

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """Claims nothing."""
        return None


_UNKNOWN = _Unknown()


def _response(reply: Reply) -> web.Response:
    headers = {"Content-Type": reply.content_type, **reply.headers}
    return web.Response(status=reply.status, body=reply.body, headers=headers)


def build_app(registers: Registers) -> web.Application:
    """An aiohttp app answering every GET/POST path through `registers.handle`."""
    app = web.Application(client_max_size=MAX_FORM_BYTES)
    app.router.add_route("GET", "/{tail:.*}", registers.handle)
    app.router.add_route("POST", "/{tail:.*}", registers.handle)
    return app
