"""The resolve stage: distinct identifiers → register records, from snapshot, cache, then live.

Input is the `REFERENCES` table after classify; output is the `RECORDS` table with one row per
distinct `(id_type, identifier)` among rows that have no `row_state`, in first-seen order. Each
row carries its `tier` and `retrieved_at`. Legs run concurrently, each register batched and
paced by the run's `Net`. A failure to look is a row with `status="unreachable"` and a reason,
never `not_found`. A DOI that Crossref does not hold is settled by the DOI system; arXiv DOIs
(`10.48550/arXiv.<id>`) go through the arXiv leg.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from auditor.errors import Reason
from auditor.registers.arxiv import ArxivRegister, id_from_doi
from auditor.registers.crossref import CrossrefRegister
from auditor.registers.doi import DoiSystemRegister
from auditor.registers.interface import RecordRow
from auditor.registers.pubmed import PubmedRegister
from auditor.registers.records import Sink, now_iso
from auditor.settings import Settings
from auditor.tables import RECORDS, IdType, RecordStatus, Tier, from_rows
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net
from auditor.transport.snapshot import lookup_snapshots

#: Cache namespace of each leg: (leg, api version). The DOI leg's row may come from Crossref or
#: the DOI system; it is cached under the leg, as the answer to "what is this DOI".
_LEGS: dict[str, tuple[str, str]] = {
    "crossref": ("crossref", CrossrefRegister.api_version),
    "pubmed": ("pubmed", PubmedRegister.api_version),
    "arxiv": ("arxiv", ArxivRegister.api_version),
}


@dataclass(frozen=True)
class Target:
    """One distinct identifier to resolve and where to ask."""

    id_type: str
    identifier: str
    leg: str
    """`crossref`, `pubmed` or `arxiv`."""
    lookup: str
    """The id as the leg's register takes it (an arXiv DOI's arXiv id)."""


def targets(references: pa.Table) -> list[Target]:
    """Distinct `(id_type, identifier)` of rows without `row_state`, in first-seen order."""
    seen: dict[tuple[str, str], Target] = {}
    columns = references.select(["id_type", "identifier", "row_state"]).to_pydict()
    for id_type, identifier, state in zip(
        columns["id_type"], columns["identifier"], columns["row_state"], strict=True
    ):
        if state is not None or not id_type or not identifier or (id_type, identifier) in seen:
            continue
        if id_type == IdType.DOI:
            arxiv_id = id_from_doi(identifier)
            target = (
                Target(id_type, identifier, "arxiv", arxiv_id)
                if arxiv_id
                else Target(id_type, identifier, "crossref", identifier)
            )
        elif id_type == IdType.PMID:
            target = Target(id_type, identifier, "pubmed", identifier)
        elif id_type == IdType.ARXIV:
            target = Target(id_type, identifier, "arxiv", identifier)
        else:
            continue
        seen[(id_type, identifier)] = target
    return list(seen.values())


def _leg_open(settings: Settings, id_type: str) -> bool:
    return {
        IdType.DOI: settings.doi_leg,
        IdType.PMID: settings.pmid_leg,
        IdType.ARXIV: settings.arxiv_leg,
    }.get(IdType(id_type), False)


def _as(target: Target, record: RecordRow, tier: Tier | None) -> RecordRow:
    """`record` restated for `target` (identity columns) with its tier, schema columns only."""
    out = {name: record.get(name) for name in RECORDS.names}
    out.update(id_type=target.id_type, identifier=target.identifier)
    out["tier"] = str(tier) if tier is not None else None
    out["retrieved_at"] = out.get("retrieved_at") or now_iso()
    return out


def _unanswered(target: Target, reason: Reason, status: RecordStatus) -> RecordRow:
    register = {"crossref": "crossref", "pubmed": "pubmed", "arxiv": "arxiv"}[target.leg]
    return {"register": register, "status": str(status), "reason": str(reason)}


def _keeper(pending: Sequence[Target], cache: RecordCache) -> Callable[[str], Sink]:
    """Per leg, a sink that caches each batch's definitive rows as soon as they arrive."""
    by_lookup: dict[tuple[str, str], list[Target]] = {}
    for target in pending:
        by_lookup.setdefault((target.leg, target.lookup), []).append(target)

    def for_leg(leg: str) -> Sink:
        namespace, version = _LEGS[leg]

        def keep(rows: dict[str, RecordRow]) -> None:
            for lookup, record in rows.items():
                if record.get("reason") == Reason.NOT_IN_CROSSREF:
                    continue  # not an answer yet: the DOI system decides
                for target in by_lookup.get((leg, lookup), []):
                    # The cache itself refuses failures to look.
                    cache.put(namespace, version, lookup, _as(target, record, Tier.LIVE))

        return keep

    return for_leg


async def _doi_leg(dois: list[str], net: Net, keep: Sink) -> dict[str, RecordRow]:
    rows = await CrossrefRegister(sink=keep).fetch(dois, net)
    misses = [
        d
        for d, r in rows.items()
        if r["status"] == RecordStatus.NOT_FOUND and r["reason"] == Reason.NOT_IN_CROSSREF
    ]
    if misses:
        # Crossref 404 is "not in Crossref": the DOI system decides whether the DOI exists.
        settled = await DoiSystemRegister().fetch(misses, net)
        keep(settled)
        rows.update(settled)
    return rows


async def _live(
    pending: Sequence[Target], net: Net, cache: RecordCache
) -> dict[tuple[str, str], RecordRow]:
    """Ask the registers for `pending`, all legs concurrently; keyed by `(leg, lookup)`."""
    by_leg: dict[str, list[str]] = {}
    for target in pending:
        lookups = by_leg.setdefault(target.leg, [])
        if target.lookup not in lookups:
            lookups.append(target.lookup)
    keeper = _keeper(pending, cache)
    jobs: dict[str, Callable[[list[str]], Awaitable[dict[str, RecordRow]]]] = {
        "crossref": lambda ids: _doi_leg(ids, net, keeper("crossref")),
        "pubmed": lambda ids: PubmedRegister(sink=keeper("pubmed")).fetch(ids, net),
        "arxiv": lambda ids: ArxivRegister(sink=keeper("arxiv")).fetch(ids, net),
    }
    legs = list(by_leg)
    answers = await asyncio.gather(*(jobs[leg](by_leg[leg]) for leg in legs))
    return {
        (leg, lookup): record
        for leg, answer in zip(legs, answers, strict=True)
        for lookup, record in answer.items()
    }


async def resolve(references: pa.Table, settings: Settings, net: Net | None) -> pa.Table:
    """The `RECORDS` table for `references`: snapshot → cache → live, one row per distinct id.

    With `net=None` or `settings.offline`, no request is made: a miss in snapshot and cache is
    `unreachable` with reason `offline`. A closed leg gives `not_covered`/`leg_closed` with no
    request. Never raises for a register failure.
    """
    wanted = targets(references)
    snapshot = lookup_snapshots(settings.snapshots, ((t.id_type, t.identifier) for t in wanted))
    own_cache = None
    cache = net.cache if net is not None else None
    if cache is None:
        own_cache = cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    try:
        return await _resolve(wanted, settings, net, snapshot, cache)
    finally:
        if own_cache is not None:
            own_cache.close()


async def _resolve(
    wanted: list[Target],
    settings: Settings,
    net: Net | None,
    snapshot: dict[tuple[str, str], dict[str, Any]],
    cache: RecordCache,
) -> pa.Table:
    answers: dict[Target, RecordRow] = {}
    pending: list[Target] = []
    for target in wanted:
        if not _leg_open(settings, target.id_type):
            closed = _unanswered(target, Reason.LEG_CLOSED, RecordStatus.NOT_COVERED)
            answers[target] = _as(target, closed, None)
            continue
        hit = snapshot.get((target.id_type, target.identifier))
        if hit is not None:
            answers[target] = _as(target, hit, Tier.SNAPSHOT)
            continue
        leg, version = _LEGS[target.leg]
        cached = None if settings.refresh else cache.get(leg, version, target.lookup)
        if cached is not None:
            answers[target] = _as(target, cached, Tier.CACHE)
            continue
        pending.append(target)
    if pending and (net is None or settings.offline):
        for target in pending:
            missing = _unanswered(target, Reason.OFFLINE, RecordStatus.UNREACHABLE)
            answers[target] = _as(target, missing, None)
    elif pending and net is not None:
        live = await _live(pending, net, cache)
        for target in pending:
            answers[target] = _as(target, live[(target.leg, target.lookup)], Tier.LIVE)
    return from_rows([answers[t] for t in wanted], RECORDS)
