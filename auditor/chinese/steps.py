"""Shared machinery of one waterfall run: the run state and per-distinct-key fan-out."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from auditor.chinese import cnki, csl_store, istic, triage
from auditor.chinese.bridge import JournalBridge
from auditor.chinese.lookups import Lookups
from auditor.chinese.outcomes import RowOutcome
from auditor.errors import RegisterError
from auditor.registers.records import now_iso
from auditor.settings import Settings
from auditor.tables import Tier
from auditor.transport.cache import RecordCache
from auditor.transport.snapshot import lookup_istic

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
    """Record a failure to look on `row`: it becomes `UNCHECKED` with the failure's reason."""
    row.attempts.append(f"{step}: failed ({exc.reason})")
    row.give_up(str(exc.reason), f"{step}: {exc}")


@dataclass(frozen=True)
class Known:
    """Answers the resolve stage already holds, so the waterfall does not ask twice in a run."""

    agencies: dict[str, str]
    """Lowercase DOI → agency (doiRA there, or `Crossref` for a Crossref hit)."""
    handles: dict[str, bool]
    """Lowercase DOI → exists, from a Handle API record of the resolve stage."""


def known_facts(records: pa.Table) -> Known:
    """What `records` (RECORDS schema) already says about DOIs: agencies and Handle existence."""
    agencies: dict[str, str] = {}
    handles: dict[str, bool] = {}
    if records.num_rows == 0:
        return Known(agencies, handles)
    for rec in records.filter(pc.equal(records["id_type"], "doi")).to_pylist():
        doi = rec["identifier"].lower()
        if rec.get("agency"):
            agencies[doi] = rec["agency"]
        elif rec.get("register") == "crossref" and rec.get("status") == "found":
            agencies[doi] = "Crossref"
        if rec.get("register") == "handle" and rec.get("status") in ("found", "not_covered"):
            handles[doi] = True
        elif rec.get("register") == "handle" and rec.get("status") == "not_found":
            handles[doi] = False
    return Known(agencies, handles)


class Run:
    """State of one waterfall run: settings, lookups, the rows and their outcomes.

    The snapshot's `istic` rows (`settings.snapshots`, joined for the DOIs asked) and `cache`, the
    run's record cache (`None`: none), are consulted in that order before a CSL request.
    """

    def __init__(
        self,
        settings: Settings,
        lookups: Lookups,
        bridge: JournalBridge,
        known: Known,
        *,
        cache: RecordCache | None = None,
    ) -> None:
        self.s, self.lookups, self.bridge, self.known = settings, lookups, bridge, known
        self.agency: dict[str, str | None | RegisterError] = {}
        self._triage_lock = asyncio.Lock()
        self.istic_rows: dict[str, dict[str, Any]] = {}
        """Lowercased DOI → the snapshot's `istic` row, for the DOIs asked so far."""
        self._istic_asked: set[str] = set()
        self.cache = cache
        self.csl_stored: dict[str, csl_store.Stored] = {}
        """DOI (as asked) → the stored answer used instead of a CSL request."""
        self.handle_probed: set[str] = set()
        """DOIs whose Handle existence was asked live in this run."""

    async def route_agencies(self, dois: Iterable[str]) -> None:
        """Triage the prefixes not yet known, in ⌈n / batch⌉ doiRA requests.

        Serialized: the DOI leg and the coordinate leg run concurrently, and a prefix one of them
        is asking about must not be asked again by the other.
        """
        wanted = {triage.prefix_of(d) for d in dois}
        async with self._triage_lock:
            todo = wanted - set(self.agency)
            if not todo:
                return
            size = self.s.doira_batch_size if self.s.batching else 1
            found = await triage.triage(self.lookups, self.s.doi_url, todo, size)
            self.agency.update(found)

    def agency_of(self, doi: str) -> str | None | RegisterError:
        """The agency triage found for `doi`'s prefix (or its failure)."""
        return self.agency.get(triage.prefix_of(doi))

    def _stored_csl(self, doi: str) -> csl_store.Stored | None:
        """The snapshot's answer, else the cache's (unless `refresh`), else `None`."""
        key = doi.lower()
        row = self.istic_rows.get(key)
        if row is not None:
            hit = csl_store.from_row(doi, row, Tier.SNAPSHOT)
            if hit is not None:
                return hit
        if self.cache is None or self.s.refresh:
            return None
        cached = self.cache.get(csl_store.REGISTER, csl_store.API_VERSION, key)
        return None if cached is None else csl_store.from_row(doi, cached, Tier.CACHE)

    async def _csl_one(self, doi: str) -> istic.CslRecord | None:
        stored = self._stored_csl(doi)
        if stored is not None:
            self.csl_stored[doi] = stored
            return stored.record
        record = await istic.fetch_csl(self.lookups, self.s.doi_url, doi)
        if self.cache is not None:  # only a definitive answer gets here: failures raised
            row = csl_store.to_row(doi, record, now_iso())
            self.cache.put(csl_store.REGISTER, csl_store.API_VERSION, doi.lower(), row)
        return record

    async def csl(self, dois: Iterable[str]) -> dict[str, istic.CslRecord | None | RegisterError]:
        """The CSL answer per distinct DOI (`None` = the register's 404): from the snapshot's
        `istic` rows, then the record cache, then one content negotiation (whose definitive
        answer is cached). Which DOIs were answered from a store is kept in `csl_stored`."""
        wanted = list(dois)
        fresh = {doi.lower() for doi in wanted} - self._istic_asked
        if fresh and self.s.snapshots:
            # One join per batch of DOIs: the snapshot is never read whole.
            self.istic_rows.update(lookup_istic(self.s.snapshots, fresh))
        self._istic_asked |= fresh
        return await each(wanted, self._csl_one)

    async def handles(self, dois: Iterable[str]) -> dict[str, bool | RegisterError]:
        """Handle existence per DOI: the resolve stage's answer when it has one, else a probe."""

        async def probe(doi: str) -> bool:
            known = self.known.handles.get(doi.lower())
            if known is not None:
                return known
            self.handle_probed.add(doi)
            return await cnki.handle_exists(self.lookups, self.s.handle_url, doi)

        return await each(dois, probe)
