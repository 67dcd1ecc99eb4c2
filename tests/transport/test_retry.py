from __future__ import annotations

import pytest

from auditor.transport.retry import MAX_DELAY, Failure, decide, is_retryable, parse_retry_after


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (Failure(status=429), True),
        (Failure(status=408), True),
        (Failure(status=500), True),
        (Failure(status=503), True),
        (Failure(status=501), False),
        (Failure(status=404), False),
        (Failure(status=400), False),
        (Failure(fault="timeout"), True),
        (Failure(fault="connection"), True),
        (Failure(fault="connect"), False),  # refused, no route, no name: known at once
        (Failure(), False),
    ],
)
def test_retryable(failure, expected):
    assert is_retryable(failure) is expected


def test_backoff_grows_and_is_capped():
    delays = [decide(Failure(status=503), n, 50, rand=lambda: 1.0) for n in range(12)]
    assert delays[0] == pytest.approx(0.5)
    assert delays[1] == pytest.approx(1.0)
    assert max(delays) == MAX_DELAY


def test_jitter_keeps_a_floor():
    assert decide(Failure(status=503), 2, 5, rand=lambda: 0.0) == pytest.approx(1.0)


def test_retry_after_wins_and_too_long_gives_up():
    assert decide(Failure(status=429, retry_after=7.0), 0, 3) == 7.0
    assert decide(Failure(status=429, retry_after=3600.0), 0, 3) is None


def test_stops_after_max_retries():
    assert decide(Failure(status=503), 3, 3) is None
    assert decide(Failure(status=404), 0, 3) is None


def test_parse_retry_after():
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({}) is None
    assert parse_retry_after({"retry-after": "soon"}) is None
    date = {"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}
    when = parse_retry_after(date, now=lambda: 1445412480.0)
    assert when == pytest.approx(10.0)


def test_retry_after_cap_is_documented_and_enforced():
    from auditor.transport.retry import MAX_RETRY_AFTER

    assert MAX_RETRY_AFTER <= 30.0
    assert decide(Failure(status=429, retry_after=MAX_RETRY_AFTER), 0, 3) == MAX_RETRY_AFTER
    assert decide(Failure(status=429, retry_after=119.0), 0, 3) is None
    for garbage in ("nan", "inf", "-inf", "1e999"):
        assert parse_retry_after({"retry-after": garbage}) is None
    assert parse_retry_after({"retry-after": "-5"}) == 0.0
