"""The lookup service without a cluster: one request per distinct ask, failures sent as data."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from auditor import errors
from auditor.emulator import Corpus, EmulatorConfig, start_emulator
from auditor.partitions.lookups import LookupService, RemoteLookups
from auditor.registers import registry

DOI = "10.5555/service.1"


class _Done:
    """What a Dask actor call returns: something with a blocking `result()`."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


class _Actor:
    """The service's methods as an actor proxy sees them, run on the test's loop."""

    def __init__(self, service: LookupService, loop: asyncio.AbstractEventLoop) -> None:
        self.service, self.loop = service, loop

    def request(self, *args: Any) -> _Done:
        call = asyncio.run_coroutine_threadsafe(self.service.request(*args), self.loop)
        return _Done(call.result())


async def test_equal_requests_are_sent_once_and_failures_come_back_as_errors(
    tmp_path: Path,
) -> None:
    corpus = Corpus(crossref={DOI: {"DOI": DOI, "title": ["A work"], "type": "journal-article"}})
    emu = await start_emulator(corpus, EmulatorConfig())
    try:
        settings = registry.settings(cache_dir=str(tmp_path / "cache"), **emu.base_urls)
        service = LookupService(settings)
        url = f"{emu.base_urls['crossref_url']}/works/{DOI}"
        first, second = await asyncio.gather(
            service.request("GET", "crossref", url, {}), service.request("GET", "crossref", url, {})
        )
        again = await service.request("GET", "crossref", url, {})
        assert first[0] == second[0] == again[0] == "ok"
        assert emu.counts["crossref_work"] == 1
        # A URL outside the registers' bases is refused by the service's `Net`: the error comes
        # back as data (its class, message, reason) and is raised again on the worker.
        dead = "http://127.0.0.1:9/works/x"
        status, value = await service.request("GET", "crossref", dead, {"retries": 0})
        assert status == "error" and value[0] == "UnsafeRedirect"
        with ThreadPoolExecutor(2) as pool:
            remote = RemoteLookups(_Actor(service, asyncio.get_running_loop()), pool)
            with pytest.raises(errors.UnsafeRedirect) as raised:
                await remote.request("GET", "crossref", dead, {"retries": 0})
            assert raised.value.reason == errors.Reason(value[2])
        await service.close()
    finally:
        await emu.close()
