"""The search planner with scripted indexes: who is asked, when, and what it cost."""

from __future__ import annotations

import asyncio
from typing import Any

from auditor.errors import Reason
from auditor.registers.interface import SearchAnswer, TitleQuery
from auditor.search.plan import Planner, SearchRow
from auditor.search.routing import (
    CROSSREF,
    DBLP,
    OPENALEX,
    ROUTE_CS,
    ROUTE_CS_NO_DOI,
    ROUTE_OTHER,
    S2,
)

FAST = frozenset({CROSSREF, OPENALEX})
TITLE = "Attention Is All You Need"


def _ref(title: str = TITLE, venue: str = "NeurIPS") -> dict[str, Any]:
    return {"title": title, "authors": ["Vaswani, Ashish"], "year": 2017, "container_title": venue}


def _hit(venue: str = "NeurIPS") -> dict[str, Any]:
    return {
        "title": TITLE,
        "authors": ["Ashish Vaswani"],
        "surnames": ["Vaswani"],
        "year": 2017,
        "container_title": venue,
        "status": "found",
    }


class FakeTiers:
    """Tiers whose live answers are scripted per index; records every question and overlap."""

    def __init__(self, hits: dict[str, set[str]], held: dict[str, set[str]] | None = None):
        self.hits = hits  # index -> titles it holds
        self.held = held or {}  # index -> titles a snapshot or the cache answers
        self.can_ask = True
        self.asked: list[tuple[str, str]] = []
        self.in_flight: dict[str, set[str]] = {}
        self.overlap = False

    def _answer(self, index: str, query: TitleQuery) -> SearchAnswer:
        found = query.title in self.hits.get(index, set())
        return SearchAnswer(candidates=(_hit(),) if found else ())

    def free(self, register: Any, queries: list[TitleQuery]) -> dict[TitleQuery, Any]:
        held = self.held.get(register.name, set())
        return {q: (self._answer(register.name, q), "cache") for q in queries if q.title in held}

    async def live(self, register: Any, query: TitleQuery) -> Any:
        flying = self.in_flight.setdefault(query.title, set())
        if flying & {CROSSREF, OPENALEX} and register.name in (CROSSREF, OPENALEX):
            self.overlap = True
        flying.add(register.name)
        self.asked.append((register.name, query.title))
        for _ in range(20 if register.name in (DBLP, S2) else 2):  # slow hosts answer slowly
            await asyncio.sleep(0)
        flying.discard(register.name)
        return self._answer(register.name, query), "live"


class Named:
    def __init__(self, name: str) -> None:
        self.name = name


REGISTERS = {n: Named(n) for n in (CROSSREF, OPENALEX, DBLP, S2)}


def _row(at: int, route: Any, title: str = TITLE) -> SearchRow:
    return SearchRow(at, _ref(title), TitleQuery(title, "Vaswani", 2017), route)


async def _run(rows: list[SearchRow], tiers: FakeTiers, clock: Any = None) -> dict[str, Any]:
    ticks = iter(range(1000))
    planner = Planner(rows, REGISTERS, tiers, FAST, clock or (lambda: float(next(ticks))))
    use = await planner.run(dict.fromkeys(REGISTERS, 2))
    assert all(planner.settled(r) for r in rows)
    return {u.index: u for u in use}


async def test_a_confident_hit_of_a_fast_index_asks_no_slow_one() -> None:
    tiers = FakeTiers({OPENALEX: {TITLE}, CROSSREF: {TITLE}, DBLP: {TITLE}, S2: {TITLE}})
    row = _row(0, ROUTE_CS)
    await _run([row], tiers)
    assert row.closed and len(row.asked) == 1 and row.asked[0] in (CROSSREF, OPENALEX)
    assert not {DBLP, S2} & {i for i, _ in tiers.asked}


async def test_a_made_up_title_needs_two_covering_noes_and_one_slow_request() -> None:
    tiers = FakeTiers({})
    rows = [_row(n, ROUTE_CS_NO_DOI, f"Made up title {n}") for n in range(6)]
    use = await _run(rows, tiers)
    for row in rows:
        assert row.best is None and len(row.noes) >= 2 and OPENALEX in row.noes
        # One slow index settles it: DBLP and S2 share the rows, never both on one.
        assert len({DBLP, S2} & set(row.asked)) == 1
    assert use[DBLP].requests + use[S2].requests == 6
    assert use[DBLP].requests and use[S2].requests  # both slow hosts kept busy


async def test_general_indexes_are_asked_one_at_a_time_and_both_cover_other_fields() -> None:
    tiers = FakeTiers({})
    rows = [_row(n, ROUTE_OTHER, f"Economic title {n}") for n in range(8)]
    use = await _run(rows, tiers)
    assert not tiers.overlap
    assert all(r.noes == {CROSSREF, OPENALEX} for r in rows)
    assert S2 not in use and DBLP not in use  # the fast ones said no twice: nothing slow


async def test_answers_a_tier_holds_cost_no_request() -> None:
    tiers = FakeTiers({}, held={OPENALEX: {TITLE}, DBLP: {TITLE}})
    row = _row(0, ROUTE_CS_NO_DOI)
    use = await _run([row], tiers)
    assert tiers.asked == [] and row.noes == {OPENALEX, DBLP}
    assert use[OPENALEX].free == use[DBLP].free == 1 and use[OPENALEX].requests == 0


async def test_offline_every_index_left_is_a_failure_to_look() -> None:
    tiers = FakeTiers({OPENALEX: {TITLE}})
    tiers.can_ask = False
    row = _row(0, ROUTE_CS_NO_DOI)
    await _run([row], tiers)
    assert tiers.asked == [] and row.failure is Reason.OFFLINE and row.best is None


async def test_the_wait_on_each_index_is_measured_on_the_injected_clock() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.5
        return now[0]

    tiers = FakeTiers({})
    use = await _run([_row(0, ROUTE_CS_NO_DOI, "Nothing like it")], tiers, clock)
    assert use[OPENALEX].requests == 1 and use[OPENALEX].waited > 0
    slow = use.get(DBLP) or use[S2]
    assert slow.waited > use[OPENALEX].waited  # asked only after OpenAlex answered
