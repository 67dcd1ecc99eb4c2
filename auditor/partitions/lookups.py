"""One lookup service for a whole cluster: each register host at one pace, each id asked once.

A register's pace is per host, and workers on many machines cannot share a throttle. So a
cluster run that may ask live registers starts one `LookupService`, a Dask actor living on one
worker: it owns the run's only `Net` (one aiohttp session, one `Throttle` per register host,
the record cache), so Crossref gets at most its pace however many workers ask.

Workers reach it through `remote_net`: a `Net` whose `lookups` hands the resolve stage's pending
identifiers to the service (`LookupService.live`) and whose `get`/`post` (the waterfall's and
the title search's requests) are sent through the service's `Net`. The service batches what the
workers ask: identifiers that arrive while a batch is being asked wait for the next one, and the
registers batch them as they batch one run's. An identifier already answered, or being asked
for another worker, is never asked again: the caller waits for that answer (and a definitive one
is in the record cache for later runs). Failures to look stay rows (`unreachable` + reason),
as in one process. `--offline` starts no service at all.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from auditor import errors
from auditor.registers import registry
from auditor.registers.interface import RecordRow
from auditor.resolve import Target, ask_live
from auditor.settings import Settings
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net, Response, allowed_hosts, open_net, trusted_bases
from auditor.transport.redirects import RedirectPolicy

__all__ = ["LookupService", "RemoteLookups", "RemoteNet", "remote_net", "start_lookups"]

Key = tuple[str, str]
"""`(id_type, identifier)` of one reference identifier."""
#: Answers to plain requests kept for callers that ask the same request later (a bound: the
#: record cache keeps the definitive ones anyway).
_KEPT_RESPONSES = 10_000
#: Requests one worker may have waiting on the service at once.
_IN_FLIGHT = 16


class LookupService:
    """The Dask actor behind `remote_net` (see the module docstring); one per cluster run."""

    def __init__(self, settings: Settings) -> None:
        # The workers join the snapshots themselves; the service only asks what they lack.
        self._settings = dataclasses.replace(settings, snapshots=(), offline=False)
        self._stack = AsyncExitStack()
        self._net: Net | None = None
        self._done: dict[Key, RecordRow] = {}
        self._waiting: dict[Key, asyncio.Future[RecordRow]] = {}
        self._queue: list[Key] = []
        self._runner: asyncio.Task[None] | None = None
        self._responses: OrderedDict[tuple[Any, ...], Response] = OrderedDict()
        self._sent: dict[tuple[Any, ...], asyncio.Future[Response]] = {}
        self.asked: int = 0
        """Identifiers asked live (each once)."""

    async def _open(self) -> Net:
        if self._net is None:
            self._net = await self._stack.enter_async_context(
                open_net(self._settings, registry.hosts())
            )
        return self._net

    async def live(self, keys: list[Key]) -> list[RecordRow]:
        """The live answer of each of `keys`, in order: asked once for the whole cluster."""
        await self._open()
        loop = asyncio.get_running_loop()
        waits: list[asyncio.Future[RecordRow]] = []
        for key in keys:
            if key in self._done:
                done: asyncio.Future[RecordRow] = loop.create_future()
                done.set_result(self._done[key])
                waits.append(done)
            elif key in self._waiting:
                waits.append(self._waiting[key])
            else:
                self._waiting[key] = loop.create_future()
                self._queue.append(key)
                waits.append(self._waiting[key])
        if self._queue and (self._runner is None or self._runner.done()):
            self._runner = asyncio.ensure_future(self._drain())
        return list(await asyncio.gather(*waits))

    async def _drain(self) -> None:
        """Ask the queued identifiers, one batch at a time, until none is left."""
        net = await self._open()
        while self._queue:
            batch, self._queue = self._queue, []
            targets = []
            for id_type, identifier in batch:
                first = registry.first_for(id_type, identifier)
                assert first is not None  # the worker's resolve made a target of it
                targets.append(Target(id_type, identifier, *first))
            try:
                with net.retry_batch():
                    assert net.cache is not None  # `open_net` always opens one
                    rows = await ask_live(targets, net, net.cache)
            except BaseException:
                # A batch that fails as a whole (cancelled) must not leave callers waiting.
                for key in batch:
                    self._waiting.pop(key).cancel()
                raise
            for key, target in zip(batch, targets, strict=True):
                row = rows[(target.register.name, target.asked)]
                self._done[key] = row
                self._waiting.pop(key).set_result(row)
            self.asked += len(batch)

    async def request(
        self, method: str, register: str, url: str, options: dict[str, Any]
    ) -> tuple[str, Any]:
        """One `Net.get`/`Net.post` through the service's `Net`: `("ok", Response)` or
        `("error", (class name, message, reason))` (a `RegisterError`, sent as data: its
        constructor takes a reason pickling does not give it). Requests equal to one already
        answered or in flight get that answer."""
        net = await self._open()
        key = (method, register, url, repr(sorted(options.items())))
        if key in self._responses:
            return "ok", self._responses[key]
        try:
            if key not in self._sent:
                send = net.get if method == "GET" else net.post
                self._sent[key] = asyncio.ensure_future(send(register, url, **options))
            answer = await asyncio.shield(self._sent[key])
        except errors.RegisterError as exc:
            return "error", (type(exc).__name__, str(exc), str(exc.reason))
        finally:
            if key in self._sent and self._sent[key].done():
                self._sent.pop(key)
        self._responses[key] = answer
        while len(self._responses) > _KEPT_RESPONSES:
            self._responses.popitem(last=False)
        return "ok", answer

    def requests(self) -> dict[str, int]:
        """HTTP requests sent per register host so far (every attempt), for tests and reports."""
        return dict(self._net.requests) if self._net is not None else {}

    async def close(self) -> None:
        """Close the session and the cache."""
        await self._stack.aclose()
        self._net = None


@dataclass
class RemoteLookups:
    """A worker's handle on the `LookupService` actor (what `Net.lookups` holds)."""

    actor: Any
    pool: ThreadPoolExecutor

    async def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        # The actor call and its wait run in a thread: Dask's actor futures block, and this
        # event loop keeps the partition's other requests going meanwhile.
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: method(*args).result())

    async def live(self, pending: Sequence[Target]) -> dict[tuple[str, str], RecordRow]:
        """`resolve`'s live answers for `pending`, keyed by `(claimant register, asked id)`."""
        keys = [(t.id_type, t.identifier) for t in pending]
        rows = await self._call(self.actor.live, keys)
        return {(t.register.name, t.asked): row for t, row in zip(pending, rows, strict=True)}

    async def request(
        self, method: str, register: str, url: str, options: Mapping[str, Any]
    ) -> Response:
        """One request through the service; raises the `RegisterError` it met."""
        status, value = await self._call(self.actor.request, method, register, url, dict(options))
        if status == "ok":
            assert isinstance(value, Response)
            return value
        kind, message, reason = value
        raise getattr(errors, kind, errors.Unreachable)(message, errors.Reason(reason))


class RemoteNet(Net):
    """A worker's `Net`: requests go to the cluster's `LookupService`, never to a socket here."""

    async def get(self, register: str, url: str, **options: Any) -> Response:
        """`Net.get`, sent through the lookup service (its throttle, its retries)."""
        lookups: RemoteLookups = self.lookups
        return await lookups.request("GET", register, url, options)

    async def post(self, register: str, url: str, **options: Any) -> Response:
        """`Net.post`, sent through the lookup service."""
        lookups: RemoteLookups = self.lookups
        return await lookups.request("POST", register, url, options)


@asynccontextmanager
async def remote_net(settings: Settings, actor: Any) -> AsyncIterator[Net]:
    """A worker's `RemoteNet` on `actor`, with the record cache of `settings.cache_dir` (read
    before anything is asked: what a run before already fetched is not asked again)."""
    hosts = registry.hosts()
    cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    with ThreadPoolExecutor(_IN_FLIGHT, thread_name_prefix="auditor-lookups") as pool:
        net = RemoteNet(
            settings=settings,
            session=None,
            hosts=hosts,
            throttles={},
            policy=RedirectPolicy(trusted_bases(settings, hosts), allowed_hosts(hosts)),
            cache=cache,
            lookups=RemoteLookups(actor, pool),
        )
        try:
            yield net
        finally:
            if cache is not None:
                cache.close()


def start_lookups(client: Any, settings: Settings) -> Any:
    """Start the cluster's `LookupService` actor; its proxy goes to every task."""
    return client.submit(LookupService, settings, actor=True).result()
