"""The run's network: one aiohttp session, one throttle per register host, retries, caps, redirects.

`open_net(settings, hosts)` builds a `Net` for one run; every register call goes through
`Net.get` (or `Net.post`), which paces the call with the host's `Throttle`, checks the redirect
policy on the request and on every hop before reading a body, caps the body, applies the timeout
and retries what `retry.decide` says to, within a retry budget: each register host may lose at most
`settings.retry_budget` seconds to failed attempts and retry waits per register batch (the
requests of one stage, opened by `Net.retry_batch`), so a hostile register spends only its own
allowance and a long-lived `Net` (the server's) is not spent for good. What differs between
hosts (pace, concurrency, the query parameters a host asks every request to carry, who receives
the mailto `User-Agent`, headers that lower the pace) is data each register declares in its
`Host` (`transport/host.py`); the caller of `open_net` hands in the run's hosts (the
registers' `registry.hosts()`), so the transport imports no register. Failures raise
`RegisterError` subclasses carrying a `Reason`; non-retryable HTTP answers (200, 404, 400 …) are
returned for the register to interpret.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from yarl import URL

from auditor import __version__
from auditor.errors import RateLimited, Reason, Unreachable
from auditor.settings import Settings
from auditor.transport import retry
from auditor.transport.cache import RecordCache
from auditor.transport.host import Host
from auditor.transport.redirects import DEFAULT_ALLOWED_HOSTS, REDIRECT_STATUSES, RedirectPolicy
from auditor.transport.response import Response, read_capped
from auditor.transport.throttle import Clock, Sleep, Throttle

log = logging.getLogger("auditor.transport")

Progress = Callable[[str, int, int], None]

#: Pace multiplier applied to a register each time it answers 429.
SLOWDOWN_ON_429 = 0.85

#: Redirect hops followed at most.
MAX_HOPS = 5

#: Seconds lost per host within the current register batch (`Net.retry_batch`); a context
#: variable, so every task a stage starts shares its batch and concurrent batches (the server's
#: requests) do not share one. `None` outside any batch.
_BATCH_LOST: ContextVar[dict[str, float] | None] = ContextVar("auditor_retry_batch", default=None)
#: Hosts that could not be connected to within the current register batch: their other
#: requests of the batch fail at once instead of each trying again (`None` outside a batch).
_BATCH_DOWN: ContextVar[set[str] | None] = ContextVar("auditor_hosts_down", default=None)


def user_agent(settings: Settings, host: Host[Any] | None = None) -> str:
    """`auditor/<version>`, with `(mailto:…)` for a host that asks for it (Crossref)."""
    if settings.mailto and host is not None and host.wants_mailto:
        return f"auditor/{__version__} (mailto:{settings.mailto})"
    return f"auditor/{__version__}"


def build_throttles(
    settings: Settings, hosts: Mapping[str, Host[Any]], clock: Clock, sleep: Sleep
) -> dict[str, Throttle]:
    """One throttle per host, at the pace and concurrency the host declares for `settings`."""
    return {
        name: Throttle(name, host.pace(settings), host.slots(settings), clock=clock, sleep=sleep)
        for name, host in hosts.items()
    }


def _fault_reason(failure: retry.Failure) -> Reason:
    if failure.fault == "timeout" or failure.status == 408:
        return Reason.TIMEOUT
    if failure.fault in ("connection", "connect"):
        return Reason.CONNECTION_ERROR
    if failure.status == 429:
        return Reason.RATE_LIMITED
    return Reason.HTTP_5XX


@dataclass(frozen=True)
class _Request:
    """What one `get`/`post` call asks for (the same on every retry)."""

    method: str
    url: str
    params: Mapping[str, str] | None
    headers: Mapping[str, str] | None
    accept: str | None
    form: Mapping[str, str] | bytes | None
    follow_redirects: bool
    timeout: float | None = None


@dataclass
class Net:
    """Everything a register call needs for one run: session, settings, throttles, cache, clock."""

    settings: Settings
    session: aiohttp.ClientSession | None
    hosts: Mapping[str, Host[Any]]
    throttles: dict[str, Throttle]
    policy: RedirectPolicy
    cache: RecordCache | None = None
    clock: Clock = time.monotonic
    sleep: Sleep = asyncio.sleep
    progress: Progress | None = None
    rand: Callable[[], float] = random.random
    requests: dict[str, int] = field(default_factory=dict)
    """HTTP requests sent per register (every attempt and hop), for tests and benchmarks."""
    retry_budget: float | None = None
    """Seconds one host may lose to failed attempts and retry waits within one register batch
    (`settings.retry_budget` when `None`); past it, that host's requests are not retried."""
    lost: dict[str, float] = field(default_factory=dict)
    """Seconds lost per host outside any `retry_batch` (a request made directly on the `Net`)."""
    lookups: Any = None
    """A cluster's shared lookup service (`auditor.partitions.lookups.RemoteLookups`): when set,
    the resolve stage hands it the identifiers to ask live, and it asks each at most once for
    the whole cluster, at one pace per host. `None`: resolve asks the registers itself."""

    @contextmanager
    def retry_batch(self) -> Iterator[None]:
        """A register batch: inside it, each host has a fresh `retry_budget`.

        Opened once per stage (resolve, the Chinese waterfall, the title search), around all of
        its requests; the tasks it starts share the batch. Registers sharing a host (doiRA and
        content negotiation; all NCBI calls) share its budget, as they share its pace.
        """
        token = _BATCH_LOST.set({})
        down = _BATCH_DOWN.set(set())
        try:
            yield
        finally:
            _BATCH_DOWN.reset(down)
            _BATCH_LOST.reset(token)

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
        accept: str | None = None,
        follow_redirects: bool = False,
        retries: int | None = None,
    ) -> Response:
        """GET `url` from host `register` with pacing, retries, caps and the redirect policy.

        `retries` overrides `settings.max_retries` (a batch is split rather than retried long).

        Returns the first non-retryable answer. Raises `Unreachable` (offline, timeout,
        connection error, 5xx after retries), `RateLimited`, `MalformedBody` (body too large,
        bad `Content-Length`) or `UnsafeRedirect`.
        """
        request = _Request("GET", url, params, headers, accept, None, follow_redirects)
        return await self._send(register, request, retries)

    async def post(
        self,
        register: str,
        url: str,
        *,
        form: Mapping[str, str] | bytes,
        headers: Mapping[str, str] | None = None,
        accept: str | None = None,
        retries: int | None = None,
        timeout: float | None = None,
    ) -> Response:
        """POST `form` to `url` (esummary above 200 ids); otherwise exactly like `get`.

        `form` as bytes is sent as it is (GROBID's multipart body, its `Content-Type` in
        `headers`); `timeout` replaces `settings.timeout` for each attempt (GROBID reads a whole
        PDF per request). Redirects are followed under the policy: 307/308 repeat the POST,
        301/302/303 become a GET without a body (as browsers do).
        """
        request = _Request("POST", url, None, headers, accept, form, True, timeout)
        return await self._send(register, request, retries)

    def _params_and_headers(
        self, host: Host[Any], request: _Request
    ) -> tuple[dict[str, str], dict[str, str]]:
        """The query parameters (the host's own first) and headers every try of `request` sends."""
        params = {**host.identify(self.settings), **(request.params or {})}
        hdrs = {"User-Agent": user_agent(self.settings, host), **(request.headers or {})}
        if request.accept:
            hdrs["Accept"] = request.accept
        return params, hdrs

    async def _send(self, register: str, request: _Request, retries: int | None) -> Response:
        if self.settings.offline or self.session is None:
            raise Unreachable(f"{register}: offline", Reason.OFFLINE)
        host = self.hosts[register]
        throttle = self.throttles[register]
        self.policy.check(request.url)
        params, hdrs = self._params_and_headers(host, request)
        batch = _BATCH_LOST.get()
        lost = self.lost if batch is None else batch
        down = _BATCH_DOWN.get()
        attempt = 0
        while True:
            if down is not None and host.name in down:
                raise Unreachable(f"{register}: could not connect", Reason.CONNECTION_ERROR)
            async with throttle.slot():
                began = self.clock()
                outcome = await self._attempt(host, request, params, hdrs)
            if isinstance(outcome, Response):
                return outcome
            if outcome.fault == "connect" and down is not None:
                down.add(host.name)
            # A failed attempt's own time (a timeout, a trickling body) is spent on the budget too.
            spent = max(0.0, self.clock() - began)
            lost[host.name] = lost.get(host.name, 0.0) + spent
            budget = self.settings.max_retries if retries is None else retries
            delay = retry.decide(outcome, attempt, budget, rand=self.rand)
            allowance = (
                self.settings.retry_budget if self.retry_budget is None else self.retry_budget
            )
            if delay is not None and lost[host.name] + delay > allowance:
                # This host's allowance for failures in this batch is spent: a hostile or
                # overloaded register cannot stretch a stage past it (its rows become
                # UNCHECKED), and it spends no other register's allowance.
                log.debug("%s: retry budget of %.0fs spent", register, allowance)
                delay = None
            if delay is None:
                reason = _fault_reason(outcome)
                cls = RateLimited if reason is Reason.RATE_LIMITED else Unreachable
                raise cls(f"{register}: {request.url} failed after {attempt + 1} attempts", reason)
            lost[host.name] += delay
            if outcome.status == 429:
                # We were too fast for the server's clock: slow this host down for the rest
                # of the run (lychee's adaptive backoff); the throttle keeps its floor.
                throttle.limit_to(throttle.rate * SLOWDOWN_ON_429)
            if outcome.retry_after is not None:
                # The server's word paces the whole host, not just this request.
                throttle.penalize(delay)
            log.debug("%s: retry %d of %s in %.2fs", register, attempt + 1, request.url, delay)
            await self.sleep(delay)
            attempt += 1

    async def _attempt(
        self,
        host: Host[Any],
        request: _Request,
        params: Mapping[str, str],
        headers: Mapping[str, str],
    ) -> Response | retry.Failure:
        """One try, following allowed redirects; a retryable problem comes back as `Failure`."""
        assert self.session is not None
        register, method, data = host.name, request.method, request.form
        current = request.url
        query: Mapping[str, str] | None = params or None
        timeout = self.session.timeout
        if request.timeout is not None:
            timeout = aiohttp.ClientTimeout(total=request.timeout)
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
                    timeout=timeout,
                ) as resp:
                    resp_headers = {k.lower(): v for k, v in resp.headers.items()}
                    if request.follow_redirects and resp.status in REDIRECT_STATUSES:
                        # Checked before the redirect body (or the next hop's) is read.
                        current = self.policy.next_hop(str(resp.url), resp_headers.get("location"))
                        # The Location carries its own query; 301/302/303 become GET without a
                        # body (as browsers do), 307/308 repeat the method and body.
                        query = None
                        if resp.status in (301, 302, 303):
                            method, data = "GET", None
                        continue
                    return await self._answer(host, resp, resp_headers)
            except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
                return _fault(exc)
        raise Unreachable(
            f"{register}: more than {MAX_HOPS} redirects from {request.url}", Reason.HTTP_4XX
        )

    async def _answer(
        self, host: Host[Any], resp: aiohttp.ClientResponse, headers: Mapping[str, str]
    ) -> Response | retry.Failure:
        """The final (not redirected) answer of one try: a retryable status as `Failure`, else
        the body read within the cap, the host's declared rate applied."""
        if resp.status == 429 or retry.is_retryable(retry.Failure(resp.status)):
            return retry.Failure(status=resp.status, retry_after=retry.parse_retry_after(headers))
        self.policy.check(str(resp.url))
        body = await read_capped(resp, headers, self.settings.max_body_bytes)
        allowed = host.rate_from_headers and host.rate_from_headers(headers)
        if allowed:
            # Never exceed what the host says it allows (Crossref's X-Rate-Limit-*); the
            # throttle clamps it to its floor, so `86400s` is not one a day.
            self.throttles[host.name].limit_to(allowed)
        return Response(resp.status, headers, body, str(resp.url))


def trusted_bases(settings: Settings, hosts: Mapping[str, Host[Any]]) -> list[str]:
    """The configured base URL of every host, which the redirect policy trusts."""
    return [h.base_url(settings) for h in hosts.values()]


def allowed_hosts(hosts: Mapping[str, Host[Any]]) -> frozenset[str]:
    """The HTTPS hosts the redirect policy allows: the protocol's own, and every host's
    `Host.redirect_hosts` (the agencies' metadata hosts doi.org hands a CSL request to)."""
    declared = (h.redirect_hosts for h in hosts.values())
    return DEFAULT_ALLOWED_HOSTS.union(*declared)


@asynccontextmanager
async def open_net(
    settings: Settings,
    hosts: Mapping[str, Host[Any]],
    *,
    progress: Progress | None = None,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
) -> AsyncIterator[Net]:
    """A `Net` for one run over `hosts` (`registry.hosts()` for every register); closed on exit.

    With `settings.offline` no session is created, so no socket can be opened. The cache is
    opened from `settings.cache_dir`; a cache that cannot be opened costs speed, not the run.
    """
    hosts = dict(hosts)
    cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    session: aiohttp.ClientSession | None = None
    if not settings.offline:
        # `--timeout` bounds one attempt from connecting to the last byte of the body; each
        # retry and redirect hop is an attempt of its own.
        timeout = aiohttp.ClientTimeout(total=settings.timeout)
        session = aiohttp.ClientSession(
            timeout=timeout,
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
        hosts=hosts,
        throttles=build_throttles(settings, hosts, clock, sleep),
        policy=RedirectPolicy(trusted_bases(settings, hosts), allowed_hosts(hosts)),
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


__all__ = [
    "Net",
    "Response",
    "allowed_hosts",
    "open_net",
    "user_agent",
    "build_throttles",
    "trusted_bases",
]


def _fault(exc: BaseException) -> retry.Failure:
    """What one try's exception says about the host: a failure to look, never an exception
    out of the run (a garbled status line or an invalid URL in a header included)."""
    if isinstance(exc, (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError)):
        # No connection could be opened (refused, no route, no such name, or none within
        # the timeout): the host is not there for now; not retried.
        return retry.Failure(fault="connect")
    if isinstance(exc, (TimeoutError, aiohttp.ServerTimeoutError)):
        return retry.Failure(fault="timeout")
    return retry.Failure(fault="connection")
