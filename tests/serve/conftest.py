"""A running `auditor serve` (the real start-up path, port 0) against the loopback emulator."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator
from auditor.registers import registry
from auditor.serve.app import Serving, serve
from auditor.settings import Settings

WORKS: dict[str, dict[str, Any]] = {
    "10.5555/serve.1": {
        "DOI": "10.5555/serve.1",
        "type": "journal-article",
        "title": ["Signed reference checks over HTTP"],
        "author": [
            {"given": "Ada", "family": "Lovelace", "sequence": "first"},
            {"given": "Charles", "family": "Babbage", "sequence": "additional"},
        ],
        "published": {"date-parts": [[2021, 3, 4]]},
        "container-title": ["Journal of Tests"],
    },
    "10.5555/serve.2": {
        "DOI": "10.5555/serve.2",
        "type": "journal-article",
        "title": ["A second work for the batch"],
        "author": [{"given": "Grace", "family": "Hopper", "sequence": "first"}],
        "published": {"date-parts": [[2019]]},
    },
}


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait until `condition()` holds (polled; a condition, never a measured time), failing
    after about a minute so a broken test cannot hang the suite."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def corpus(extra: int = 0) -> Corpus:
    """The two works above, plus `extra` generated ones (`10.5555/bulk.N`)."""
    works = dict(WORKS)
    for i in range(extra):
        doi = f"10.5555/bulk.{i}"
        works[doi] = {
            "DOI": doi,
            "type": "journal-article",
            "title": [f"Bulk work number {i}"],
            "author": [{"given": "Ann", "family": f"Writer{i}", "sequence": "first"}],
            "published": {"date-parts": [[2020]]},
        }
    return Corpus(crossref=works, agencies={"10.5555": "Crossref"})


def settings_for(emu: Emulator, tmp_path: Path, **changes: Any) -> Settings:
    """Settings aimed at the emulator, with a private cache and signing key."""
    base = registry.settings(
        cache_dir=str(tmp_path / "cache"),
        signing_key=str(tmp_path / "keys" / "signing_key.pem"),
        timeout=2.0,
        max_retries=1,
        **emu.base_urls,
    )
    return dataclasses.replace(base, **changes)


@dataclass
class Served:
    """A running server and the emulator behind it."""

    url: str
    emu: Emulator
    http: aiohttp.ClientSession
    settings: Settings

    async def post(self, path: str, body: Any, **kwargs: Any) -> tuple[int, Any]:
        """POST JSON (or raw bytes) and return the status and the parsed JSON answer."""
        if isinstance(body, bytes | str):
            kwargs.setdefault("headers", {"Content-Type": "application/json"})
            async with self.http.post(self.url + path, data=body, **kwargs) as resp:
                return resp.status, await resp.json(content_type=None)
        async with self.http.post(self.url + path, json=body, **kwargs) as resp:
            return resp.status, await resp.json(content_type=None)

    async def get(self, path: str) -> tuple[int, Any]:
        async with self.http.get(self.url + path) as resp:
            return resp.status, await resp.json(content_type=None)


Start = Callable[..., "AsyncIterator[Served]"]


@pytest.fixture
async def server_factory(
    tmp_path: Path,
) -> AsyncIterator[Callable[..., Any]]:
    """`await start(corpus=…, config=…, **settings)` → `Served`; everything closes at the end."""
    runners: list[Serving] = []
    emulators: list[Emulator] = []
    sessions: list[aiohttp.ClientSession] = []

    async def start(
        corpus_: Corpus | None = None, config: EmulatorConfig | None = None, **changes: Any
    ) -> Served:
        emu = await start_emulator(corpus_ or corpus(), config)
        emulators.append(emu)
        settings = settings_for(emu, tmp_path, **changes)
        urls: list[str] = []
        runner = await serve(settings, "127.0.0.1", 0, urls.append)
        runners.append(runner)
        http = aiohttp.ClientSession()
        sessions.append(http)
        return Served(urls[0], emu, http, settings)

    yield start
    for http in sessions:
        await http.close()
    for runner in runners:
        await runner.cleanup()
    for emu in emulators:
        await emu.close()


@pytest.fixture
async def served(server_factory: Callable[..., Any]) -> Served:
    """A server with the default corpus and a pre-check interval of zero."""
    result: Served = await server_factory(precheck_interval=0.0)
    return result


def check_body(
    ident: str, title: str, *, type_: str | None = None, **claimed: Any
) -> dict[str, Any]:
    """A contract body for `ident` claiming `title` (and any authors/year)."""
    reference: dict[str, Any] = {"id": ident, "claimed": {"title": title, **claimed}}
    if type_ is not None:
        reference["type"] = type_
    return {"reference": reference, "caller": "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"}
