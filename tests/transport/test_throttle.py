from __future__ import annotations

import asyncio

import pytest

from auditor.transport.throttle import SAFETY, Throttle


async def test_starts_are_paced_by_the_rate(clock):
    throttle = Throttle("ncbi", 3.0, 3, clock=clock, sleep=clock.sleep)
    for _ in range(7):
        async with throttle.slot():
            pass
    gaps = [b - a for a, b in zip(throttle.starts, throttle.starts[1:], strict=False)]
    assert all(gap >= SAFETY / 3.0 - 1e-9 for gap in gaps)
    assert throttle.starts[-1] - throttle.starts[0] == pytest.approx(6 * SAFETY / 3.0)


async def test_concurrent_callers_never_exceed_the_rate(clock):
    throttle = Throttle("crossref", 10.0, 4, clock=clock, sleep=clock.sleep)
    in_flight = 0
    peak = 0

    async def call() -> None:
        nonlocal in_flight, peak
        async with throttle.slot():
            in_flight += 1
            peak = max(peak, in_flight)
            await clock.sleep(0.5)
            in_flight -= 1

    await asyncio.gather(*(call() for _ in range(20)))
    assert peak <= 4
    starts = sorted(throttle.starts)
    # in any one-second window at most 10 starts
    for i, t in enumerate(starts):
        assert sum(1 for s in starts[i:] if s < t + 1.0) <= 10


async def test_penalize_pushes_the_next_start(clock):
    throttle = Throttle("arxiv", 1 / 3, 1, clock=clock, sleep=clock.sleep)
    async with throttle.slot():
        pass
    throttle.penalize(10.0)
    async with throttle.slot():
        pass
    assert throttle.starts[1] - throttle.starts[0] == pytest.approx(10.0)


async def test_limit_to_lowers_but_never_raises(clock):
    throttle = Throttle("crossref", 10.0, 1, clock=clock, sleep=clock.sleep)
    throttle.limit_to(50.0)
    assert throttle.rate == 10.0
    throttle.limit_to(2.0)
    assert throttle.rate == 2.0


def test_rejects_nonsense():
    with pytest.raises(ValueError):
        Throttle("x", 0.0, 1, clock=lambda: 0.0, sleep=asyncio.sleep)


def test_header_paces_are_clamped_between_floor_and_ceiling(clock):
    throttle = Throttle("crossref", 10.0, 4, clock=clock, sleep=clock.sleep)
    throttle.limit_to(1 / 86400)
    assert throttle.rate == pytest.approx(throttle.min_rate) == pytest.approx(1.0)
    throttle.limit_to(1e9)
    assert throttle.rate == 10.0
    for garbage in (float("nan"), float("inf"), -1.0, 0.0):
        throttle.limit_to(garbage)
        assert throttle.rate == 10.0


async def test_penalty_is_capped(clock):
    from auditor.transport.throttle import MAX_PENALTY

    throttle = Throttle("arxiv", 1.0, 1, clock=clock, sleep=clock.sleep)
    throttle.penalize(86400.0)
    throttle.penalize(float("inf"))
    async with throttle.slot():
        pass
    assert sum(clock.sleeps) <= MAX_PENALTY
