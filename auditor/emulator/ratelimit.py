"""Sliding-window rate limiting per service, as the real registers publish their limits.

"10 requests per second" is read strictly: no more than 10 admitted requests in any window of one
second. Rejected requests do not use up the window.
"""

from __future__ import annotations

import math
from collections import deque


class SlidingWindow:
    """Admit at most `limit` requests in any `per`-second window (with `tolerance` of jitter)."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit = limit
        self.per = per
        self._times: deque[float] = deque()

    def admit(self, now: float, tolerance: float = 0.0) -> float | None:
        """Record a request arriving at `now`; None if admitted, else seconds until it would be."""
        horizon = now - self.per + tolerance
        while self._times and self._times[0] <= horizon:
            self._times.popleft()
        if len(self._times) < self.limit:
            self._times.append(now)
            return None
        return max(0.0, self._times[0] - horizon)


class RateLimiter:
    """One `SlidingWindow` per service, rebuilt when a service's limit changes."""

    def __init__(self) -> None:
        self._windows: dict[str, SlidingWindow] = {}

    def check(
        self, service: str, limits: dict[str, tuple[int, float]], now: float, tolerance: float
    ) -> float | None:
        """None if `service` may answer now, else the wait in seconds the 429 should announce."""
        limit = limits.get(service)
        if limit is None:
            return None
        count, per = limit
        window = self._windows.get(service)
        if window is None or (window.limit, window.per) != (count, per):
            window = self._windows[service] = SlidingWindow(count, per)
        return window.admit(now, tolerance)

    def reset(self) -> None:
        """Forget every window (a new measurement starts from an idle server)."""
        self._windows.clear()


def retry_after_header(wait: float) -> str:
    """`Retry-After` is whole seconds (RFC 9110 §10.2.3): round up, at least 1."""
    return str(max(1, math.ceil(wait)))
