"""Shared machinery of one waterfall run: the run state and per-distinct-key fan-out."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from auditor.chinese import cnki, istic, triage
from auditor.chinese.bridge import JournalBridge
from auditor.chinese.lookups import Lookups
from auditor.chinese.outcomes import RowOutcome
from auditor.errors import RegisterError
from auditor.settings import Settings

T = TypeVar("T")
K = TypeVar("K")


async def each(keys: Iterable[K], job: Callable[[K], Awaitable[T]]) -> dict[K, T | RegisterError]:
    """Run `job` once per distinct key; failures to look come back as values."""
    distinct = list(dict.fromkeys(keys))
    answers = await asyncio.gather(*(job(k) for k in distinct), return_exceptions=True)
    out: dict[K, T | RegisterError] = {}
    for key, answer in zip(distinct, answers, strict=True):
        if isinstance(answer, BaseException) and not isinstance(answer, RegisterError):
            raise answer
        out[key] = answer
    return out


def fail(row: RowOutcome, exc: RegisterError, step: str) -> None:
    row.attempts.append(f"{step}: failed ({exc.reason})")
    row.give_up(str(exc.reason), f"{step}: {exc}")


def known_agency(refs: list[dict[str, Any]], records: pa.Table) -> dict[str, str]:
    """Agencies already established by the resolve stage (doiRA there, or a Crossref hit)."""
    if records.num_rows == 0:
        return {}
    out: dict[str, str] = {}
    for rec in records.filter(pc.equal(records["id_type"], "doi")).to_pylist():
        if rec.get("agency"):
            out[rec["identifier"].lower()] = rec["agency"]
        elif rec.get("register") == "crossref" and rec.get("status") == "found":
            out[rec["identifier"].lower()] = "Crossref"
    return out


class Run:
    """State of one waterfall run: settings, lookups, the rows and their outcomes."""

    def __init__(self, settings: Settings, lookups: Lookups, bridge: JournalBridge) -> None:
        self.s, self.lookups, self.bridge = settings, lookups, bridge
        self.agency: dict[str, str | None | RegisterError] = {}

    async def route_agencies(self, dois: Iterable[str]) -> None:
        """Triage the prefixes not yet known, in ⌈n / batch⌉ doiRA requests."""
        todo = {triage.prefix_of(d) for d in dois} - set(self.agency)
        if todo:
            found = await triage.triage(self.lookups, self.s.doi_url, todo, self.s.doira_batch_size)
            self.agency.update(found)

    def agency_of(self, doi: str) -> str | None | RegisterError:
        return self.agency.get(triage.prefix_of(doi))

    async def csl(self, dois: Iterable[str]) -> dict[str, istic.CslRecord | None | RegisterError]:
        return await each(dois, lambda d: istic.fetch_csl(self.lookups, self.s.doi_url, d))

    async def handles(self, dois: Iterable[str]) -> dict[str, bool | RegisterError]:
        return await each(dois, lambda d: cnki.handle_exists(self.lookups, self.s.handle_url, d))
