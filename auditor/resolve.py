"""The resolve stage: distinct identifiers → register records, from snapshot, cache, then live.

Input is the `REFERENCES` table after classify; output is the `RECORDS` table with one row per
distinct `(id_type, identifier)` among rows that have no `row_state`: the snapshot's answers,
then the others, each part in first-seen order (a very large snapshot part in the join's order:
`join_snapshots`). Each row carries its `tier` and `retrieved_at`.
Which register answers an identifier first is the registry's word (`registers/registry.py`);
registers run concurrently, each batched and paced by the run's `Net`. A failure to look is a row
with `status="unreachable"` and a reason, never `not_found`. A row a register refers on
(Crossref's "not in Crossref") is settled by the register it names (the DOI system); arXiv DOIs
(`10.48550/arXiv.<id>`) are claimed by arXiv.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms
from auditor.errors import Reason
from auditor.registers import registry
from auditor.registers.agencies import AgencyBook
from auditor.registers.csl import CslRegister
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import now_iso
from auditor.settings import Settings
from auditor.tables import RECORDS, IdType, RecordStatus, Tier, from_rows
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net
from auditor.transport.snapshot import join_snapshots


@dataclass(frozen=True)
class Target:
    """One distinct identifier to resolve and which register answers it first."""

    id_type: str
    identifier: str
    register: type[Register]
    """The register asked first (`registry.first_for`); its name and version key the cache."""
    asked: str
    """The id as that register takes it (an arXiv DOI's arXiv id)."""


def targets(references: pa.Table) -> list[Target]:
    """Distinct `(id_type, identifier)` of rows without `row_state`, in first-seen order."""
    seen: dict[tuple[str, str], Target] = {}
    columns = references.select(["id_type", "identifier", "row_state"]).to_pydict()
    for id_type, identifier, state in zip(
        columns["id_type"], columns["identifier"], columns["row_state"], strict=True
    ):
        if state is not None or not id_type or not identifier or (id_type, identifier) in seen:
            continue
        first = registry.first_for(id_type, identifier)
        if first is not None:
            seen[(id_type, identifier)] = Target(id_type, identifier, *first)
    return list(seen.values())


def _leg_open(settings: Settings, id_type: str) -> bool:
    """Whether the criteria's leg for `id_type` is open (the only meaning of "leg")."""
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
    return {"register": target.register.name, "status": str(status), "reason": str(reason)}


def _offline(targets: list[Target]) -> pa.Table:
    """The `RECORDS` rows `_as(target, _unanswered(target, offline, unreachable), None)` gives,
    built as columns (an offline run may miss many identifiers)."""
    n = len(targets)
    given = {
        "register": [t.register.name for t in targets],
        "id_type": [t.id_type for t in targets],
        "identifier": [t.identifier for t in targets],
        "status": pa.repeat(pa.scalar(str(RecordStatus.UNREACHABLE)), n),
        "reason": pa.repeat(pa.scalar(str(Reason.OFFLINE)), n),
        "retrieved_at": pa.repeat(pa.scalar(now_iso()), n),
    }
    return pa.table(
        {
            f.name: pa.array(given[f.name], f.type) if f.name in given else pa.nulls(n, f.type)
            for f in RECORDS
        },
        schema=RECORDS,
    )


class _Keeper:
    """Caches each batch's definitive rows as soon as they arrive, under the claiming register."""

    def __init__(self, pending: Sequence[Target], cache: RecordCache) -> None:
        self._cache = cache
        self._by_asked: dict[tuple[str, str], list[Target]] = {}
        for target in pending:
            key = (target.register.name, target.asked)
            self._by_asked.setdefault(key, []).append(target)

    def sink(self, claimant: type[Register], answering: Register) -> Sink:
        """A sink for rows `answering` gives about ids `claimant` claimed (referrals skipped).

        Every answer about an id is cached under its claimant's namespace (for a DOI, Crossref's,
        whichever agency answered), so a warm run finds it whatever route the cold run took.
        """

        def keep(rows: dict[str, RecordRow]) -> None:
            for asked, record in rows.items():
                if answering.referred(record):
                    continue  # not an answer yet: the settling register decides
                for target in self._by_asked.get((claimant.name, asked), []):
                    # The cache itself refuses failures to look.
                    self._cache.put(
                        claimant.name, claimant.api_version, asked, _as(target, record, Tier.LIVE)
                    )

        return keep


def _make(kind: type[Register], agency_of: dict[str, str]) -> Register:
    """An instance of `kind`; the CSL register is told each DOI's agency (its `agency` column)."""
    return CslRegister(agency_of=agency_of) if kind is CslRegister else kind()


def _agency_register(record: RecordRow, asked_of: set[str]) -> type[Register] | None:
    """The register of the agency a settling answer named, unless it was already asked."""
    if record.get("status") != RecordStatus.NOT_COVERED:
        return None
    kind = registry.for_agency(record.get("agency"))
    return kind if kind is not None and kind.name not in asked_of else None


async def _by_agency(
    rows: dict[str, RecordRow],
    asked_of: set[str],
    claimant: type[Register],
    net: Net,
    keeper: _Keeper,
) -> dict[str, RecordRow]:
    """Rows the DOI system placed at an agency with a register, asked of that register.

    The agency's referral (its own 404) keeps the DOI system's row: the DOI exists there and
    there is nothing to compare. Everything else (a record, a failure to look) replaces it.
    """
    groups: dict[type[Register], list[str]] = {}
    for asked, record in rows.items():
        kind = _agency_register(record, asked_of)
        if kind is not None:
            groups.setdefault(kind, []).append(asked)
    out = dict(rows)
    for kind, ids in groups.items():
        register = _make(kind, {i: str(rows[i].get("agency")) for i in ids})
        answer = await register.fetch(ids, net)
        kept = {i: r for i, r in answer.items() if not register.referred(r)}
        keeper.sink(claimant, register)(kept)
        out.update(kept)
    return await _second_source(out, claimant, net, keeper)


async def _second_source(
    rows: dict[str, RecordRow], claimant: type[Register], net: Net, keeper: _Keeper
) -> dict[str, RecordRow]:
    """DOIs still NOT COVERED (their agency has no register, or served nothing comparable)
    asked of the second source (OpenAlex, `registry.SECOND_SOURCE`): a record it holds replaces
    the DOI system's row; anything else (not held, a failure to look) leaves that row as it was,
    so the second source never makes a row worse than without it."""
    open_ = [i for i, r in rows.items() if r.get("status") == RecordStatus.NOT_COVERED]
    if not open_:
        return rows
    register = registry.named(registry.SECOND_SOURCE)()
    answer = await register.fetch(open_, net)
    found = {i: r for i, r in answer.items() if r.get("status") == RecordStatus.FOUND}
    keeper.sink(claimant, register)(found)
    return {**rows, **found}


async def _ask(
    claimant: type[Register],
    kind: type[Register],
    ids: list[str],
    net: Net,
    keeper: _Keeper,
    book: AgencyBook,
) -> dict[str, RecordRow]:
    """`ids` (claimed by `claimant`) asked of `kind`; its referrals go to `settled_by`, and a DOI
    the settling register places at an agency with a register is asked of that register."""
    first = _make(kind, {i: a for i in ids if (a := book.agency(i))})
    keep = keeper.sink(claimant, first)
    first.sink = keep
    rows = await first.fetch(ids, net)
    book.learn(rows)
    referred = [i for i, r in rows.items() if first.referred(r)]
    if referred and kind.settled_by is not None:
        settled = await registry.named(kind.settled_by)().fetch(referred, net)
        book.learn(settled)
        settled = await _by_agency(settled, {kind.name}, claimant, net, keeper)
        keep(settled)
        rows.update(settled)
    return rows


def _route(target: Target, book: AgencyBook) -> type[Register]:
    """Who answers `target` first: the register of its DOI prefix's known agency, if any.

    Only a DOI that the registry gives to the generic DOI register (Crossref) is re-routed; an
    arXiv DOI stays with arXiv. An unknown prefix keeps the registry's order.
    """
    if target.id_type != IdType.DOI or not target.register.reads_agencies:
        return target.register
    kind = registry.for_agency(book.agency(target.asked))
    return kind if kind is not None else target.register


async def ask_live(
    pending: Sequence[Target], net: Net, cache: RecordCache
) -> dict[tuple[str, str], RecordRow]:
    """Ask the registers for `pending`, all concurrently; keyed by `(claimant, asked)`."""
    book = AgencyBook(cache)
    by_route: dict[tuple[type[Register], type[Register]], list[str]] = {}
    for target in pending:
        asked = by_route.setdefault((target.register, _route(target, book)), [])
        if target.asked not in asked:
            asked.append(target.asked)
    keeper = _Keeper(pending, cache)
    routes = list(by_route)
    answers = await asyncio.gather(
        *(
            _ask(claimant, kind, by_route[(claimant, kind)], net, keeper, book)
            for claimant, kind in routes
        )
    )
    return {
        (claimant.name, asked): record
        for (claimant, _), answer in zip(routes, answers, strict=True)
        for asked, record in answer.items()
    }


def _distinct_keys(references: pa.Table) -> pa.Table:
    """Distinct `(id_type, identifier)` of rows without `row_state`, with `first` (row position
    of the first one), in first-seen order: Arrow kernels, no row loop."""
    live = pc.and_(
        pc.is_null(references["row_state"]),
        pc.and_(
            pc.fill_null(pc.not_equal(references["id_type"], ""), False),
            pc.fill_null(pc.not_equal(references["identifier"], ""), False),
        ),
    )
    rows = pa.array(np.flatnonzero(live.to_numpy(zero_copy_only=False)), pa.int64())
    # Each part hashed once into integer codes, a pair being one integer: cheaper than grouping
    # by two string columns (the identifier is distinct per key almost always).
    ids = pc.dictionary_encode(column_idioms.array(references["identifier"].take(rows)))
    types = pc.dictionary_encode(column_idioms.array(references["id_type"].take(rows)))
    pair = ids.indices.to_numpy().astype(np.int64) * len(types.dictionary)
    pair += types.indices.to_numpy()
    _, first = np.unique(pair, return_index=True)
    first.sort()
    at = rows.take(pa.array(first, pa.int64()))
    return pa.table(
        {
            "id_type": column_idioms.array(references["id_type"].take(at)),
            "identifier": column_idioms.array(references["identifier"].take(at)),
            "first": at,
        }
    )


def _snapshot_rows(hits: pa.Table, first: pa.Array) -> pa.Table:
    """Snapshot hits restated as `_as` does (tier, as-of filled), with their `first` position."""
    if hits["retrieved_at"].null_count:  # a snapshot's rows are stamped as a rule: no copy
        now = pa.scalar(now_iso(), pa.string())
        stamped = pc.coalesce(hits["retrieved_at"], now)
        hits = hits.set_column(
            RECORDS.get_field_index("retrieved_at"), RECORDS.field("retrieved_at"), stamped
        )
    return hits.append_column("first", first)


async def resolve(references: pa.Table, settings: Settings, net: Net | None) -> pa.Table:
    """The `RECORDS` table for `references`: snapshot → cache → live, one row per distinct id.

    With `net=None` or `settings.offline`, no request is made: a miss in snapshot and cache is
    `unreachable` with reason `offline`. A closed leg gives `not_covered`/`leg_closed` with no
    request. Never raises for a register failure.

    The snapshot is joined for all distinct identifiers at once (`join_snapshots`) and its hits
    stay a table; only the identifiers it lacks go one by one to the cache and the registers.
    """
    keys = _distinct_keys(references)
    open_legs = [t for t in (IdType.DOI, IdType.PMID, IdType.ARXIV) if _leg_open(settings, t)]
    asked = keys.filter(pc.is_in(keys["id_type"], value_set=pa.array(open_legs, pa.string())))
    hits, at = join_snapshots(settings.snapshots, asked)
    first = asked["first"].combine_chunks().take(at)
    found = _snapshot_rows(hits, first)
    # `first` is a reference's row position, distinct per key: it marks the keys answered.
    answered = np.zeros(references.num_rows, dtype=bool)
    answered[first.to_numpy()] = True
    rest = keys.filter(pa.array(~answered[keys["first"].to_numpy()]))
    wanted: list[Target] = []
    positions: list[int] = []  # of each wanted target's first reference
    for id_type, identifier, position in zip(
        rest["id_type"].to_pylist(),
        rest["identifier"].to_pylist(),
        rest["first"].to_pylist(),
        strict=True,
    ):
        if (first := registry.first_for(id_type, identifier)) is not None:
            wanted.append(Target(id_type, identifier, *first))
            positions.append(position)
    own_cache = None
    cache = net.cache if net is not None else None
    if cache is None and wanted:
        own_cache = cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    try:
        others = await _resolve(wanted, settings, net, cache) if wanted else RECORDS.empty_table()
    finally:
        if own_cache is not None:
            own_cache.close()
    others = others.append_column("first", pa.array(positions, pa.int64()))
    # Each part is in its order already (`join_snapshots`); putting the few others among a
    # million hits would cost a take of every row.
    merged = pa.concat_tables([found.select(others.column_names), others])
    return merged.select(RECORDS.names).cast(RECORDS)


async def _resolve(
    wanted: list[Target],
    settings: Settings,
    net: Net | None,
    cache: RecordCache | None,
) -> pa.Table:
    assert cache is not None
    answers: dict[Target, RecordRow] = {}
    pending: list[Target] = []
    # An empty cache answers nothing: a million offline misses need not ask it one by one.
    lookup = not settings.refresh and not cache.empty
    for target in wanted:
        if not _leg_open(settings, target.id_type):
            closed = _unanswered(target, Reason.LEG_CLOSED, RecordStatus.NOT_COVERED)
            answers[target] = _as(target, closed, None)
            continue
        first = target.register
        cached = cache.get(first.name, first.api_version, target.asked) if lookup else None
        if cached is not None:
            answers[target] = _as(target, cached, Tier.CACHE)
            continue
        pending.append(target)
    if pending and (net is None or settings.offline):
        if not answers:
            return _offline(pending)
        for target in pending:
            missing = _unanswered(target, Reason.OFFLINE, RecordStatus.UNREACHABLE)
            answers[target] = _as(target, missing, None)
    elif pending and net is not None:
        with net.retry_batch():  # each register host: one retry budget for this stage
            lookups = getattr(net, "lookups", None)  # test doubles of `Net` may lack it
            if lookups is not None:  # a cluster: one service asks for every worker
                live = await lookups.live(pending)
            else:
                live = await ask_live(pending, net, cache)
        for target in pending:
            live_row = live[(target.register.name, target.asked)]
            answers[target] = _as(target, live_row, Tier.LIVE)
    return from_rows([answers[t] for t in wanted], RECORDS)
