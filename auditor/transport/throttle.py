"""Per-register pacing: a concurrency limit plus a minimum interval between request starts.

One `Throttle` per register host (lychee's `Host`). The clock and sleep are injected so tests
never wait: with a fake clock whose `sleep` advances it, pacing is checked exactly.
"""

from __future__ import annotations

import asyncio
import math
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

#: The slowest pace a register's answers (429s, `X-Rate-Limit-*` headers) can push a throttle to,
#: as a fraction of its starting pace: `X-Rate-Limit-Interval: 86400s` must not turn a run into a
#: day. Above the starting pace nothing can push it (the ceiling).
FLOOR_FRACTION = 0.1

#: The longest a single `penalize` can hold a register back (the `Retry-After` cap).
MAX_PENALTY = 30.0


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

    @property
    def min_rate(self) -> float:
        """The floor `limit_to` never goes below."""
        return self.max_rate * FLOOR_FRACTION

    def limit_to(self, rate: float) -> None:
        """Pace at `rate` per second, clamped between `min_rate` and the starting rate.

        A rate that is not a positive finite number (a garbled header) changes nothing.
        """
        if math.isfinite(rate) and rate > 0:
            self.rate = min(self.max_rate, max(self.min_rate, rate))

    def penalize(self, delay: float) -> None:
        """No request starts before `delay` seconds from now (a `Retry-After` answer)."""
        if not math.isfinite(delay):
            return
        until = self._clock() + min(MAX_PENALTY, max(0.0, delay))
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
