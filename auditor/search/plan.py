"""The search planner: every index busy at its own pace; the slow ones only settle what is left.

Each row has a `Route` (`routing.py`): its indexes in order of preference and those covering its
field. An index is *fast* when its pace for the run is at least `search_fast_pace` requests a second
(Crossref, OpenAlex, PubMed at their published paces), else *slow* (DBLP, Semantic Scholar,
arXiv). The row's *first* indexes are its fast covering ones. Every index has its own workers
(as many as its host lets be in flight), all running at once, each taking the next row in input
order that it may ask:

- a first index at once, except that a row asks one general index (Crossref, OpenAlex) at a
  time: the fastest with capacity takes it, the other only if the row is still open after;
- any other index only once the row's first indexes have all answered, and a slow one only
  when no other slow request of the row is in flight (one slow request settles most rows).

A row is settled, and asked nothing more, when a hit agrees fully (`Choice.confident`), when its
route is spent, or when its first indexes have answered and at least two covering indexes have
answered (criteria auditor/v2 `title_search.not_found`: NOT FOUND needs two covering "no"s).
Answers the snapshots or the cache hold are read first and cost no request (`Tiers.free`).
`IndexUse` says per index how many requests it took and how long the stage waited on it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from auditor.errors import Reason
from auditor.load.documents import settle
from auditor.registers.interface import RecordRow, SearchAnswer, SearchRegister, TitleQuery
from auditor.search.choose import NEAREST, Choice, ranked
from auditor.search.routing import GENERAL, Route
from auditor.search.tiers import Tiers
from auditor.text import normalize_text


@dataclass
class SearchRow:
    """One searched reference and what the search has learnt so far."""

    at: int
    """Position in the tables."""
    ref: dict[str, Any]
    query: TitleQuery
    route: Route
    note_only: bool = False
    """The row's identifier does not resolve: the search only says whether a work of this
    title exists (the verdict stays DOES-NOT-RESOLVE)."""
    from_string: bool = False
    """The query is the whole reference string (an unsure parse): candidates are validated
    against the string and the claimed fields read off it (`documents.settle`)."""
    asked: list[str] = field(default_factory=list)
    """Indexes that answered (or failed to), in the order their answers came."""
    pending: set[str] = field(default_factory=set)
    failure: Reason | None = None
    best: Choice | None = None
    near: list[Choice] = field(default_factory=list)
    tier: str | None = None
    answered: set[str] = field(default_factory=set)
    """Covering indexes that answered (a failure to look is no answer)."""
    noes: set[str] = field(default_factory=set)
    """Covering indexes that answered with no candidate taken as the cited work."""

    failed: set[str] = field(default_factory=set)
    """Indexes that could not be consulted."""

    @property
    def searched(self) -> list[str]:
        """The indexes asked, in route order (answers arrive in any order); those that could
        not be consulted only when the row found nothing (their failure is then its state)."""
        keep_failed = self.best is None and len(self.noes) < 2
        return [
            i for i in self.route.order if i in self.asked and (keep_failed or i not in self.failed)
        ]

    @property
    def closed(self) -> bool:
        """A hit agrees fully: no other index needs asking."""
        return self.best is not None and self.best.confident


def _work(candidate: RecordRow) -> str:
    """What makes two indexes' candidates the same work: the DOI, else the title."""
    return str(candidate.get("doi") or normalize_text(candidate.get("title")))


def learn(row: SearchRow, index: str, answer: SearchAnswer, tier: str | None) -> None:
    """Take one index's answer into `row`."""
    row.asked.append(index)
    if answer.reason is not None:
        row.failure = row.failure or answer.reason
        row.failed.add(index)
        return
    candidates = answer.candidates
    if row.from_string:
        candidates = _from_string(row, candidates)
    choices = ranked(row.ref, candidates)
    seen = {_work(c.candidate) for c in row.near}
    fresh = [c for c in choices[:NEAREST] if _work(c.candidate) not in seen]
    row.near = sorted([*row.near, *fresh], key=lambda c: c.rank, reverse=True)[:NEAREST]
    top = choices[0] if choices else None
    if index in row.route.covering:
        row.answered.add(index)
        if top is None or not top.strong:
            row.noes.add(index)
    if top is not None and top.strong and (row.best is None or top.rank > row.best.rank):
        row.best, row.tier = top, tier


def _from_string(row: SearchRow, candidates: Sequence[RecordRow]) -> tuple[RecordRow, ...]:
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


@dataclass
class IndexUse:
    """What one index cost the search stage."""

    index: str
    requests: int = 0
    """Queries sent to it (each one request, retries aside)."""
    free: int = 0
    """Queries a snapshot or the cache answered, with no request."""
    waited: float = 0.0
    """Seconds from the stage's start to its last answer: how long the stage waited on it."""


class Planner:
    """Runs the searches of `rows` (see the module docstring).

    Each index has a queue of rows that became askable for it (at the start, or when an answer
    changed the row); a worker takes the next one still askable, so no worker scans the rows.
    """

    def __init__(
        self,
        rows: Sequence[SearchRow],
        registers: Mapping[str, SearchRegister],
        tiers: Tiers,
        fast: frozenset[str],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rows = list(rows)
        self.registers = registers
        self.tiers = tiers
        self.fast = fast
        self.clock = clock
        self.use = {name: IndexUse(name) for name in registers}
        self._first = {id(r): [i for i in r.route.order if self._is_first(r, i)] for r in rows}
        self._ready: dict[str, deque[SearchRow]] = {name: deque() for name in registers}
        self._open = 0
        self._changed = asyncio.Condition()

    def _is_first(self, row: SearchRow, index: str) -> bool:
        return index in self.fast and index in row.route.covering

    def _enough(self, row: SearchRow) -> bool:
        """Whether `row` needs no more questions (answers still on their way aside)."""
        if row.closed or all(i in row.asked or i in row.pending for i in row.route.order):
            return True
        firsts_done = all(i in row.asked for i in self._first[id(row)])
        return firsts_done and len(row.answered) >= 2

    def settled(self, row: SearchRow) -> bool:
        """Whether `row` is done: no answer on its way and no question left to ask."""
        return not row.pending and self._enough(row)

    def _may_ask(self, row: SearchRow, index: str) -> bool:
        if index in row.asked or index in row.pending or index not in row.route.order:
            return False
        if self._enough(row):
            return False
        firsts = self._first[id(row)]
        if index in firsts:
            return index not in GENERAL or not any(g in row.pending for g in GENERAL)
        if any(i not in row.asked for i in firsts):
            return False
        return index in self.fast or not any(p not in self.fast for p in row.pending)

    def _offer(self, row: SearchRow, *, again: bool = False) -> None:
        """Queue `row` for every index that may ask it now. A row offered `again` (an answer
        left it open) goes to the front of the fast queues: its slow questions wait on them, so
        finishing rows already begun keeps the slow hosts busy from the start."""
        for index in row.route.order:
            if index in self._ready and self._may_ask(row, index):
                if again and index in self.fast:
                    self._ready[index].appendleft(row)
                else:
                    self._ready[index].append(row)

    def _take(self, index: str) -> SearchRow | None:
        """The next queued row `index` may still ask (stale entries dropped)."""
        ready = self._ready[index]
        while ready:
            row = ready.popleft()
            if self._may_ask(row, index):
                return row
        return None

    def read_free(self) -> None:
        """Learn every answer the snapshots and the cache hold, in each row's route order."""
        held: dict[str, dict[TitleQuery, tuple[SearchAnswer, str | None]]] = {}
        for name, register in self.registers.items():
            queries = [r.query for r in self.rows if name in r.route.order]
            held[name] = self.tiers.free(register, queries)
        for row in self.rows:
            for index in row.route.order:
                found = held[index].get(row.query)
                if found is not None and not self.settled(row):
                    learn(row, index, *found)
                    self.use[index].free += 1

    async def _worker(self, index: str, started: float) -> None:
        register = self.registers[index]
        while True:
            async with self._changed:
                row = self._take(index)
                while row is None and self._open:
                    await self._changed.wait()
                    row = self._take(index)
                if row is None:
                    return
                row.pending.add(index)
            answer, tier = await self.tiers.live(register, row.query)
            async with self._changed:
                row.pending.discard(index)
                learn(row, index, answer, tier)
                self.use[index].requests += 1
                self.use[index].waited = round(self.clock() - started, 3)
                if self.settled(row):
                    self._open -= 1
                else:
                    self._offer(row, again=True)
                self._changed.notify_all()

    async def run(self, slots: Mapping[str, int]) -> list[IndexUse]:
        """Answer every row (free tiers first, then live); the use of each index asked."""
        started = self.clock()
        self.read_free()
        if not self.tiers.can_ask:
            for row in self.rows:
                for index in row.route.order:
                    if not self.settled(row) and index not in row.asked:
                        learn(row, index, SearchAnswer(reason=Reason.OFFLINE), None)
        else:
            unsettled = [r for r in self.rows if not self.settled(r)]
            self._open = len(unsettled)
            for row in unsettled:
                self._offer(row)
            workers = [
                self._worker(name, started)
                for name in self.registers
                for _ in range(max(1, slots.get(name, 1)))
            ]
            await asyncio.gather(*workers)
        return [u for u in self.use.values() if u.requests or u.free]
