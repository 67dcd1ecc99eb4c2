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

from auditor.pipeline import closed_legs
from auditor.registers import registry
from auditor.serve import openapi, overlap, page, reference_check
from auditor.serve.coalesce import Coalescer
from auditor.serve.lookups import SharedLookups
from auditor.serve.pacing import PrecheckPacer
from auditor.serve.stages import Pair, classify_many, compare_many
from auditor.serve.state import STATE, ServeState
from auditor.settings import Settings
from auditor.signing import load_or_create_key
from auditor.transport.net import open_net

__all__ = ["build_app", "serve"]


def build_app(settings: Settings) -> web.Application:
    """The application serving every route, with its state opened in a cleanup context."""
    app = web.Application()

    async def state(app: web.Application) -> AsyncIterator[None]:
        key = load_or_create_key(settings.signing_key)
        async with open_net(settings, registry.hosts()) as net:
            lookups = SharedLookups(settings, net)
            closed = closed_legs(settings)

            async def classify(rows: Sequence[dict[str, Any]]) -> list[pa.Table]:
                return classify_many(rows, closed)

            async def compare(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
                # A CPU stage: in a worker thread, so the loop keeps answering other requests.
                return await asyncio.to_thread(compare_many, pairs)

            app[STATE] = ServeState(
                settings=settings,
                net=net,
                lookups=lookups,
                pacer=PrecheckPacer(settings.precheck_interval, settings.precheck_daily),
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


async def serve(
    settings: Settings,
    host: str,
    port: int,
    on_ready: Callable[[str], Awaitable[None] | None],
) -> web.AppRunner:
    """Start serving on `host:port`; `on_ready(url)` gets the bound URL. Returns the runner
    (the caller keeps the loop running and calls `runner.cleanup()` to stop)."""
    # No access log: request lines are harmless, but retention is simplest when nothing is kept.
    # A client that goes away cancels its handler; a lookup it shared goes on for the others.
    runner = web.AppRunner(
        build_app(settings), access_log=None, shutdown_timeout=1.0, handler_cancellation=True
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server  # aiohttp exposes the bound port only through the asyncio server
    assert server is not None
    bound = server.sockets[0].getsockname()  # type: ignore[attr-defined]
    shown = f"[{host}]" if ":" in host else host
    result = on_ready(f"http://{shown}:{bound[1]}")
    if result is not None:
        await result
    return runner
