"""Under load: one lookup per identifier, batches like the audit's, paces kept, callers bounded."""

from __future__ import annotations

import asyncio
from typing import Any

from auditor.emulator import PUBLISHED_LIMITS, EmulatorConfig
from tests.serve.conftest import Served, check_body, corpus, until


def _body(i: int, caller: str = "caller-a") -> dict[str, Any]:
    body = check_body(f"10.5555/bulk.{i}", f"Bulk work number {i}")
    body["caller"] = caller
    return body


#: These clients all connect from 127.0.0.1: the per-address bounds are raised so the test
#: measures sharing and batching (`test_clients.py` tests the bounds themselves).
MANY = {"client_queue": 1000, "client_connections": 1000, "caller_concurrency": 1000}


def _crossref(served: Served) -> int:
    counts = served.emu.counts
    return counts["crossref_work"] + counts["crossref_filter"]


async def test_concurrent_checks_of_one_identifier_share_one_lookup(server_factory: Any) -> None:
    served: Served = await server_factory(corpus(extra=1), **MANY)
    answers = await asyncio.gather(*(served.post("/check", _body(0, f"c{i}")) for i in range(20)))
    assert [status for status, _ in answers] == [200] * 20
    assert {a["verdict"] for _, a in answers} == {"RESOLVES-AND-MATCHES"}
    assert _crossref(served) == 1


async def test_checks_arriving_together_are_batched(server_factory: Any) -> None:
    served: Served = await server_factory(corpus(extra=15), **MANY)
    answers = await asyncio.gather(
        *(served.post("/check", _body(i, f"c{i % 5}")) for i in range(15))
    )
    assert all(status == 200 for status, _ in answers)
    # fifteen DOIs, one Crossref filter request (batch size 20), as an audit would send them
    assert served.emu.counts["crossref_filter"] == 1
    assert served.emu.counts["crossref_work"] == 0


async def test_one_callers_lookups_are_bounded(server_factory: Any) -> None:
    served: Served = await server_factory(corpus(extra=3), caller_concurrency=1)
    answers = await asyncio.gather(*(served.post("/check", _body(i)) for i in range(3)))
    assert all(status == 200 for status, _ in answers)
    # one lookup of this caller at a time: three batches of one DOI, not one batch of three
    assert served.emu.counts["crossref_work"] == 3
    assert served.emu.counts["crossref_filter"] == 0


async def test_many_checks_under_the_published_limits_get_no_429(server_factory: Any) -> None:
    config = EmulatorConfig(rate_limits=dict(PUBLISHED_LIMITS))
    served: Served = await server_factory(corpus(extra=30), config=config, **MANY)
    answers = await asyncio.gather(
        *(served.post("/check", _body(i % 30, f"c{i % 7}")) for i in range(90))
    )
    assert [status for status, _ in answers] == [200] * 90
    assert served.emu.count_429 == 0
    assert _crossref(served) <= 3  # 30 DOIs: two filter batches (and nothing repeated)


async def test_a_client_that_leaves_does_not_cancel_a_shared_lookup(server_factory: Any) -> None:
    # Whenever "stays" joins (before or after "leaves" is cancelled), one lookup in all means
    # the one in flight survived the cancel: a cancelled lookup would be asked again.
    served: Served = await server_factory(corpus(extra=1), config=EmulatorConfig(latency=0.5))
    leaving = asyncio.create_task(served.post("/check", _body(0, "leaves")))
    staying = asyncio.create_task(served.post("/check", _body(0, "stays")))
    await until(lambda: _crossref(served) == 1, "the shared lookup reached Crossref")
    leaving.cancel()
    status, report = await staying
    assert status == 200 and report["verdict"] == "RESOLVES-AND-MATCHES"
    assert _crossref(served) == 1
