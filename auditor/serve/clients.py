"""Per-client bounds of `auditor serve`: requests in flight, and fair turns for upload audits.

A client is `gates.client_key(request)`: its token's name, else its remote address.

- `InFlight(limit)`: at most `limit` requests of one client waiting or running at once; one more
  is refused at once (429 with `Retry-After`) before its body is read, so twelve queued uploads
  never sit in memory;
- `FairTurns`: upload audits run one at a time, the turn passing from client to client in
  rotation, so a client with four uploads queued delays another's one upload by at most one
  audit, not four.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["RETRY_AFTER_BUSY", "Busy", "FairTurns", "InFlight"]

#: Seconds a client over its in-flight bound is told to wait.
RETRY_AFTER_BUSY = 5


class Busy(Exception):
    """The client has as many requests in flight as it may."""


class InFlight:
    """Requests in flight per client, at most `limit` each."""

    def __init__(self, limit: int) -> None:
        self._limit = max(1, limit)
        self._count: dict[str, int] = {}

    def count(self, client: str) -> int:
        """Requests of `client` in flight now."""
        return self._count.get(client, 0)

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Hold one of `client`'s slots for the block; `Busy` at once when none is free."""
        if self._count.get(client, 0) >= self._limit:
            raise Busy(f"at most {self._limit} requests of one client at once")
        self._count[client] = self._count.get(client, 0) + 1
        try:
            yield
        finally:
            left = self._count[client] - 1
            if left:
                self._count[client] = left
            else:
                del self._count[client]


class FairTurns:
    """One holder at a time; waiting clients are served in rotation, each in its own order."""

    def __init__(self) -> None:
        self._busy = False
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Wait for `client`'s turn and hold it for the block."""
        if self._busy or self._waiting:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(future)
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._next()  # the turn was given to us as we left: pass it on
                else:
                    self._forget(client, future)
                raise
        else:
            self._busy = True
        try:
            yield
        finally:
            self._next()

    def _forget(self, client: str, future: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None and future in queue:
            queue.remove(future)
            if not queue:
                del self._waiting[client]

    def _next(self) -> None:
        """Give the turn to the first waiting client (which then goes to the back)."""
        while self._waiting:
            client, queue = next(iter(self._waiting.items()))
            future = queue.popleft()
            del self._waiting[client]
            if queue:
                self._waiting[client] = queue  # back of the rotation
            if not future.done():
                future.set_result(None)
                return
        self._busy = False
