"""Rate limits: a sliding window per service, 429 with `Retry-After`, counted; never waits."""

from __future__ import annotations

import aiohttp

from auditor.emulator import Emulator, EmulatorConfig
from auditor.emulator.ratelimit import RateLimiter, SlidingWindow, retry_after_header
from tests.emulator.conftest import DOI


def test_window_admits_limit_then_refuses_until_the_oldest_leaves() -> None:
    window = SlidingWindow(limit=3, per=1.0)
    assert [window.admit(t) for t in (0.0, 0.1, 0.2)] == [None, None, None]
    wait = window.admit(0.5)
    assert wait is not None
    assert abs(wait - 0.5) < 1e-9
    assert window.admit(1.0) is None  # the request at 0.0 has left the window


def test_refused_requests_do_not_use_the_window() -> None:
    window = SlidingWindow(limit=1, per=3.0)
    assert window.admit(0.0) is None
    for t in (0.5, 1.0, 2.9):
        assert window.admit(t) is not None
    assert window.admit(3.0) is None


def test_tolerance_forgives_early_arrival_jitter() -> None:
    strict = SlidingWindow(limit=1, per=3.0)
    lenient = SlidingWindow(limit=1, per=3.0)
    assert strict.admit(0.0) is None and lenient.admit(0.0) is None
    assert strict.admit(2.99) is not None
    assert lenient.admit(2.99, tolerance=0.02) is None


def test_pacing_exactly_at_the_limit_is_never_refused() -> None:
    limiter = RateLimiter()
    limits = {"crossref": (10, 1.0)}
    # 1e-9 of tolerance absorbs float error in i * 0.1, nothing more.
    refused = [limiter.check("crossref", limits, i * 0.1, 1e-9) for i in range(100)]
    assert refused == [None] * 100


def test_changing_the_limit_starts_a_new_window() -> None:
    limiter = RateLimiter()
    assert limiter.check("eutils", {"eutils": (1, 60.0)}, 0.0, 0.0) is None
    assert limiter.check("eutils", {"eutils": (1, 60.0)}, 1.0, 0.0) is not None
    assert limiter.check("eutils", {"eutils": (2, 60.0)}, 1.0, 0.0) is None
    assert limiter.check("eutils", {}, 1.0, 0.0) is None  # no limit configured


def test_retry_after_is_whole_seconds_at_least_one() -> None:
    assert retry_after_header(0.0) == "1"
    assert retry_after_header(1.2) == "2"
    assert retry_after_header(3.0) == "3"


async def test_emulator_answers_429_over_the_limit_and_counts_it(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    # A one-minute window: the third request is refused without the test waiting.
    emu.config = EmulatorConfig(rate_limits={"crossref": (2, 60.0)})
    url = f"{emu.base_urls['crossref_url']}/works/{DOI}"
    statuses = []
    for _ in range(3):
        async with http.get(url) as resp:
            statuses.append(resp.status)
            retry_after = resp.headers.get("Retry-After")
            assert resp.headers["X-Rate-Limit-Limit"] == "2"
            assert resp.headers["X-Rate-Limit-Interval"] == "60s"
    assert statuses == [200, 200, 429]
    assert retry_after is not None and 55 <= int(retry_after) <= 60
    assert emu.count_429 == 1
    assert emu.count_429_by_service == {"crossref": 1}
    assert [e.status for e in emu.log] == [200, 200, 429]
    assert emu.log[0].arrived <= emu.log[1].arrived <= emu.log[2].arrived
    assert emu.counts["crossref_work"] == 3
    # Other services have their own windows.
    async with http.get(f"{emu.base_urls['handle_url']}/api/handles/{DOI}") as resp:
        assert resp.status == 200


async def test_eutils_limit_covers_esummary_and_esearch_together(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config = EmulatorConfig(rate_limits={"eutils": (1, 60.0)}, retry_after=7)
    base = emu.base_urls["eutils_url"]
    async with http.get(f"{base}/esummary.fcgi", params={"db": "pubmed", "id": "1"}) as resp:
        assert resp.status == 200
    async with http.get(f"{base}/esearch.fcgi", params={"db": "pubmed", "term": "x"}) as resp:
        assert resp.status == 429
        assert resp.headers["Retry-After"] == "7"
        assert (await resp.json())["error"] == "API rate limit exceeded"


async def test_reset_counts_zeroes_counts_log_and_windows(
    emu: Emulator, http: aiohttp.ClientSession
) -> None:
    emu.config = EmulatorConfig(rate_limits={"crossref": (1, 60.0)})
    url = f"{emu.base_urls['crossref_url']}/works/{DOI}"
    for _ in range(2):
        async with http.get(url):
            pass
    assert (emu.total_requests, emu.count_429) == (2, 1)
    emu.reset_counts()
    assert (emu.total_requests, emu.count_429, emu.log) == (0, 0, [])
    async with http.get(url) as resp:
        assert resp.status == 200
