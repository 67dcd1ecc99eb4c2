"""`auditor serve` safe to expose: hosts, content types, origins, errors, timeouts, queues,
answer size and allowances (#26, 6-12). Time is never waited for: tiny thresholds only."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.emulator import EmulatorConfig
from auditor.errors import ConfigError
from auditor.serve.app import serve
from auditor.serve.bodies import bounded
from auditor.serve.clients import FairTurns
from auditor.settings import Settings
from tests.serve.conftest import Served, check_body, corpus

GOOD = check_body("10.5555/serve.1", "Signed reference checks over HTTP", year=2021)
SECRET = b"SECRET-REQUEST-BYTES-7731"


async def _raw(served: Served, data: bytes, *, head_only: bool = False) -> bytes:
    """Send `data` on a fresh connection; everything the server answers until it closes (or,
    `head_only`, the answer's head: a server waiting for an unsent body does not close)."""
    host, port = served.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(data)
    await writer.drain()
    try:
        if head_only:
            return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


def _host(served: Served) -> str:
    return served.url.removeprefix("http://")


# 6. DNS rebinding: only our own host names are answered.


async def test_a_foreign_host_header_is_421(server_factory: Any) -> None:
    served: Served = await server_factory(allow_host=("auditor.office.example",))
    port = _host(served).split(":")[1]
    for host, status in [
        ("evil.example", 421),
        (f"evil.example:{port}", 421),
        (f"127.0.0.1:{port}", 200),
        (f"localhost:{port}", 200),
        ("auditor.office.example", 200),
    ]:
        async with served.http.get(served.url + "/criteria", headers={"Host": host}) as resp:
            assert resp.status == status, host
    answer = await _raw(served, b"GET /criteria HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert answer.split(b" ")[1] in (b"400", b"421")  # no Host at all: refused too


# 7. No cross-site request: JSON only, own origin only, CORS only when configured.


async def test_check_and_precheck_need_json(served: Served) -> None:
    import json

    text = json.dumps(GOOD)
    for path in ("/check", "/precheck"):
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            status, answer = await served.post(path, text, headers={"Content-Type": kind})
            assert status == 415, (path, kind)
            assert answer["error"] == "unsupported_media_type"
    status, _ = await served.post("/check", text, headers={"Content-Type": "application/json"})
    assert status == 200


async def test_a_foreign_origin_is_refused_and_no_cors_is_sent(served: Served) -> None:
    status, answer = await served.post("/check", GOOD, headers={"Origin": "https://evil.example"})
    assert status == 403 and answer["error"] == "foreign_origin"
    page = {"Origin": "https://evil.example", "Content-Type": "multipart/form-data; boundary=x"}
    async with served.http.post(served.url + "/audit", data=b"--x--", headers=page) as resp:
        assert resp.status == 403  # the upload form cannot be posted from another site either
    async with served.http.post(
        served.url + "/check", json=GOOD, headers={"Origin": f"http://{_host(served)}"}
    ) as resp:
        assert resp.status == 200  # the service's own page
        assert "Access-Control-Allow-Origin" not in resp.headers
    async with served.http.options(
        served.url + "/check", headers={"Origin": f"http://{_host(served)}"}
    ) as resp:
        assert resp.status == 405 and "Access-Control-Allow-Origin" not in resp.headers


async def test_a_configured_origin_gets_cors(server_factory: Any) -> None:
    served: Served = await server_factory(allow_origin=("https://journal.example",))
    origin = {"Origin": "https://journal.example"}
    async with served.http.options(served.url + "/check", headers=origin) as resp:
        assert resp.status == 204
        assert resp.headers["Access-Control-Allow-Origin"] == "https://journal.example"
    async with served.http.post(served.url + "/check", json=GOOD, headers=origin) as resp:
        assert resp.status == 200
        assert resp.headers["Access-Control-Allow-Origin"] == "https://journal.example"
    status, _ = await served.post("/check", GOOD, headers={"Origin": "https://other.example"})
    assert status == 403


# 8. A malformed request: no traceback, no request bytes, in the log or the answer.


async def test_a_malformed_request_is_400_and_logs_nothing_of_it(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    # aiohttp answers with its parser's message (the sender's own bytes, as text/plain, then
    # closes); no documented hook changes that answer, so only the log is promised clean.
    caplog.set_level(logging.DEBUG)
    bad = [
        b"GARBAGE " + SECRET + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /criteria HTTP/1.1\r\nHost: 127.0.0.1\r\nX-" + SECRET + b"\x01: v\r\n\r\n",
        b"GET /" + SECRET + b"\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x" + SECRET + b"\r\n\r\n",
    ]
    for data in bad:
        answer = await _raw(served, data)
        assert answer.split(b" ")[1] == b"400", answer[:80]
        assert b"Content-Type: text/plain" in answer.split(b"\r\n\r\n")[0]
    logged = "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
    assert SECRET.decode() not in logged
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in caplog.text
    assert "request refused (" in logged  # one line naming the error's type


async def test_an_error_inside_a_handler_logs_its_type_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from auditor.serve.guard import HTTP_LOG

    caplog.set_level(logging.DEBUG)
    try:
        raise ValueError(SECRET.decode())
    except ValueError as exc:
        HTTP_LOG.exception("Error handling request from %s", SECRET.decode(), exc_info=exc)
    assert SECRET.decode() not in caplog.text and "Traceback" not in caplog.text
    assert [r.getMessage() for r in caplog.records] == ["request refused (ValueError)"]


# 9. Timeouts and a per-address connection cap.


async def test_a_half_sent_head_is_closed_after_the_timeout(server_factory: Any) -> None:
    served: Served = await server_factory(client_timeout=0.05)
    answer = await _raw(served, b"GET /criteria HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    assert answer == b""  # closed by the server (the 10 s bound of `_raw` was not reached)


async def test_a_body_that_never_arrives_is_408(server_factory: Any) -> None:
    served: Served = await server_factory(client_timeout=0.05)
    head = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 500\r\nConnection: close\r\n\r\n{"reference":'
    )
    answer = await _raw(served, head)
    assert answer.startswith(b"HTTP/1.1 408")


async def test_a_connection_over_the_per_address_cap_gets_429_with_retry_after(
    server_factory: Any,
) -> None:
    served: Served = await server_factory(client_connections=2)
    host, port = _host(served).split(":")
    held = [await asyncio.open_connection(host, int(port)) for _ in range(2)]
    reader, writer = await asyncio.open_connection(host, int(port))
    answer = await asyncio.wait_for(reader.read(), 10)  # answered before it sent a byte
    assert answer.startswith(b"HTTP/1.1 429 "), answer[:80]
    head = answer.split(b"\r\n\r\n")[0]
    assert b"\r\nRetry-After: 1" in head and b"Connection: close" in head
    writer.close()
    r, w = held[0]
    w.write(b"GET /criteria HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert (await asyncio.wait_for(r.read(), 10)).startswith(b"HTTP/1.1 200")
    for _, w in held:
        w.close()


async def test_a_slot_freed_by_a_closed_connection_is_taken_again(server_factory: Any) -> None:
    served: Served = await server_factory(client_connections=1)
    for _ in range(3):  # each connection ends before the next opens: never over the cap
        answer = await _raw(
            served, b"GET /criteria HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]


def test_the_service_uses_only_aiohttps_documented_names() -> None:
    # #37: no private module, no subclass of an aiohttp class, no private member.
    import ast

    import auditor

    root = Path(auditor.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aiohttp_names = {"aiohttp", "web"}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("aiohttp."):
                assert node.module == "aiohttp.web", f"{path}: from {node.module} import"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("aiohttp") or alias.name in (
                        "aiohttp",
                        "aiohttp.web",
                    ), f"{path}: {alias.name}"
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    text = ast.unparse(base)
                    assert text.split(".")[0] not in aiohttp_names, f"{path}: {node.name}({text})"
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                owner = ast.unparse(node.value)
                assert owner not in ("site", "runner", "server", "aiohttp", "web"), (
                    f"{path}: {owner}.{node.attr}"
                )


# 10. Queues: a bound per client, refused before the body is read; fair turns; threads.


async def _until(predicate: Any) -> None:
    for _ in range(1000):
        if predicate():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never happened")


async def test_a_client_over_its_queue_bound_gets_429_before_its_body_is_read(
    server_factory: Any,
) -> None:
    served: Served = await server_factory(
        corpus(extra=1), config=EmulatorConfig(latency=0.5), client_queue=1
    )
    first = asyncio.create_task(served.post("/check", check_body("10.5555/bulk.0", "Bulk")))
    await _until(lambda: served.emu.counts.total() > 0)  # the first one is in its lookup
    head = (
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 400\r\nConnection: close\r\n\r\n"
    )
    answer = await _raw(served, head, head_only=True)  # no body byte was ever sent
    assert answer.startswith(b"HTTP/1.1 429") and b"Retry-After: " in answer
    assert (await first)[0] == 200
    assert (await served.post("/check", GOOD))[0] == 200  # the slot is free again


async def test_turns_pass_from_client_to_client() -> None:
    turns = FairTurns()
    order: list[str] = []
    gate = asyncio.Event()

    async def job(client: str, n: int) -> None:
        async with turns.turn(client):
            if not order:
                await gate.wait()
            order.append(f"{client}{n}")

    tasks = [asyncio.create_task(job("a", i)) for i in range(4)]
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(job("b", 0)))
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    assert order == ["a0", "a1", "b0", "a2", "a3"]  # b waits one audit of a's, not four


async def test_table_stages_run_off_the_event_loop(
    server_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `/check` runs `stages.audit_tables`, whose CPU stages (compare, the checklist) each run
    # in a worker thread: the comparison is watched where the stage order calls it.
    import auditor.stages as stages

    threads: list[str] = []
    real = stages.compare

    def compare(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(stages, "compare", compare)
    served: Served = await server_factory()
    assert (await served.post("/check", GOOD))[0] == 200
    assert threads and threading.main_thread().name not in threads


# 11. A bounded answer.


def test_answers_cut_every_string_and_list() -> None:
    record = {"title": "t" * 1_000_000, "authors": ["a"] * 50_000, "year": 2020}
    cut = bounded({"record": record})["record"]
    assert len(cut["title"]) == 65_536 and len(cut["authors"]) == 10_000 and cut["year"] == 2020


# 12. Allowances keyed on what the client cannot rename; tokens beyond loopback.


def _tokens(tmp_path: Path) -> str:
    path = tmp_path / "tokens.txt"
    path.write_text(
        "# editorial office\nalice alice-token-0123456789abcdef\n"
        "bob   bob-token-0123456789abcdef   # desk 2\n",
        encoding="utf-8",
    )
    return str(path)


async def test_check_has_a_daily_allowance_per_address(server_factory: Any) -> None:
    served: Served = await server_factory(check_daily=2)
    assert (await served.post("/check", GOOD))[0] == 200
    renamed = {**GOOD, "caller": "someone-else"}
    assert (await served.post("/check", renamed))[0] == 200
    status, answer = await served.post("/check", {**GOOD, "caller": "a-third-name"})
    assert status == 429 and "daily allowance" in answer["detail"]


async def test_tokens_are_required_and_each_has_its_own_allowance(
    server_factory: Any, tmp_path: Path
) -> None:
    served: Served = await server_factory(
        serve_tokens=_tokens(tmp_path), precheck_interval=0.0, precheck_daily=1
    )
    status, answer = await served.post("/precheck", GOOD)
    assert status == 401 and answer["error"] == "token_required"
    wrong = {"Authorization": "Bearer not-a-token-of-this-server"}
    assert (await served.post("/precheck", GOOD, headers=wrong))[0] == 401
    alice = {"Authorization": "Bearer alice-token-0123456789abcdef"}
    bob = {"Authorization": "Bearer bob-token-0123456789abcdef"}
    assert (await served.post("/precheck", GOOD, headers=alice))[0] == 200
    renamed = {**GOOD, "caller": "renamed-to-get-more"}
    assert (await served.post("/precheck", renamed, headers=alice))[0] == 429
    assert (await served.post("/precheck", GOOD, headers=bob))[0] == 200  # bob's own
    assert (await served.get("/criteria"))[0] == 200  # reading the criteria needs no token


async def test_the_upload_form_takes_the_token_as_a_field(
    server_factory: Any, tmp_path: Path
) -> None:
    root = Path(__file__).resolve().parents[2]
    served: Served = await server_factory(
        serve_tokens=_tokens(tmp_path),
        offline=True,
        snapshots=(str(root / "sample_bibs" / "snapshot.parquet"),),
    )
    async with served.http.get(served.url + "/") as resp:
        assert 'name="token"' in await resp.text()
    bib = (root / "sample_bibs" / "thesis.bib").read_bytes()
    for token, status in [
        (None, 401),
        ("wrong-token-0123456789", 401),
        ("bob-token-0123456789abcdef", 200),
    ]:
        form = aiohttp.FormData()
        if token is not None:
            form.add_field("token", token)
        form.add_field("bibliography", bib, filename="thesis.bib")
        async with served.http.post(served.url + "/audit", data=form) as resp:
            assert resp.status == status, token


async def test_binding_beyond_loopback_needs_tokens(tmp_path: Path) -> None:
    settings = Settings(cache_dir=str(tmp_path / "c"), signing_key=str(tmp_path / "k.pem"))
    with pytest.raises(ConfigError, match="--tokens"):
        await serve(settings, "0.0.0.0", 0, lambda url: None)


def test_the_command_refuses_a_public_address_without_tokens(tmp_path: Path) -> None:
    env = {"AUDITOR_CACHE_DIR": str(tmp_path / "c"), "AUDITOR_SIGNING_KEY": str(tmp_path / "k")}
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0"], env=env)
    assert result.exit_code == 2 and "--tokens" in result.output


async def test_a_bad_token_file_is_a_config_error(tmp_path: Path) -> None:
    from auditor.serve.gates import load_tokens

    bad = tmp_path / "bad.txt"
    bad.write_text("# ok\nalice one-token two-tokens\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="bad.txt:2"):
        load_tokens(str(bad))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no token"):
        load_tokens(str(empty))
    bare = tmp_path / "bare.txt"
    bare.write_text("tokenA\ntokenB\n", encoding="utf-8")
    assert load_tokens(str(bare)) == {"tokenA": "token1", "tokenB": "token2"}
    with pytest.raises(ConfigError, match="cannot read"):
        load_tokens(str(tmp_path / "absent.txt"))
