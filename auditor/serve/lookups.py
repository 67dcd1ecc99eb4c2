"""Register records for the server: answered locally when possible, else shared and batched.

Every `/check` and `/precheck` goes through one `SharedLookups` per process:

1. **local tiers first**: the snapshot (joined for the identifiers asked) and the cache answer at
   once, without waiting for any register, so a slow register never delays what they already
   know (both are read for every request of one loop turn in one offline resolve call);
2. **one lookup per identifier**: a request whose identifier is already being looked up waits for
   that lookup instead of starting another;
3. **batched like the audit**: identifiers arriving within a short window (`WINDOW` seconds) go to
   the resolve stage together, one batch per identifier type, so forty DOIs asked at once cost
   the Crossref requests an audit of forty DOIs costs, paced by the process's one `Net`;
4. **bounded per caller**: at most `caller_concurrency` live lookups of one caller wait at once;
   the others queue behind them (a caller cannot fill the batches alone).

Only register records pass through here; the claimed title, authors and year never do.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pyarrow as pa

from auditor.errors import Reason
from auditor.registers.interface import RecordRow
from auditor.registers.records import now_iso
from auditor.resolve import resolve
from auditor.serve.coalesce import Coalescer
from auditor.settings import Settings
from auditor.tables import REGISTER_FOR_ID_TYPE, RecordStatus
from auditor.transport.net import Net

__all__ = ["MAX_BATCH", "WINDOW", "SharedLookups"]

#: Seconds a batch stays open for more identifiers after its first one arrives.
WINDOW = 0.025
#: A batch this large is sent at once, without waiting for the window to close.
MAX_BATCH = 200

Key = tuple[str, str]


def _key(references: pa.Table) -> Key:
    ref = references.select(["id_type", "identifier"]).to_pylist()[0]
    return str(ref["id_type"]), str(ref["identifier"])


def _failed(key: Key) -> RecordRow:
    return {
        # the register that answers the type (a lookup that produced no row at all)
        "register": REGISTER_FOR_ID_TYPE.get(key[0], key[0]),
        "id_type": key[0],
        "identifier": key[1],
        "status": str(RecordStatus.UNREACHABLE),
        "reason": str(Reason.CONNECTION_ERROR),
        "retrieved_at": now_iso(),
    }


class SharedLookups:
    """Record lookups shared by every request of one server process."""

    def __init__(self, settings: Settings, net: Net, *, window: float | None = None) -> None:
        self._settings = settings
        # The local pass asks snapshot and cache; the live batches skip the snapshot (asked).
        self._local = dataclasses.replace(settings, offline=True)
        self._live = dataclasses.replace(settings, snapshots=())
        self._net = net
        self._window = WINDOW if window is None else window
        self._inflight: dict[Key, asyncio.Future[RecordRow]] = {}
        self._pending: dict[str, list[tuple[Key, pa.Table]]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._callers: dict[str, tuple[asyncio.Semaphore, int]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches = 0
        """Batches sent to the resolve stage (for tests and the benchmark)."""
        self.shared = 0
        """Requests that joined a lookup already in flight."""
        self._local_lookups = Coalescer(self._local_many)

    async def _local_many(self, many: Sequence[pa.Table]) -> list[RecordRow]:
        """Cache answers (or `offline` misses) for many one-row tables, in one resolve call."""
        records = await resolve(pa.concat_tables(many), self._local, self._net)
        rows = {(r["id_type"], r["identifier"]): r for r in records.to_pylist()}
        return [dict(rows[_key(refs)]) for refs in many]

    async def record(self, references: pa.Table, caller: str) -> RecordRow:
        """The `RECORDS` row for the identifier of the one-row classified `references`."""
        key = _key(references)
        local = await self._local_lookups.submit(references)
        missed = local["status"] == RecordStatus.UNREACHABLE and local["reason"] == Reason.OFFLINE
        if not missed or self._settings.offline:
            return dict(local)
        async with self._slot(caller):
            return dict(await asyncio.shield(self._join(key, references)))

    def _join(self, key: Key, references: pa.Table) -> asyncio.Future[RecordRow]:
        running = self._inflight.get(key)
        if running is not None:
            self.shared += 1
            return running
        future: asyncio.Future[RecordRow] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        batch = self._pending.setdefault(key[0], [])
        batch.append((key, references))
        if len(batch) >= MAX_BATCH:
            self._flush(key[0])
        elif key[0] not in self._timers:
            loop = asyncio.get_running_loop()
            self._timers[key[0]] = loop.call_later(self._window, self._flush, key[0])
        return future

    def _flush(self, id_type: str) -> None:
        timer = self._timers.pop(id_type, None)
        if timer is not None:
            timer.cancel()
        batch = self._pending.pop(id_type, [])
        if batch:
            task = asyncio.get_running_loop().create_task(self._send(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _send(self, batch: list[tuple[Key, pa.Table]]) -> None:
        self.batches += 1
        rows: dict[Key, dict[str, Any]] = {}
        try:
            table = pa.concat_tables([refs for _, refs in batch])
            records = await resolve(table, self._live, self._net)
            rows = {(r["id_type"], r["identifier"]): r for r in records.to_pylist()}
        except Exception:  # resolve never raises for a register; anything else is ours to report
            rows = {}
        finally:
            # Also when cancelled (shutdown): every waiter gets an answer, never a hang.
            for key, _ in batch:
                future = self._inflight.pop(key, None)
                if future is not None and not future.done():
                    future.set_result(rows.get(key) or _failed(key))

    @asynccontextmanager
    async def _slot(self, caller: str) -> AsyncIterator[None]:
        semaphore, users = self._callers.get(caller) or (
            asyncio.Semaphore(max(1, self._settings.caller_concurrency)),
            0,
        )
        self._callers[caller] = (semaphore, users + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, users = self._callers[caller]
            if users <= 1:
                del self._callers[caller]
            else:
                self._callers[caller] = (semaphore, users - 1)

    async def close(self) -> None:
        """Stop: batches in flight are cancelled (their requests are gone with the server)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._pending.clear()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
