"""The title-search stage: rows without a usable identifier, looked for by title.

Input: the references, the verdicts so far, settings and the run's `Net`. Rows searched: those
NOT COVERED for want of an identifier (`no_identifier`, `unrecognized_id`) that have a title and
no Han ideograph (Chinese references go through the Chinese waterfall instead), and, with
`search_unresolved`, rows whose identifier DOES-NOT-RESOLVE, only to say whether a work of that
title exists (their verdict stays; `searched` and `nearest` tell a wrong identifier on a real
work from a made-up work).
For each row, `routing.route` gives the indexes to ask in order, or says a miss would not
count there (`not_indexed_type`: the row stays NOT COVERED, with a P3 item). Then, index by
index, every still-open row's query is answered from the snapshot, the cache, then live (all of
one index's queries together, each one request); a confident hit closes the row, so it asks no
further index.

Outcome per row: the best candidate taken as the cited work (`choose`) is the row's record and
goes through the normal comparison (`compare_found`, under the run's criteria), so the row ends
RESOLVES-AND-MATCHES or RESOLVES-BUT-DIFFERS with `queried_by` `title`; with no such candidate
and every asked index answering, the row is NOT FOUND (`no_index_match`), with the indexes asked
and the nearest candidates; if an index could not be consulted, UNCHECKED with its reason (a
failure to look is never absence). `--offline` or no `Net`: only snapshot and cache answer.

A reference read from a document whose parts the parse could not tell apart (warning
`documents.rows.UNSURE`) is searched by its whole string instead (`documents.settle`): a
candidate counts only when its title, first author and year are found in the string, and the
claimed fields are then read off the string around its title; with none, the row stays NOT
COVERED (`unsure_reference`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.compare.found import compare_found
from auditor.documents import settle
from auditor.documents.rows import UNSURE
from auditor.dumps.title_index import index_candidates
from auditor.errors import Reason
from auditor.names import cited_surname
from auditor.patches import empty_patch, merge, patch_from_rows
from auditor.registers.interface import RecordRow, SearchAnswer, SearchRegister, TitleQuery
from auditor.registers.registry import SEARCH_REGISTERS
from auditor.search import answers
from auditor.search.choose import NEAREST, Choice, describe, ranked
from auditor.search.routing import miss_counts, route_reference
from auditor.settings import Settings
from auditor.tables import RECORDS, RowState, Tier, Verdict
from auditor.text import has_han, normalize_text
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net
from auditor.transport.snapshot import lookup_searches

#: Reasons of NOT COVERED rows a title search may settle.
SEARCHABLE_REASONS: frozenset[str] = frozenset({Reason.NO_IDENTIFIER, Reason.UNRECOGNIZED_ID})


@dataclass
class _Row:
    """One searched reference and what the search has learnt so far."""

    at: int
    """Position in the tables."""
    ref: dict[str, Any]
    query: TitleQuery
    route: Sequence[str]
    asked: list[str] = field(default_factory=list)
    failure: Reason | None = None
    best: Choice | None = None
    near: list[Choice] = field(default_factory=list)
    tier: str | None = None
    note_only: bool = False
    """The row's identifier does not resolve: the search only says whether a work of this
    title exists (the verdict stays DOES-NOT-RESOLVE)."""
    from_string: bool = False
    """The query is the whole reference string (an unsure parse): candidates are validated
    against the string and the claimed fields read off it (`documents.settle`)."""

    @property
    def closed(self) -> bool:
        return self.best is not None and self.best.confident


@dataclass(frozen=True)
class SearchResult:
    """The verdicts with searched rows settled, the records they now rely on, and the patch."""

    verdicts: pa.Table
    records: pa.Table
    """`RECORDS` rows of the chosen candidates (identity: the work's own identifier)."""
    patch: pa.Table
    """The verdict patch (`auditor.patches`) that made `verdicts` from the verdicts given."""


def _surname(authors: Sequence[str] | None) -> str | None:
    """The first author's surname as cited (`auditor.names.cited_surname`)."""
    for name in authors or ():
        if name and name.strip():
            return cited_surname(name)
    return None


def _candidates(
    references: pa.Table, verdicts: pa.Table, unresolved: bool
) -> tuple[list[_Row], list[int]]:
    """Rows to search, and positions of rows a miss would not count against."""
    # Only rows a search may touch become dicts: a million matched rows cost one column test.
    maybe = pc.is_in(
        verdicts["reason"], value_set=pa.array(sorted(SEARCHABLE_REASONS), pa.string())
    )
    maybe = pc.and_(pc.equal(verdicts["verdict"], Verdict.NOT_COVERED.value), maybe)
    if unresolved:
        maybe = pc.or_(maybe, pc.equal(verdicts["verdict"], Verdict.DOES_NOT_RESOLVE.value))
    positions = pc.indices_nonzero(pc.fill_null(maybe, False)).to_pylist()
    at_positions = pa.array(positions, pa.int64())
    refs = references.take(at_positions).to_pylist()
    states = verdicts.select(["verdict", "reason"]).take(at_positions).to_pylist()
    rows: list[_Row] = []
    unindexed: list[int] = []
    for at, ref, state in zip(positions, refs, states, strict=True):
        title = (ref.get("title") or "").strip()
        settles = state["verdict"] == Verdict.NOT_COVERED and state["reason"] in SEARCHABLE_REASONS
        notes = unresolved and state["verdict"] == Verdict.DOES_NOT_RESOLVE
        text = ref.get("reference_text") or ""
        if settles and text and UNSURE in (ref.get("warnings") or []) and not has_han(text):
            query = TitleQuery(settle.string_query(text))
            rows.append(_Row(at, ref, query, settle.STRING_ROUTE, from_string=True))
            continue
        if not (settles or notes) or not title or has_han(title):
            continue
        order = route_reference(ref)
        if order is None:
            if settles:
                unindexed.append(at)
            continue
        query = TitleQuery(title, _surname(ref.get("authors")), ref.get("year"))
        rows.append(_Row(at, ref, query, order, note_only=notes))
    return rows, unindexed


class _Tiers:
    """Search answers from snapshot, cache, then live, for one run."""

    def __init__(self, settings: Settings, net: Net | None, cache: RecordCache) -> None:
        self.settings = settings
        self.net = net
        self.cache = cache

    async def ask(
        self, register: SearchRegister, queries: Sequence[TitleQuery]
    ) -> dict[TitleQuery, tuple[SearchAnswer, str | None]]:
        out: dict[TitleQuery, tuple[SearchAnswer, str | None]] = {}
        pending: list[TitleQuery] = []
        distinct = list(dict.fromkeys(queries))
        wanted = [(register.name, answers.query_key(q)) for q in distinct]
        kept = lookup_searches(self.settings.snapshots, wanted, answers.MAX_KEPT)
        snapshot = answers.from_rows(kept)
        unkept = [
            q.title for q in distinct if (register.name, answers.query_key(q)) not in snapshot
        ]
        # An imported dump's title index answers too; only a hit counts (a dump may be partial).
        indexed = index_candidates(self.settings.snapshots, register.name, unkept)
        for query in distinct:
            key = answers.query_key(query)
            hit = snapshot.get((register.name, key))
            if hit is not None:
                out[query] = (hit, str(Tier.SNAPSHOT))
                continue
            if query.title in indexed:
                found = tuple(indexed[query.title])
                out[query] = (SearchAnswer(candidates=found), str(Tier.SNAPSHOT))
                continue
            if not self.settings.refresh:
                held = answers.cached(self.cache, register.name, register.api_version, key)
                if held is not None:
                    out[query] = (held, str(Tier.CACHE))
                    continue
            pending.append(query)
        if not pending:
            return out
        if self.net is None or self.settings.offline:
            out.update({q: (SearchAnswer(reason=Reason.OFFLINE), None) for q in pending})
            return out
        live = await register.search(pending, self.net)
        for query in pending:
            answer = live.get(query, SearchAnswer(reason=Reason.MALFORMED_BODY))
            key = answers.query_key(query)
            answers.keep(self.cache, register.name, register.api_version, key, answer)
            out[query] = (answer, str(Tier.LIVE))
        return out


def _work(candidate: RecordRow) -> str:
    """What makes two indexes' candidates the same work: the DOI, else the title."""
    return str(candidate.get("doi") or normalize_text(candidate.get("title")))


def _learn(row: _Row, index: str, answer: SearchAnswer, tier: str | None) -> None:
    row.asked.append(index)
    if answer.reason is not None:
        row.failure = row.failure or answer.reason
        return
    candidates = answer.candidates
    if row.from_string:
        candidates = _from_string(row, candidates)
    choices = ranked(row.ref, candidates)
    seen = {_work(c.candidate) for c in row.near}
    fresh = [c for c in choices[:NEAREST] if _work(c.candidate) not in seen]
    row.near = sorted([*row.near, *fresh], key=lambda c: c.rank, reverse=True)[:NEAREST]
    top = choices[0] if choices else None
    if top is not None and top.strong and (row.best is None or top.rank > row.best.rank):
        row.best, row.tier = top, tier


def _from_string(row: _Row, candidates: Sequence[RecordRow]) -> tuple[RecordRow, ...]:
    """The first candidate found in the row's string, with the row's claimed fields read off
    the string around it (`row.ref` updated); none when no candidate is in the string."""
    text = str(row.ref.get("reference_text") or "")
    for candidate in candidates:
        if not settle.validated(text, candidate):
            continue
        fields = settle.fields_around(text, candidate)
        if fields is not None:
            row.ref.update(fields)
            return (candidate,)
    return ()


async def _search(rows: list[_Row], tiers: _Tiers) -> None:
    """Ask each row's indexes in its order until a confident hit or the route ends."""
    registers = {r.name: r() for r in SEARCH_REGISTERS}
    for step in range(max((len(r.route) for r in rows), default=0)):
        by_index: dict[str, list[_Row]] = {}
        for row in rows:
            if not row.closed and step < len(row.route):
                by_index.setdefault(row.route[step], []).append(row)
        names = list(by_index)
        got = await asyncio.gather(
            *(tiers.ask(registers[n], [r.query for r in by_index[n]]) for n in names)
        )
        for name, answered in zip(names, got, strict=True):
            for row in by_index[name]:
                answer, tier = answered[row.query]
                _learn(row, name, answer, tier)


def _record(row: _Row) -> RecordRow:
    assert row.best is not None
    cand = row.best.candidate
    out = {k: cand.get(k) for k in RECORDS.names}
    out["tier"] = row.tier
    return out


def _resolved(references: pa.Table, rows: list[_Row], criteria: str) -> list[dict[str, Any]]:
    """Verdict rows of the rows with a chosen candidate, each compared with its own candidate
    (`compare_found`: the comparison an audit uses, without a join by identifier); they name
    the work found (its `id_type` and `identifier`)."""
    if not rows:
        return []
    # each row's own dict: a string-searched row's claimed fields were read off its string
    refs = pa.Table.from_pylist([dict(r.ref) for r in rows], schema=references.schema)
    records = tables.from_rows([_record(r) for r in rows], RECORDS)
    compared: list[dict[str, Any]] = compare_found(refs, records, criteria).to_pylist()
    for verdict, row in zip(compared, rows, strict=True):
        cand = row.best.candidate if row.best else {}
        verdict.update(id_type=cand.get("id_type"), identifier=cand.get("identifier"))
    return compared


def _patch(
    verdicts: pa.Table, rows: list[_Row], unindexed: list[int], resolved: list[Any]
) -> pa.Table:
    """The verdict patch of the searched rows: what the search decided for each."""
    touched = sorted({r.at for r in rows} | set(unindexed))
    if not touched:
        return empty_patch()
    taken = verdicts.take(pa.array(touched, pa.int64())).to_pylist()
    before = {at: dict(row) for at, row in zip(touched, taken, strict=True)}
    out = dict(zip(touched, taken, strict=True))
    for at in unindexed:
        out[at]["reason"] = str(Reason.NOT_INDEXED_TYPE)
    settled = [r for r in rows if r.best is not None and not r.note_only]
    found = {r.at: v for r, v in zip(settled, resolved, strict=True)}
    for row in rows:
        _settle(out[row.at], row, found.get(row.at))
    # Only the columns the search changed: the others keep the base's values.
    changed = [
        f.name
        for f in tables.VERDICTS
        if f.name != "row_id" and any(out[at][f.name] != before[at][f.name] for at in touched)
    ]
    return patch_from_rows([out[at] for at in touched], changed)


def _settle(v: dict[str, Any], row: _Row, found: dict[str, Any] | None) -> None:
    """Write what the search learnt about `row` into its verdict row `v`."""
    if row.note_only:
        # DOES-NOT-RESOLVE stays: a real work of this title makes it "a wrong identifier on a
        # real work" (that work first in `nearest`), none makes it "no such work either".
        if row.best is not None or row.failure is None:  # a failed index says nothing
            v["searched"] = list(row.asked)
            best = [row.best] if row.best is not None else []
            v["nearest"] = [describe(c.candidate) for c in best]
        return
    if found is not None:
        v.update({k: val for k, val in found.items() if k not in ("group_id",)})
    elif row.failure is not None:
        v["verdict"], v["reason"] = str(RowState.UNCHECKED), str(row.failure)
    elif row.from_string:
        v["reason"] = str(Reason.UNSURE_REFERENCE)  # a string query's miss proves nothing
    elif not miss_counts(row.query.title, row.query.year):
        v["reason"] = str(Reason.NOT_INDEXED_TYPE)  # stays NOT COVERED: a miss proves nothing
    else:
        v["verdict"], v["reason"] = str(RowState.NOT_FOUND), str(Reason.NO_INDEX_MATCH)
    v["queried_by"] = "title"
    v["searched"] = list(row.asked)
    v["nearest"] = [describe(c.candidate) for c in row.near] if found is None else []


async def title_search(
    references: pa.Table,
    verdicts: pa.Table,
    settings: Settings,
    net: Net | None,
    criteria: str = tables.DEFAULT_CRITERIA,
) -> SearchResult:
    """Settle the rows a title search can (see the module docstring); never raises on data.

    Under `reference-resolution/v1` nothing is searched: v1 knows no title search, and its
    verdicts stay exactly v1's.
    """
    if criteria == tables.CRITERIA_V1:
        return SearchResult(verdicts, tables.empty(RECORDS), empty_patch())
    rows, unindexed = _candidates(references, verdicts, settings.search_unresolved)
    own = None
    cache = net.cache if net is not None and net.cache is not None else None
    if cache is None:
        own = cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    try:
        with net.retry_batch() if net is not None else nullcontext():  # one budget an index
            await _search(rows, _Tiers(settings, net, cache))
    finally:
        if own is not None:
            own.close()
    chosen = [r for r in rows if r.best is not None and not r.note_only]
    patch = _patch(verdicts, rows, unindexed, _resolved(references, chosen, criteria))
    records = tables.from_rows([_record(r) for r in chosen], RECORDS)
    return SearchResult(merge(verdicts, patch), records, patch)
