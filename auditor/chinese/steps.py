"""Shared machinery of one waterfall run: the run state, its register calls, per-key fan-out.

Every question the waterfall asks goes to a register object of `auditor.registers` (doiRA and
content negotiation at the DOI system, Handle, E-utilities) through the run's `Net`, with those
registers' validation and failure rules; this module decides only what to ask, once per run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from auditor.chinese import csl_store, istic, triage
from auditor.chinese.bridge import JournalBridge
from auditor.chinese.outcomes import RowOutcome
from auditor.errors import Reason, RegisterError, Unreachable
from auditor.registers.csl import CslRegister
from auditor.registers.doi import DoiSystemRegister
from auditor.registers.esearch import esearch
from auditor.registers.handle import HandleRegister
from auditor.registers.interface import RecordRow
from auditor.registers.pubmed import PubmedRegister
from auditor.registers.records import now_iso
from auditor.settings import Settings
from auditor.tables import RecordStatus, Tier
from auditor.transport.cache import RecordCache
from auditor.transport.snapshot import lookup_istic

if TYPE_CHECKING:
    from auditor.transport.net import Net

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


def answered(record: RecordRow) -> RecordRow:
    """`record` itself when the register answered; its failure to look raised otherwise."""
    if record["status"] == RecordStatus.UNREACHABLE:
        reason = Reason(record["reason"])
        raise Unreachable(f"{record['register']}: {reason}", reason)
    return record


class Run:
    """State of one waterfall run: settings, the run's `Net`, the registers, what was asked.

    The snapshot's `istic` rows (`settings.snapshots`, joined for the DOIs asked) and `cache`, the
    run's record cache (`None`: none), are consulted in that order before a CSL request. With
    `net=None` (or offline settings) every question fails with reason `offline`.
    """

    def __init__(
        self,
        settings: Settings,
        net: Net | None,
        bridge: JournalBridge,
        known: Known,
        *,
        cache: RecordCache | None = None,
    ) -> None:
        self.s, self.net, self.bridge, self.known = settings, net, bridge, known
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
        self.asked: list[str] = []
        """Every distinct question sent to a register this run (`kind key`), in order."""
        self._memo: dict[tuple[str, str], asyncio.Task[Any]] = {}
        self._doi = DoiSystemRegister()
        self._csl = CslRegister()
        self._handle = HandleRegister()
        self._pubmed = PubmedRegister()

    @property
    def online(self) -> bool:
        """Whether questions can reach a register at all."""
        return self.net is not None and not self.s.offline

    def _net(self, what: str) -> Net:
        if self.net is None or self.s.offline:
            raise Unreachable(f"{what}: offline, not asked", Reason.OFFLINE)
        return self.net

    async def once(self, kind: str, key: str, job: Callable[[Net], Awaitable[T]]) -> T:
        """`job` at most once per run for `(kind, key)`; a repeat replays the answer or failure.

        Two concurrent askers of one key (the DOI and coordinate branches) share one request.
        """
        task = self._memo.get((kind, key))
        if task is None:
            self.asked.append(f"{kind} {key}")

            async def ask() -> T:
                return await job(self._net(f"{kind} {key}"))

            task = self._memo[(kind, key)] = asyncio.ensure_future(ask())
        result: T = await task
        return result

    async def route_agencies(self, dois: Iterable[str]) -> None:
        """Triage the prefixes not yet known, in ⌈n / batch⌉ doiRA requests.

        Serialized: the DOI and coordinate branches run concurrently, and a prefix one of them
        is asking about must not be asked again by the other.
        """
        wanted = {triage.prefix_of(d) for d in dois}
        async with self._triage_lock:
            todo = sorted(wanted - set(self.agency))
            if not todo:
                return
            self.asked.extend(f"doiRA {p}" for p in todo if triage.is_prefix(p))
            try:
                found = await triage.triage(self._doi, self._net("doiRA"), todo)
            except Unreachable as exc:
                found = {p: (exc if triage.is_prefix(p) else None) for p in todo}
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

    async def _csl_live(self, doi: str, net: Net) -> istic.CslRecord | None:
        record = answered((await self._csl.fetch([doi], net))[doi])
        live = csl_store.from_row(doi, record, Tier.LIVE)
        assert live is not None  # `found` or `not_found`: a definitive answer
        if self.cache is not None:
            row = csl_store.to_row(doi, live.record, now_iso())
            self.cache.put(csl_store.REGISTER, csl_store.API_VERSION, doi.lower(), row)
        return live.record

    async def _csl_one(self, doi: str) -> istic.CslRecord | None:
        stored = self._stored_csl(doi)
        if stored is not None:
            self.csl_stored[doi] = stored
            return stored.record
        return await self.once("csl", doi, lambda net: self._csl_live(doi, net))

    async def csl(self, dois: Iterable[str]) -> dict[str, istic.CslRecord | None | RegisterError]:
        """The CSL answer per distinct DOI (`None` = the resolver's 404): from the snapshot's
        `istic` rows, then the record cache, then one content negotiation (whose definitive
        answer is cached). Which DOIs were answered from a store is kept in `csl_stored`."""
        wanted = list(dois)
        fresh = {doi.lower() for doi in wanted} - self._istic_asked
        if fresh and self.s.snapshots:
            # One join per batch of DOIs: the snapshot is never read whole.
            self.istic_rows.update(lookup_istic(self.s.snapshots, fresh))
        self._istic_asked |= fresh
        return await each(wanted, self._csl_one)

    async def _handle_live(self, doi: str, net: Net) -> bool:
        record = answered((await self._handle.fetch([doi], net))[doi])
        return bool(record["status"] != RecordStatus.NOT_FOUND)

    async def handles(self, dois: Iterable[str]) -> dict[str, bool | RegisterError]:
        """Handle existence per DOI: the resolve stage's answer when it has one, else a probe."""

        async def probe(doi: str) -> bool:
            known = self.known.handles.get(doi.lower())
            if known is not None:
                return known
            self.handle_probed.add(doi)
            return await self.once("handle", doi, lambda net: self._handle_live(doi, net))

        return await each(dois, probe)

    async def esearch(self, term: str, retmax: int) -> tuple[int, list[str]]:
        """One ESearch per distinct `(term, retmax)` in the run."""
        return await self.once("esearch", f"{retmax} {term}", lambda n: esearch(term, retmax, n))

    async def esummary(self, pmid: str) -> Mapping[str, Any]:
        """The checked esummary document of `pmid` (one request per distinct PMID in the run)."""

        async def ask(net: Net) -> Mapping[str, Any]:
            return (await self._pubmed.documents([pmid], net))[pmid]

        return await self.once("esummary", pmid, ask)
