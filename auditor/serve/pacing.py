"""The free pre-check's allowance: a minimum interval and a daily count per caller.

The contract gives `/precheck` "100/day per caller wallet, rate-limited (5s minimum interval)";
both numbers are settings (`precheck_daily`, `precheck_interval`). A day is a UTC calendar day.
Only the caller string, its last time and its count are kept, in memory, never the reference.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = ["Allowance", "PrecheckPacer"]


def _utc_day() -> str:
    return datetime.now(UTC).date().isoformat()


@dataclass(frozen=True)
class Allowance:
    """The pacer's answer for one call."""

    allowed: bool
    retry_after: float
    """Seconds until the caller may call again (0 when allowed)."""
    detail: str


class PrecheckPacer:
    """Per-caller minimum interval and daily allowance (clock and day injectable for tests)."""

    def __init__(
        self,
        interval: float,
        daily: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        day: Callable[[], str] = _utc_day,
    ) -> None:
        self._interval = max(0.0, interval)
        self._daily = daily
        self._clock = clock
        self._day = day
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}
        self._counted_day = day()

    def take(self, caller: str) -> Allowance:
        """Count one call of `caller` if its allowance permits it."""
        today = self._day()
        if today != self._counted_day:
            self._counted_day = today
            self._count.clear()
            self._last.clear()
        now = self._clock()
        last = self._last.get(caller)
        if last is not None and now - last < self._interval:
            wait = self._interval - (now - last)
            return Allowance(
                False, wait, f"at most one pre-check every {self._interval:g} s per caller"
            )
        used = self._count.get(caller, 0)
        if used >= self._daily:
            midnight = 86_400 - (time.time() % 86_400)
            return Allowance(
                False, midnight, f"the daily allowance of {self._daily} pre-checks is used up"
            )
        self._last[caller] = now
        self._count[caller] = used + 1
        return Allowance(True, 0.0, "ok")
