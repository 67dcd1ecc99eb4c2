"""`Net.get` over real aiohttp traffic to a loopback server written here (127.0.0.1 only)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from auditor.errors import MalformedBody, RateLimited, Reason, Unreachable, UnsafeRedirect
from auditor.registers import registry
from auditor.settings import Settings
from auditor.transport.net import open_net


class Script:
    """Per-path scripted answers, consumed in order; the last one repeats."""

    def __init__(self) -> None:
        self.answers: dict[str, list[str]] = {}
        self.seen: list[web.Request] = []
        self.release = asyncio.Event()


SCRIPT: web.AppKey[Script] = web.AppKey("script", Script)


async def _handler(request: web.Request) -> web.StreamResponse:
    script = request.app[SCRIPT]
    script.seen.append(request)
    queue = script.answers.get(request.path, ["ok"])
    kind = queue.pop(0) if len(queue) > 1 else queue[0]
    if kind == "ok":
        return web.json_response({"ok": True, "q": dict(request.query)})
    if kind == "503":
        return web.Response(status=503, text="busy")
    if kind == "404":
        return web.Response(status=404, text="Resource not found.")
    if kind == "429":
        return web.Response(status=429, headers={"Retry-After": "2"})
    if kind == "slow":
        await script.release.wait()
        return web.Response(text="late")
    if kind == "reset":
        assert request.transport is not None
        request.transport.close()
        return web.Response(text="never")
    if kind == "truncated":
        resp = web.StreamResponse(headers={"Content-Length": "1000"})
        await resp.prepare(request)
        await resp.write(b'{"partial": ')
        assert request.transport is not None
        request.transport.close()
        return resp
    if kind == "big":
        return web.Response(body=b"x" * 5000)
    if kind == "badlength":
        resp = web.StreamResponse(headers={"Content-Length": "12"})
        resp.headers["Content-Length"] = "12"
        await resp.prepare(request)
        await resp.write(b"{}" + b" " * 10)
        return resp
    if kind == "redirect_local":
        raise web.HTTPFound("/target")
    if kind == "redirect_ip":
        raise web.HTTPFound("http://122.115.55.36:8000/doi/x")
    if kind == "redirect_garbage":
        return web.Response(status=302, headers={"Location": "http://[::1"})
    if kind == "crossref_day":
        return web.json_response(
            {}, headers={"X-Rate-Limit-Limit": "1", "X-Rate-Limit-Interval": "86400s"}
        )
    if kind == "429_long":
        return web.Response(status=429, headers={"Retry-After": "29"})
    if kind == "deep":
        return web.Response(body=b"[" * 100_000 + b"]" * 100_000, content_type="application/json")
    if kind == "crossref_headers":
        return web.json_response(
            {}, headers={"X-Rate-Limit-Limit": "4", "X-Rate-Limit-Interval": "1s"}
        )
    raise AssertionError(kind)


@pytest.fixture
async def server() -> AsyncIterator[tuple[TestServer, Script]]:
    app = web.Application()
    script = Script()
    app[SCRIPT] = script
    app.router.add_route("*", "/{tail:.*}", _handler)
    srv = TestServer(app, host="127.0.0.1")
    await srv.start_server()
    yield srv, script
    script.release.set()
    await srv.close()


def _settings(srv: TestServer, tmp_path, **kw) -> Settings:
    base = str(srv.make_url("")).rstrip("/")
    values = {
        "crossref_url": base,
        "eutils_url": base,
        "arxiv_url": base,
        "doi_url": base,
        "handle_url": base,
        "cache_dir": str(tmp_path / "cache"),
        "mailto": "ops@example.org",
        "ncbi_email": "ops@example.org",
        "ncbi_api_key": "k",
        "max_retries": 3,
    }
    values.update(kw)
    return registry.settings(**values)


async def test_ok_identifies_itself(server, tmp_path, clock):
    srv, script = server
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        resp = await net.get(
            "ncbi", f"{settings.registers['ncbi'].url}/esummary.fcgi", params={"id": "1"}
        )
    assert resp.status == 200 and resp.json()["ok"] is True
    assert resp.content_type == "application/json"
    request = script.seen[0]
    assert request.headers["User-Agent"].startswith("auditor/")
    assert "mailto" not in request.headers["User-Agent"]  # NCBI gets its own tool/email
    assert request.query["tool"] == "auditor"
    assert request.query["email"] == "ops@example.org"
    assert request.query["api_key"] == "k"
    assert net.requests == {"ncbi": 1}


async def test_only_a_host_that_asks_for_it_receives_the_mailto(server, tmp_path, clock):
    srv, script = server
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        for host in ("crossref", "arxiv", "doi", "handle"):
            await net.get(host, f"{settings.registers['crossref'].url}/{host}")
    agents = {r.path.strip("/"): r.headers["User-Agent"] for r in script.seen}
    assert "mailto:ops@example.org" in agents["crossref"]
    assert all("mailto" not in agents[h] for h in ("arxiv", "doi", "handle"))
    assert all("tool" not in r.query for r in script.seen)  # NCBI's parameters stay NCBI's


async def test_post_sends_the_form_and_get_never_posts(server, tmp_path, clock):
    srv, script = server
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        await net.post(
            "ncbi", f"{settings.registers['ncbi'].url}/esummary.fcgi", form={"id": "1,2"}
        )
        await net.get("ncbi", f"{settings.registers['ncbi'].url}/esummary.fcgi", params={"id": "3"})
    assert [r.method for r in script.seen] == ["POST", "GET"]
    assert script.seen[0].query["tool"] == "auditor"  # identification rides on the URL


async def test_5xx_is_retried_then_succeeds(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["503", "503", "ok"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        resp = await net.get("crossref", f"{settings.registers['crossref'].url}/x")
    assert resp.status == 200
    assert len(script.seen) == 3
    assert len([s for s in clock.sleeps if s >= 0.25]) >= 2  # backoff waited (fake clock)


@pytest.mark.parametrize(
    ("answer", "error", "reason"),
    [
        ("503", Unreachable, Reason.HTTP_5XX),
        ("429", RateLimited, Reason.RATE_LIMITED),
        ("reset", Unreachable, Reason.CONNECTION_ERROR),
        ("truncated", Unreachable, Reason.CONNECTION_ERROR),
        ("big", MalformedBody, Reason.BODY_TOO_LARGE),
        ("redirect_ip", UnsafeRedirect, Reason.UNSAFE_REDIRECT),
    ],
)
async def test_faults_raise_with_a_reason(server, tmp_path, clock, answer, error, reason):
    srv, script = server
    script.answers["/x"] = [answer]
    settings = _settings(srv, tmp_path, max_body_bytes=1000)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with pytest.raises(error) as info:
            await net.get("doi", f"{settings.registers['doi'].url}/x", follow_redirects=True)
    assert info.value.reason is reason


async def test_timeout_is_unreachable_timeout(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["slow"]
    # A 1e-6 s limit (httpx's idiom): the attempt times out at once, whatever phase it is in.
    settings = _settings(srv, tmp_path, timeout=1e-6, max_retries=1)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with pytest.raises(Unreachable) as info:
            await net.get("handle", f"{settings.registers['handle'].url}/x")
        assert net.requests == {"handle": 2}  # tried, retried once, given up
    assert info.value.reason is Reason.TIMEOUT


async def test_timeout_bounds_one_attempt_to_the_last_byte(server, tmp_path, clock):
    """`--timeout` is the whole attempt (connect to the last body byte), not twice it."""
    srv, _ = server
    settings = _settings(srv, tmp_path, timeout=7.5)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        assert net.session is not None
        assert net.session.timeout.total == 7.5


async def test_retry_after_paces_the_register(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["429", "ok"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        await net.get("arxiv", f"{settings.registers['arxiv'].url}/x")
        starts = net.throttles["arxiv"].starts
        assert net.throttles["arxiv"].rate < net.throttles["arxiv"].max_rate  # slowed down
    assert starts[1] - starts[0] >= 2.0


async def test_404_is_an_answer_not_a_fault(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["404"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        resp = await net.get("crossref", f"{settings.registers['crossref'].url}/x")
    assert resp.status == 404 and resp.body == b"Resource not found."
    assert len(script.seen) == 1


async def test_redirect_followed_only_when_asked(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["redirect_local"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        hop = await net.get("doi", f"{settings.registers['doi'].url}/x")
        assert hop.status == 302
        resp = await net.get("doi", f"{settings.registers['doi'].url}/x", follow_redirects=True)
    assert resp.status == 200 and resp.url.endswith("/target")


async def test_unsafe_request_url_is_refused_before_sending(server, tmp_path, clock):
    srv, script = server
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with pytest.raises(UnsafeRedirect):
            await net.get("doi", "http://122.115.55.36:8000/doi/x")
    assert script.seen == []


async def test_offline_opens_no_socket(tmp_path, clock):
    settings = registry.settings(offline=True, cache_dir=str(tmp_path / "c"))
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        assert net.session is None
        with pytest.raises(Unreachable) as info:
            await net.get("crossref", "https://api.crossref.org/works/10.1/x")
    assert info.value.reason is Reason.OFFLINE


async def test_crossref_headers_lower_the_pace(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["crossref_headers"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        assert net.throttles["crossref"].rate == 10.0  # with a mailto
        await net.get("crossref", f"{settings.registers['crossref'].url}/x")
        assert net.throttles["crossref"].rate == 4.0


async def test_crossref_starts_at_five_without_mailto(tmp_path, clock):
    settings = registry.settings(cache_dir=str(tmp_path / "c"))
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        assert net.throttles["crossref"].rate == 5.0
        assert net.throttles["arxiv"].interval >= 3.0
        assert net.throttles["arxiv"].concurrency == 1
        assert net.throttles["ncbi"].rate == 3.0


async def test_ncbi_rate_is_capped_by_the_api_key(tmp_path, clock):
    for key, asked, expected in [(None, 10.0, 3.0), ("k", 10.0, 10.0), ("k", 20.0, 10.0)]:
        settings = registry.settings(
            cache_dir=str(tmp_path / "c"), ncbi_api_key=key, ncbi_rate=asked
        )
        async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
            assert net.throttles["ncbi"].rate == expected


@pytest.mark.parametrize("body", [b"NaN", b'{"a": Infinity}', b"\xff", b"[" * 100 + b"]" * 100])
def test_response_json_is_strict(body):
    from auditor.transport.net import Response

    with pytest.raises(MalformedBody):
        Response(200, {}, body, "u").json()


def test_response_json_refuses_deep_nesting_without_a_recursion_error():
    from auditor.transport.net import Response

    with pytest.raises(MalformedBody):
        Response(200, {}, b"[" * 5000 + b"]" * 5000, "u").json()


def test_response_json_caps_size_when_asked():
    from auditor.transport.net import Response

    with pytest.raises(MalformedBody) as info:
        Response(200, {}, b" " * 11, "u").json(max_bytes=10)
    assert info.value.reason is Reason.BODY_TOO_LARGE


async def test_garbage_redirect_is_unsafe_not_valueerror(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["redirect_garbage"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with pytest.raises(UnsafeRedirect) as info:
            await net.get("doi", f"{settings.registers['doi'].url}/x", follow_redirects=True)
    assert info.value.reason is Reason.UNSAFE_REDIRECT


async def test_deep_json_is_malformed_body(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["deep"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        resp = await net.get("crossref", f"{settings.registers['crossref'].url}/x")
        with pytest.raises(MalformedBody):
            resp.json()


async def test_rate_headers_cannot_slow_a_register_below_its_floor(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["crossref_day"]
    settings = _settings(srv, tmp_path)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        await net.get("crossref", f"{settings.registers['crossref'].url}/x")
        throttle = net.throttles["crossref"]
        assert throttle.rate == pytest.approx(throttle.min_rate)
        assert throttle.interval < 2.0  # 10/s with a mailto: floor 1/s, not one a day


async def test_retry_budget_bounds_the_waits_of_a_run(server, tmp_path, clock):
    srv, script = server
    script.answers["/x"] = ["429_long"]
    settings = _settings(srv, tmp_path, max_retries=10)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        net.retry_budget = 60.0
        for _ in range(3):
            with pytest.raises(RateLimited) as info:
                await net.get("crossref", f"{settings.registers['crossref'].url}/x")
            assert info.value.reason is Reason.RATE_LIMITED
        assert net.lost["crossref"] <= 60.0
    # 29 s asked each time: two waits fit the budget, then every request fails at once
    assert sum(s for s in clock.sleeps if s >= 1) <= 60.0 + 30.0
    assert len(script.seen) <= 3 + 2


async def test_time_lost_to_failed_attempts_counts_toward_the_budget(server, tmp_path, clock):
    import time

    srv, script = server
    script.answers["/x"] = ["slow"]
    settings = _settings(srv, tmp_path, timeout=0.05, max_retries=50, retry_budget=0.2)
    # A real clock for the attempts (each times out after 0.05 s), no real backoff waits.
    async with open_net(settings, registry.hosts(), clock=time.monotonic, sleep=clock.sleep) as net:
        with pytest.raises(Unreachable) as info:
            await net.get("handle", f"{settings.registers['handle'].url}/x")
    assert info.value.reason is Reason.TIMEOUT
    assert len(script.seen) < 10  # not 51 attempts: the budget stopped the retries


# ------------------------------------------------ the retry budget: one per host per batch


async def test_a_hostile_register_spends_only_its_own_budget(server, tmp_path, clock):
    srv, script = server
    script.answers["/hostile"] = ["429_long"]  # Retry-After 29 s, every time
    script.answers["/flaky"] = ["503", "ok"]  # one failure, then the answer
    settings = _settings(srv, tmp_path, max_retries=10, retry_budget=60.0)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        with net.retry_batch():
            for _ in range(3):
                with pytest.raises(RateLimited):
                    await net.get("crossref", f"{settings.registers['crossref'].url}/hostile")
            # Crossref's 60 s are spent; PubMed's are not: its one failure is retried.
            resp = await net.get("ncbi", f"{settings.registers['ncbi'].url}/flaky")
    assert resp.status == 200
    assert len([r for r in script.seen if r.path == "/flaky"]) == 2
    assert len([r for r in script.seen if r.path == "/hostile"]) <= 3 + 2


async def test_each_register_batch_has_a_fresh_budget(server, tmp_path, clock):
    srv, script = server
    script.answers["/hostile"] = ["429_long"]
    settings = _settings(srv, tmp_path, max_retries=10, retry_budget=60.0)
    per_batch: list[int] = []
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        for _ in range(2):  # e.g. two batches of a long-lived server's Net
            before = len(script.seen)
            with net.retry_batch():
                for _ in range(3):
                    with pytest.raises(RateLimited):
                        await net.get("crossref", f"{settings.registers['crossref'].url}/hostile")
            per_batch.append(len(script.seen) - before)
        # Within a batch the budget holds: 29 s a wait, two waits fit in 60 s.
        assert per_batch == [5, 5]
    assert sum(s for s in clock.sleeps if s >= 1) <= 2 * (60.0 + 30.0)


async def test_tasks_of_one_batch_share_its_budget(server, tmp_path, clock):
    srv, script = server
    script.answers["/hostile"] = ["429_long"]
    settings = _settings(srv, tmp_path, max_retries=10, retry_budget=60.0)
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:

        async def ask() -> None:
            with pytest.raises(RateLimited):
                await net.get("crossref", f"{settings.registers['crossref'].url}/hostile")

        with net.retry_batch():
            await asyncio.gather(*(ask() for _ in range(4)))
    # Four concurrent requests, one 60 s allowance: at most two 29 s waits between them
    # (a wait already decided when the budget ran out may add one more).
    assert len(script.seen) <= 4 + 3


async def test_every_resolve_call_is_a_batch_of_its_own(server, tmp_path, clock):
    """A server's `Net` lives for the whole process: each resolve call (each coalesced batch of
    requests) gets its budget back, so a bad hour does not stop retries for good."""
    from auditor.resolve import resolve
    from auditor.tables import REFERENCES, from_rows

    srv, script = server
    doi = "10.5555/busy"
    script.answers[f"/works/{doi}"] = ["429_long"]
    settings = _settings(srv, tmp_path, max_retries=10, retry_budget=60.0, refresh=True)
    refs = from_rows(
        [{"row_id": 0, "source_path": "a.bib", "title": "T", "id_type": "doi", "identifier": doi}],
        REFERENCES,
    )
    counts = []
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        for _ in range(2):
            before = len(script.seen)
            records = await resolve(refs, settings, net)
            counts.append(len(script.seen) - before)
            assert records["reason"].to_pylist() == ["rate_limited"]
    assert counts == [3, 3]  # 29 s, 29 s, then the batch's 60 s are spent: the same each time
