"""Per-register pacing: a concurrency limit plus a minimum interval between request starts.

One `Throttle` per register host (lychee's `Host`). The clock and sleep are injected so tests
never wait: with a fake clock whose `sleep` advances it, pacing is checked exactly.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

#: Pace a little under the stated limit: arrival times at the server jitter (event-loop lag on a
#: busy machine, connection set-up), and a limit met exactly on our side can be exceeded on
#: theirs. 3% measured one 429 in 516 unbatched requests on a loaded 2-core machine, and 6%
#: still drew an occasional Crossref 429 right after a connection reset
#: (benchmarks/resolve.py); 10% leaves ~100 ms of slack in a one-second window.
SAFETY = 1.10


class Throttle:
    """Paces request starts for one register host.

    `rate` is requests per second (the minimum interval is `SAFETY / rate`), `concurrency` the
    number of requests in flight at once. `penalize(delay)` pushes the next start back (a 429's
    `Retry-After`); `limit_to(rate)` lowers the pace (Crossref's `X-Rate-Limit-*` headers) and
    never raises it above the starting rate.
    """

    def __init__(
        self,
        name: str,
        rate: float,
        concurrency: int,
        *,
        clock: Clock,
        sleep: Sleep,
    ) -> None:
        if rate <= 0 or concurrency < 1:
            raise ValueError(f"throttle {name}: rate and concurrency must be positive")
        self.name = name
        """The register this throttle paces."""
        self.max_rate = rate
        """The starting pace; header updates never go above it."""
        self.rate = rate
        """Current pace in requests per second."""
        self.concurrency = concurrency
        self._clock = clock
        self._sleep = sleep
        self._semaphore = asyncio.Semaphore(concurrency)
        self._lock = asyncio.Lock()
        self._next_at: float | None = None
        self.starts: list[float] = []
        """Clock readings of every request start, for tests and the progress pace."""

    @property
    def interval(self) -> float:
        """Minimum seconds between two request starts."""
        return SAFETY / self.rate

    def limit_to(self, rate: float) -> None:
        """Pace at `rate` per second at most (never faster than the starting rate)."""
        if rate > 0:
            self.rate = min(self.max_rate, rate)

    def penalize(self, delay: float) -> None:
        """No request starts before `delay` seconds from now (a `Retry-After` answer)."""
        until = self._clock() + max(0.0, delay)
        if self._next_at is None or until > self._next_at:
            self._next_at = until

    async def _wait_turn(self) -> None:
        async with self._lock:
            now = self._clock()
            if self._next_at is not None and self._next_at > now:
                await self._sleep(self._next_at - now)
                now = self._clock()
            self._next_at = max(now, self._next_at or now) + self.interval
            self.starts.append(now)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one concurrency slot, starting no sooner than the pace allows."""
        async with self._semaphore:
            await self._wait_turn()
            yield
