"""One waterfall run asks each question once and fails offline without a net."""

from __future__ import annotations

import pytest

from auditor import tables
from auditor.chinese.bridge import load_bridge
from auditor.chinese.steps import Run, known_facts
from auditor.errors import Reason, Unreachable
from auditor.settings import Settings


async def test_a_question_is_asked_once_a_run_and_its_failure_replayed():
    calls: list[str] = []

    async def job(key: str) -> str:
        calls.append(key)
        if key == "bad":
            raise Unreachable("down", Reason.TIMEOUT)
        return key

    net = object()  # `once` hands the run's net to the job; these jobs do not use it
    settings = Settings(cache_dir="/nonexistent")
    run = Run(settings, net, load_bridge(None), known_facts(tables.empty(tables.RECORDS)))  # type: ignore[arg-type]
    for _ in range(3):
        assert await run.once("doi", "ok", lambda _net: job("ok")) == "ok"
        with pytest.raises(Unreachable):
            await run.once("doi", "bad", lambda _net: job("bad"))
    assert calls == ["ok", "bad"]
    assert run.asked == ["doi ok", "doi bad"]


async def test_without_a_net_every_question_fails_offline():
    settings = Settings(cache_dir="/nonexistent")
    run = Run(settings, None, load_bridge(None), known_facts(tables.empty(tables.RECORDS)))
    with pytest.raises(Unreachable) as info:
        await run.once("doi", "x", lambda _net: pytest.fail("asked without a net"))
    assert info.value.reason is Reason.OFFLINE
