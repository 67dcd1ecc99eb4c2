"""The run's network: one aiohttp session, one throttle per register, retries, caps, redirects.

`open_net(settings)` builds a `Net` for one run; every register call goes through `Net.get`,
which paces the call with the register's `Throttle`, checks the redirect policy on the request
and on every hop before reading a body, caps the body, applies per-phase timeouts and retries
what `retry.decide` says to. Failures raise `RegisterError` subclasses carrying a `Reason`;
non-retryable HTTP answers (200, 404, 400 …) are returned for the register to interpret.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from yarl import URL

from auditor import __version__
from auditor.errors import MalformedBody, RateLimited, Reason, Unreachable
from auditor.settings import Settings
from auditor.transport import retry, safejson
from auditor.transport.cache import RecordCache
from auditor.transport.redirects import REDIRECT_STATUSES, RedirectPolicy
from auditor.transport.throttle import Clock, Sleep, Throttle

log = logging.getLogger("auditor.transport")

Progress = Callable[[str, int, int], None]

#: Registers `Net` knows, each with its own throttle.
REGISTERS: tuple[str, ...] = ("crossref", "ncbi", "arxiv", "doi", "handle")

#: Pace multiplier applied to a register each time it answers 429.
SLOWDOWN_ON_429 = 0.85

#: Redirect hops followed at most.
MAX_HOPS = 5

_READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Response:
    """One complete HTTP answer whose body was read within the cap."""

    status: int
    headers: Mapping[str, str]
    """Response headers, names lower-cased."""
    body: bytes
    url: str
    """The final URL after any followed redirects."""

    @property
    def content_type(self) -> str | None:
        """The media type of the body (`application/json`), without parameters."""
        value = self.headers.get("content-type")
        return value.split(";")[0].strip().lower() if value else None

    def json(self) -> Any:
        """The body as bounded JSON (`safejson.loads`); raises `MalformedBody` when it is not."""
        return safejson.loads(self.body, self.url)


def user_agent(settings: Settings) -> str:
    """`auditor/<version> (mailto:…)`, as Crossref's etiquette asks."""
    if settings.mailto:
        return f"auditor/{__version__} (mailto:{settings.mailto})"
    return f"auditor/{__version__}"


def build_throttles(settings: Settings, clock: Clock, sleep: Sleep) -> dict[str, Throttle]:
    """One throttle per register, paced per DESIGN's table and the settings."""
    crossref_rate = settings.crossref_rate or (10.0 if settings.mailto else 5.0)
    # NCBI allows 3/s without an API key and 10/s with one; a setting above that is capped.
    ncbi_rate = min(settings.ncbi_rate, 10.0 if settings.ncbi_api_key else 3.0)
    plan = {
        "crossref": (crossref_rate, settings.crossref_concurrency),
        # all NCBI calls (esummary, esearch, the waterfall's lookups) share one pace
        "ncbi": (ncbi_rate, 3),
        # arXiv asks for one request every three seconds on a single connection
        "arxiv": (settings.arxiv_rate, 1),
        "doi": (settings.doi_rate, 4),
        "handle": (settings.handle_rate, 4),
    }
    return {
        name: Throttle(name, rate, conc, clock=clock, sleep=sleep)
        for name, (rate, conc) in plan.items()
    }


def _fault_reason(failure: retry.Failure) -> Reason:
    if failure.fault == "timeout" or failure.status == 408:
        return Reason.TIMEOUT
    if failure.fault == "connection":
        return Reason.CONNECTION_ERROR
    if failure.status == 429:
        return Reason.RATE_LIMITED
    return Reason.HTTP_5XX


def _parse_interval(text: str | None) -> float | None:
    """Crossref's `X-Rate-Limit-Interval` (`1s`) in seconds."""
    if not text:
        return None
    text = text.strip().lower()
    scale = 60.0 if text.endswith("m") else 1.0
    try:
        seconds = float(text.rstrip("sm")) * scale
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds > 0 else None


@dataclass
class Net:
    """Everything a register call needs for one run: session, settings, throttles, cache, clock."""

    settings: Settings
    session: aiohttp.ClientSession | None
    throttles: dict[str, Throttle]
    policy: RedirectPolicy
    cache: RecordCache | None = None
    clock: Clock = time.monotonic
    sleep: Sleep = asyncio.sleep
    progress: Progress | None = None
    rand: Callable[[], float] = random.random
    requests: dict[str, int] = field(default_factory=dict)
    """HTTP requests sent per register (every attempt and hop), for tests and benchmarks."""
    retry_budget: float = retry.RETRY_BUDGET
    """Seconds of retry waits allowed in the whole run, summed over every register."""
    waited: float = 0.0
    """Seconds of retry waits spent so far."""

    def report(self, register: str, done: int, total: int) -> None:
        """Forward progress to the callback, if any."""
        if self.progress is not None:
            self.progress(register, done, total)

    async def get(
        self,
        register: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        data: Mapping[str, str] | None = None,
        method: str = "GET",
        accept: str | None = None,
        follow_redirects: bool = False,
        retries: int | None = None,
    ) -> Response:
        """Send one request to `register` with pacing, retries, caps and the redirect policy.

        `retries` overrides `settings.max_retries` (a batch is split rather than retried long).

        Returns the first non-retryable answer. Raises `Unreachable` (offline, timeout,
        connection error, 5xx after retries), `RateLimited`, `MalformedBody` (body too large,
        bad `Content-Length`) or `UnsafeRedirect`.
        """
        if self.settings.offline or self.session is None:
            raise Unreachable(f"{register}: offline", Reason.OFFLINE)
        throttle = self.throttles[register]
        self.policy.check(url)
        params = dict(params or {})
        if register == "ncbi":
            # NCBI asks every E-utilities client to identify itself.
            params.setdefault("tool", "auditor")
            if self.settings.ncbi_email:
                params.setdefault("email", self.settings.ncbi_email)
            if self.settings.ncbi_api_key:
                params.setdefault("api_key", self.settings.ncbi_api_key)
        hdrs = dict(headers or {})
        if accept:
            hdrs["Accept"] = accept
        attempt = 0
        while True:
            async with throttle.slot():
                outcome = await self._attempt(
                    register, method, url, params, hdrs, data, follow_redirects
                )
            if isinstance(outcome, Response):
                return outcome
            budget = self.settings.max_retries if retries is None else retries
            delay = retry.decide(outcome, attempt, budget, rand=self.rand)
            if delay is not None and self.waited + delay > self.retry_budget:
                # The run's whole allowance for waiting on retries is spent: a hostile or
                # overloaded register cannot stretch a run past it (rows become UNCHECKED).
                log.debug("%s: retry budget of %.0fs spent", register, self.retry_budget)
                delay = None
            if delay is None:
                reason = _fault_reason(outcome)
                cls = RateLimited if reason is Reason.RATE_LIMITED else Unreachable
                raise cls(f"{register}: {url} failed after {attempt + 1} attempts", reason)
            self.waited += delay
            if outcome.status == 429:
                # We were too fast for the server's clock: slow this register down for the rest
                # of the run (lychee's adaptive backoff); the throttle keeps its floor.
                throttle.limit_to(throttle.rate * SLOWDOWN_ON_429)
            if outcome.retry_after is not None:
                # The server's word paces the whole register, not just this request.
                throttle.penalize(delay)
            log.debug("%s: retry %d of %s in %.2fs", register, attempt + 1, url, delay)
            await self.sleep(delay)
            attempt += 1

    async def _attempt(
        self,
        register: str,
        method: str,
        url: str,
        params: Mapping[str, str],
        headers: Mapping[str, str],
        data: Mapping[str, str] | None,
        follow_redirects: bool,
    ) -> Response | retry.Failure:
        """One try, following allowed redirects; a retryable problem comes back as `Failure`."""
        assert self.session is not None
        current = url
        query: Mapping[str, str] | None = params or None
        for _ in range(MAX_HOPS + 1):
            self.requests[register] = self.requests.get(register, 0) + 1
            try:
                async with self.session.request(
                    method,
                    URL(current, encoded=True),
                    params=query,
                    headers=headers,
                    data=data,
                    allow_redirects=False,
                ) as resp:
                    resp_headers = {k.lower(): v for k, v in resp.headers.items()}
                    if follow_redirects and resp.status in REDIRECT_STATUSES:
                        # Checked before the redirect body (or the next hop's) is read.
                        current = self.policy.next_hop(str(resp.url), resp_headers.get("location"))
                        # The Location carries its own query; 301/302/303 become GET without a
                        # body (as browsers do), 307/308 repeat the method and body.
                        query = None
                        if resp.status in (301, 302, 303):
                            method, data = "GET", None
                        continue
                    if resp.status == 429 or retry.is_retryable(retry.Failure(resp.status)):
                        return retry.Failure(
                            status=resp.status,
                            retry_after=retry.parse_retry_after(resp_headers),
                        )
                    self.policy.check(str(resp.url))
                    body = await self._read_capped(resp, resp_headers)
                    if register == "crossref":
                        self._adapt_crossref(resp_headers)
                    return Response(resp.status, resp_headers, body, str(resp.url))
            except (TimeoutError, aiohttp.ServerTimeoutError):
                return retry.Failure(fault="timeout")
            except (aiohttp.ClientPayloadError, aiohttp.ClientConnectionError, OSError):
                return retry.Failure(fault="connection")
            except (aiohttp.ClientError, ValueError):
                # Any other client-side failure (a garbled status line, an invalid URL in a
                # header) is a failure to look, never an exception out of the run.
                return retry.Failure(fault="connection")
        raise Unreachable(f"{register}: more than {MAX_HOPS} redirects from {url}", Reason.HTTP_4XX)

    async def _read_capped(self, resp: aiohttp.ClientResponse, headers: Mapping[str, str]) -> bytes:
        cap = self.settings.max_body_bytes
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                raise MalformedBody(f"bad Content-Length {declared!r}", Reason.MALFORMED_BODY)
            if int(declared) > cap:
                raise MalformedBody(f"body of {declared} bytes over cap", Reason.BODY_TOO_LARGE)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = await resp.content.read(_READ_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > cap:
                raise MalformedBody(f"body over {cap} bytes", Reason.BODY_TOO_LARGE)
            chunks.append(chunk)
        return b"".join(chunks)

    def _adapt_crossref(self, headers: Mapping[str, str]) -> None:
        """Never exceed what Crossref's `X-Rate-Limit-Limit`/`-Interval` headers allow."""
        limit = headers.get("x-rate-limit-limit")
        interval = _parse_interval(headers.get("x-rate-limit-interval"))
        try:
            allowed = float(limit) / interval if limit and interval else None
        except ValueError:
            allowed = None
        if allowed is not None:
            # The throttle clamps it between its floor and its starting pace: headers can
            # slow a register down, never to a crawl (`86400s`) and never speed it up.
            self.throttles["crossref"].limit_to(allowed)


def trusted_bases(settings: Settings) -> list[str]:
    """The configured base URLs, which the redirect policy trusts."""
    return [
        settings.crossref_url,
        settings.eutils_url,
        settings.arxiv_url,
        settings.doi_url,
        settings.handle_url,
    ]


@asynccontextmanager
async def open_net(
    settings: Settings,
    *,
    progress: Progress | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> AsyncIterator[Net]:
    """A `Net` for one run; the session and cache are closed on exit.

    With `settings.offline` no session is created, so no socket can be opened. The cache is
    opened from `settings.cache_dir`; a cache that cannot be opened costs speed, not the run.
    """
    cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    session: aiohttp.ClientSession | None = None
    if not settings.offline:
        timeout = aiohttp.ClientTimeout(
            total=settings.timeout * 2,
            sock_connect=settings.timeout,
            sock_read=settings.timeout,
        )
        session = aiohttp.ClientSession(
            timeout=timeout,
            headers={"User-Agent": user_agent(settings)},
            connector=aiohttp.TCPConnector(limit=32),
            auto_decompress=True,
        )
        # aiohttp silently resends an idempotent request once when a kept-alive connection
        # drops; that resend bypasses our throttle and retry accounting and drew Crossref 429s
        # after resets (benchmarks/resolve.py). Every attempt must be ours (aiohttp's own test
        # client switches it off the same way).
        if hasattr(session, "_retry_connection"):
            session._retry_connection = False
    net = Net(
        settings=settings,
        session=session,
        throttles=build_throttles(settings, clock, sleep),
        policy=RedirectPolicy(trusted_bases(settings)),
        cache=cache,
        clock=clock,
        sleep=sleep,
        progress=progress,
    )
    try:
        yield net
    finally:
        if session is not None:
            await session.close()
        if cache is not None:
            cache.close()


__all__ = ["Net", "Response", "open_net", "user_agent", "build_throttles", "REGISTERS"]
