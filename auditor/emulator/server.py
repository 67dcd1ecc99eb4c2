"""Run the emulator on 127.0.0.1: `start_emulator` in a running loop, `run_emulator` in a thread.

The bind address is fixed: the emulator never listens on anything but loopback.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from aiohttp import web

from auditor.emulator.app import LoggedRequest, Registers, build_app
from auditor.emulator.config import EmulatorConfig
from auditor.emulator.corpus import Corpus
from auditor.emulator.services import BASE_PATHS

#: The only address the emulator binds.
HOST = "127.0.0.1"


class Emulator:
    """A running emulator: its URLs, live counts, and a config that may change between requests."""

    def __init__(self, registers: Registers, runner: web.AppRunner) -> None:
        self._registers = registers
        self._runner = runner

    @property
    def port(self) -> int:
        """The TCP port on 127.0.0.1."""
        return self._registers.port

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return self._registers.origin()

    @property
    def base_urls(self) -> dict[str, str]:
        """`Settings` field → base URL (`crossref_url` → `http://127.0.0.1:PORT/crossref`, …)."""
        return {name: self.origin + path for name, path in BASE_PATHS.items()}

    @property
    def config(self) -> EmulatorConfig:
        """The config read by every request."""
        return self._registers.config

    @config.setter
    def config(self, value: EmulatorConfig) -> None:
        self._registers.config = value

    @property
    def corpus(self) -> Corpus:
        """The records served (mutable: a test may add or edit records between requests)."""
        return self._registers.corpus

    @property
    def counts(self) -> Counter[str]:
        """Requests per endpoint name (`crossref_work`, `esummary`, …), 429s and faults included."""
        return self._registers.counts

    @property
    def count_429(self) -> int:
        """429s given by rate limiting (not those injected as the `429` fault)."""
        return self._registers.count_429

    @property
    def count_429_by_service(self) -> Counter[str]:
        """Rate-limit 429s per service (`crossref`, `eutils`, `arxiv`, …)."""
        return self._registers.limited

    @property
    def fault_counts(self) -> Counter[str]:
        """Faults injected, by kind."""
        return self._registers.fault_counts

    @property
    def log(self) -> list[LoggedRequest]:
        """Every request since the last `reset_counts`, in arrival order."""
        return self._registers.log

    @property
    def total_requests(self) -> int:
        """All requests since the last `reset_counts`."""
        return sum(self._registers.counts.values())

    def reset_counts(self) -> None:
        """Zero the counts, the log and the rate-limit windows."""
        self._registers.reset_counts()

    async def close(self) -> None:
        """Stop listening and cancel requests in flight."""
        await self._runner.cleanup()


async def start_emulator(
    corpus: Corpus, config: EmulatorConfig | None = None, port: int = 0
) -> Emulator:
    """Start serving on 127.0.0.1:`port` (0 = any free port) in the running loop; `await
    emu.close()` when done."""
    registers = Registers(corpus, config if config is not None else EmulatorConfig())
    # handler_cancellation: a client that gives up (timeout faults) cancels its handler, and
    # a short shutdown_timeout keeps close() from waiting on stalled requests.
    runner = web.AppRunner(
        build_app(registers), handler_cancellation=True, shutdown_timeout=0.1, access_log=None
    )
    await runner.setup()
    site = web.TCPSite(runner, HOST, port)
    await site.start()
    registers.port = int(runner.addresses[0][1])  # the bound port (`port` 0 = any)
    return Emulator(registers, runner)


@contextmanager
def run_emulator(
    corpus: Corpus, config: EmulatorConfig | None = None, port: int = 0
) -> Iterator[Emulator]:
    """Serve from a background thread with its own event loop; stop on exit of the block."""
    loop = asyncio.new_event_loop()
    started: dict[str, Emulator | BaseException] = {}
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        try:
            started["emu"] = loop.run_until_complete(start_emulator(corpus, config, port))
        except BaseException as exc:  # handed to the caller's thread below
            started["error"] = exc
            ready.set()
            loop.close()
            return
        ready.set()
        loop.run_forever()
        emu = started["emu"]
        assert isinstance(emu, Emulator)
        loop.run_until_complete(emu.close())
        loop.close()

    thread = threading.Thread(target=serve, name="auditor-emulator", daemon=True)
    thread.start()
    ready.wait()
    if "error" in started:
        thread.join()
        raise started["error"]  # type: ignore[misc]
    emu = started["emu"]
    assert isinstance(emu, Emulator)
    try:
        yield emu
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
