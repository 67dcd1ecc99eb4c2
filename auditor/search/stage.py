"""The title-search stage: rows without a usable identifier, looked for by title.

Input: the references, the verdicts so far, settings and the run's `Net`. Rows searched: those
NOT COVERED for want of an identifier (`no_identifier`, `unrecognized_id`) that have a title and
no Han ideograph (Chinese references go through the Chinese waterfall instead), and, with
`search_unresolved`, rows whose identifier DOES-NOT-RESOLVE, only to say whether a work of that
title exists (their verdict stays; `searched` and `nearest` tell a wrong identifier on a real
work from a made-up work).
For each row, `routing.route` gives the indexes it may ask and those covering its field, or
says a miss would not count there (`not_indexed_type`: the row stays NOT COVERED, with a P3
item). The planner (`search/plan.py`) then asks them: what the snapshots and the cache hold
first (no request), then every index at once at its own pace, fast general indexes first and
slow ones only for rows still open; a confident hit settles a row.

Outcome per row: the best candidate taken as the cited work (`choose`) is the row's record and
goes through the normal comparison (`compare_found`, under the run's criteria), so the row ends
RESOLVES-AND-MATCHES or RESOLVES-BUT-DIFFERS with `queried_by` `title`; with no such candidate
and at least two indexes covering the row's field having answered, the row is NOT FOUND
(`no_index_match`), with the indexes asked and the nearest candidates; otherwise, if an index
could not be consulted, UNCHECKED with its reason (a failure to look is never absence).
`--offline` or no `Net`: only snapshot and cache answer.

A reference read from a document whose parts the parse could not tell apart (warning
`documents.rows.UNSURE`) is searched by its whole string instead (`documents.settle`): a
candidate counts only when its title, first author and year are found in the string, and the
claimed fields are then read off the string around its title; with none, the row stays NOT
COVERED (`unsure_reference`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.compare.found import compare_found
from auditor.errors import Reason
from auditor.load.documents import settle
from auditor.load.documents.rows import UNSURE
from auditor.names import cited_surname
from auditor.patches import empty_patch, merge, patch_from_rows
from auditor.registers.interface import RecordRow, SearchRegister, TitleQuery
from auditor.registers.registry import SEARCH_REGISTERS
from auditor.result import SearchUse
from auditor.search.choose import describe
from auditor.search.plan import IndexUse, Planner, SearchRow
from auditor.search.routing import Route, miss_counts, route_reference
from auditor.search.tiers import Tiers
from auditor.settings import Settings
from auditor.tables import RECORDS, RowState, Verdict
from auditor.text import has_han
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net

#: The indexes a whole reference string is asked of; both cover any field it may name.
STRING_ROUTE = Route(settle.STRING_ROUTE, frozenset(settle.STRING_ROUTE))

#: Reasons of NOT COVERED rows a title search may settle.
SEARCHABLE_REASONS: frozenset[str] = frozenset({Reason.NO_IDENTIFIER, Reason.UNRECOGNIZED_ID})


@dataclass(frozen=True)
class SearchResult:
    """The verdicts with searched rows settled, the records they now rely on, and the patch."""

    verdicts: pa.Table
    records: pa.Table
    """`RECORDS` rows of the chosen candidates (identity: the work's own identifier)."""
    patch: pa.Table
    """The verdict patch (`auditor.patches`) that made `verdicts` from the verdicts given."""
    use: tuple[SearchUse, ...] = ()
    """Per index asked: requests sent, queries answered free, seconds the stage waited on it."""


def _surname(authors: Sequence[str] | None) -> str | None:
    """The first author's surname as cited (`auditor.names.cited_surname`)."""
    for name in authors or ():
        if name and name.strip():
            return cited_surname(name)
    return None


def _candidates(
    references: pa.Table, verdicts: pa.Table, unresolved: bool
) -> tuple[list[SearchRow], list[int]]:
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
    rows: list[SearchRow] = []
    unindexed: list[int] = []
    for at, ref, state in zip(positions, refs, states, strict=True):
        title = (ref.get("title") or "").strip()
        settles = state["verdict"] == Verdict.NOT_COVERED and state["reason"] in SEARCHABLE_REASONS
        notes = unresolved and state["verdict"] == Verdict.DOES_NOT_RESOLVE
        text = ref.get("reference_text") or ""
        if settles and text and UNSURE in (ref.get("warnings") or []) and not has_han(text):
            query = TitleQuery(settle.string_query(text))
            rows.append(SearchRow(at, ref, query, STRING_ROUTE, from_string=True))
            continue
        if not (settles or notes) or not title or has_han(title):
            continue
        order = route_reference(ref)
        if order is None:
            if settles:
                unindexed.append(at)
            continue
        query = TitleQuery(title, _surname(ref.get("authors")), ref.get("year"))
        rows.append(SearchRow(at, ref, query, order, note_only=notes))
    return rows, unindexed


def _fast(registers: Mapping[str, SearchRegister], settings: Settings) -> frozenset[str]:
    """The indexes whose pace for this run makes them fast (`search_fast_pace`)."""
    fast = settings.search_fast_pace
    return frozenset(n for n, r in registers.items() if r.host.pace(settings) >= fast)


async def _search(rows: list[SearchRow], tiers: Tiers) -> list[IndexUse]:
    """Every row searched by the planner; what each index cost."""
    registers = {r.name: r() for r in SEARCH_REGISTERS}
    settings = tiers.settings
    slots = {n: r.host.slots(settings) for n, r in registers.items()}
    clock = tiers.net.clock if tiers.net is not None else time.monotonic
    planner = Planner(rows, registers, tiers, _fast(registers, settings), clock)
    return await planner.run(slots)


def _record(row: SearchRow) -> RecordRow:
    assert row.best is not None
    cand = row.best.candidate
    out = {k: cand.get(k) for k in RECORDS.names}
    out["tier"] = row.tier
    return out


def _resolved(references: pa.Table, rows: list[SearchRow], criteria: str) -> list[dict[str, Any]]:
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
    verdicts: pa.Table, rows: list[SearchRow], unindexed: list[int], resolved: list[Any]
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


def _settle(v: dict[str, Any], row: SearchRow, found: dict[str, Any] | None) -> None:
    """Write what the search learnt about `row` into its verdict row `v`."""
    if row.note_only:
        # DOES-NOT-RESOLVE stays: a real work of this title makes it "a wrong identifier on a
        # real work" (that work first in `nearest`), none makes it "no such work either".
        # A failed index says nothing, unless two covering indexes said no without it.
        if row.best is not None or row.failure is None or len(row.noes) >= 2:
            v["searched"] = row.searched
            best = [row.best] if row.best is not None else []
            v["nearest"] = [describe(c.candidate) for c in best]
        return
    if found is not None:
        v.update({k: val for k, val in found.items() if k not in ("group_id",)})
    elif row.from_string:
        # A string query's miss proves nothing (unless the search failed: then unchecked).
        failed = row.failure is not None
        v["verdict"] = str(RowState.UNCHECKED) if failed else v["verdict"]
        v["reason"] = str(row.failure) if failed else str(Reason.UNSURE_REFERENCE)
    elif len(row.noes) >= 2 and miss_counts(row.query.title, row.query.year):
        # criteria auditor/v2 title_search.not_found: two covering indexes said no.
        v["verdict"], v["reason"] = str(RowState.NOT_FOUND), str(Reason.NO_INDEX_MATCH)
    elif row.failure is not None:
        v["verdict"], v["reason"] = str(RowState.UNCHECKED), str(row.failure)
    else:
        # Stays NOT COVERED: a miss proves nothing here (an old or non-Latin title), or fewer
        # than two indexes covering the field could say no.
        v["reason"] = str(Reason.NOT_INDEXED_TYPE)
    v["queried_by"] = "title"
    v["searched"] = row.searched
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
            use = await _search(rows, Tiers(settings, net, cache))
    finally:
        if own is not None:
            own.close()
    chosen = [r for r in rows if r.best is not None and not r.note_only]
    patch = _patch(verdicts, rows, unindexed, _resolved(references, chosen, criteria))
    records = tables.from_rows([_record(r) for r in chosen], RECORDS)
    spent = tuple(SearchUse(u.index, u.requests, u.free, u.waited) for u in use)
    return SearchResult(merge(verdicts, patch), records, patch, spent)
