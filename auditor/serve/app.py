"""The aiohttp application of `auditor serve`: routes of both contracts, one state per process.

`build_app(settings)` makes the application; at start-up it opens the process's one `Net`
(session, throttles, cache), reads the snapshots, and loads (or makes) the signing key, and at
shutdown sends what is pending and closes them. `serve(settings, host, port)` runs it until
cancelled and reports the bound URL, so `--port 0` can pick any free port.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pyarrow as pa
from aiohttp import web

from auditor.errors import ConfigError
from auditor.grobid import with_grobid
from auditor.pipeline import closed_legs
from auditor.registers import registry
from auditor.serve import openapi, overlap, page, reference_check
from auditor.serve.clients import InFlight
from auditor.serve.coalesce import Coalescer
from auditor.serve.gates import GATE, Gate, is_loopback, load_tokens, middleware
from auditor.serve.guard import HTTP_LOG, Guard
from auditor.serve.lookups import SharedLookups
from auditor.serve.pacing import PrecheckPacer
from auditor.serve.stages import Pair, classify_many, compare_many
from auditor.serve.state import STATE, ServeState
from auditor.settings import Settings
from auditor.signing import load_or_create_key
from auditor.transport.net import open_net

__all__ = ["Serving", "build_app", "serve"]


def build_app(settings: Settings, gate: Gate | None = None) -> web.Application:
    """The application serving every route, with its state opened in a cleanup context.

    `gate` (the bound address, allowed names and origins, tokens) guards every request; without
    one, a loopback gate from `settings`."""
    if gate is None:
        tokens = load_tokens(settings.serve_tokens) if settings.serve_tokens else None
        gate = Gate("127.0.0.1", 0, settings.allow_host, settings.allow_origin, tokens)
    app = web.Application(middlewares=[middleware(gate)])
    app[GATE] = gate

    async def state(app: web.Application) -> AsyncIterator[None]:
        key = load_or_create_key(settings.signing_key)
        # GROBID (when the operator set `grobid_url`) is one of the service's hosts: only the
        # operator's settings name it, and an upload's PDF reaches it through this `Net`.
        async with open_net(settings, with_grobid(settings, registry.hosts())) as net:
            lookups = SharedLookups(settings, net)
            closed = closed_legs(settings)

            # The table stages are CPU work: in a thread, so the loop keeps answering others.
            async def classify(rows: Sequence[dict[str, Any]]) -> list[pa.Table]:
                return await asyncio.to_thread(classify_many, rows, closed)

            async def compare(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
                # The CPU stages run in worker threads, so the loop keeps answering others.
                return await compare_many(pairs, settings)

            app[STATE] = ServeState(
                settings=settings,
                net=net,
                lookups=lookups,
                pacer=PrecheckPacer(settings.precheck_interval, settings.precheck_daily),
                check_pacer=PrecheckPacer(0.0, settings.check_daily),
                in_flight=InFlight(settings.client_queue),
                key=key,
                classify=Coalescer(classify),
                compare=Coalescer(compare),
            )
            yield
            await lookups.close()

    app.cleanup_ctx.append(state)
    for module in (page, reference_check, overlap, openapi):
        app.add_routes(module.routes())
    return app


class Serving:
    """A started service: its runner and listening socket; `cleanup()` stops both."""

    def __init__(self, runner: web.AppRunner, listener: asyncio.Server, guard: Guard) -> None:
        self.runner = runner
        self.listener = listener
        self.guard = guard

    async def cleanup(self) -> None:
        """Stop listening, let aiohttp end its connections and the app, close the rest."""
        self.listener.close()
        await self.runner.cleanup()
        self.guard.close()
        await self.listener.wait_closed()


async def serve(
    settings: Settings,
    host: str,
    port: int,
    on_ready: Callable[[str], Awaitable[None] | None],
) -> Serving:
    """Start serving on `host:port`; `on_ready(url)` gets the bound URL. Returns the running
    service (the caller keeps the loop running and calls `cleanup()` to stop).

    Raises `ConfigError` when `host` is not loopback and no `serve_tokens` are set: a service
    others can reach lets in only the holders of its tokens."""
    tokens = load_tokens(settings.serve_tokens) if settings.serve_tokens else None
    if tokens is None and not is_loopback(host):
        raise ConfigError(
            f"--host {host} is reachable from other machines: give --tokens FILE "
            "(AUDITOR_SERVE_TOKENS) so only its holders are let in"
        )
    gate = Gate(host, port, settings.allow_host, settings.allow_origin, tokens)
    app = build_app(settings, gate)
    # No access log: request lines are harmless, but retention is simplest when nothing is kept.
    # A client that goes away cancels its handler; a lookup it shared goes on for the others.
    # Idle keep-alive connections close on the same clock as a late head.
    runner = web.AppRunner(
        app,
        access_log=None,
        logger=HTTP_LOG,
        keepalive_timeout=settings.client_timeout,
        shutdown_timeout=1.0,
        handler_cancellation=True,
    )
    guard = Guard(head_timeout=settings.client_timeout, per_address=settings.client_connections)
    app.middlewares.insert(0, guard.middleware)  # before the app freezes in `setup()`
    await runner.setup()
    assert runner.server is not None  # made by `setup()`
    guard.server = runner.server
    # Our own listening socket in front of aiohttp's documented protocol factory (`web.Server`),
    # so the per-address cap answers before aiohttp reads a byte.
    listener = await asyncio.get_running_loop().create_server(
        guard.protocol, host, port, reuse_address=True
    )
    bound = listener.sockets[0].getsockname()
    gate.port = int(bound[1])
    shown = f"[{host}]" if ":" in host else host
    result = on_ready(f"http://{shown}:{bound[1]}")
    if result is not None:
        await result
    return Serving(runner, listener, guard)
