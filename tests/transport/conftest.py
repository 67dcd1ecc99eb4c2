"""Shared fakes for transport tests: a clock whose sleep advances it, never waiting."""

from __future__ import annotations

import pytest


class FakeClock:
    """A monotonic clock that only moves when `sleep` is awaited."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
