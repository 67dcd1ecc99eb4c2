"""Search answers from the source tiers: snapshot, then cache (no request), then live.

`Tiers.free` answers what the snapshots (kept answers, and an imported dump's title index) and
the cache hold, with no request; `Tiers.live` asks the index itself for one query and keeps the
answer in the cache. `Tiers.ask` does both for a list (the whole path of one index).
"""

from __future__ import annotations

from collections.abc import Sequence

from auditor.dumps.title_index import index_candidates
from auditor.errors import Reason
from auditor.registers.interface import SearchAnswer, SearchRegister, TitleQuery
from auditor.search import answers
from auditor.settings import Settings
from auditor.tables import Tier
from auditor.transport.cache import RecordCache
from auditor.transport.net import Net
from auditor.transport.snapshot import lookup_searches

#: An answer and the tier it came from (`None`: no tier answered, a failure to look).
Tiered = tuple[SearchAnswer, str | None]


class Tiers:
    """Search answers from snapshot, cache, then live, for one run."""

    def __init__(self, settings: Settings, net: Net | None, cache: RecordCache) -> None:
        self.settings = settings
        self.net = net
        self.cache = cache

    @property
    def can_ask(self) -> bool:
        """Whether a live request may be sent (a `Net`, and not `--offline`)."""
        return self.net is not None and not self.settings.offline

    def free(
        self, register: SearchRegister, queries: Sequence[TitleQuery]
    ) -> dict[TitleQuery, Tiered]:
        """The answers the snapshots and the cache hold for `queries` (absent: none held)."""
        out: dict[TitleQuery, Tiered] = {}
        distinct = list(dict.fromkeys(queries))
        if not distinct:
            return out
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
            elif query.title in indexed:
                found = tuple(indexed[query.title])
                out[query] = (SearchAnswer(candidates=found), str(Tier.SNAPSHOT))
            elif not self.settings.refresh:
                held = answers.cached(self.cache, register.name, register.api_version, key)
                if held is not None:
                    out[query] = (held, str(Tier.CACHE))
        return out

    async def live(self, register: SearchRegister, query: TitleQuery) -> Tiered:
        """The index's own answer to `query` (kept in the cache), or `offline` without a `Net`."""
        if self.net is None or self.settings.offline:
            return SearchAnswer(reason=Reason.OFFLINE), None
        got = await register.search([query], self.net)
        answer = got.get(query, SearchAnswer(reason=Reason.MALFORMED_BODY))
        key = answers.query_key(query)
        answers.keep(self.cache, register.name, register.api_version, key, answer)
        return answer, str(Tier.LIVE)

    async def ask(
        self, register: SearchRegister, queries: Sequence[TitleQuery]
    ) -> dict[TitleQuery, Tiered]:
        """Every query answered: from a tier without a request, else live (or `offline`)."""
        out = self.free(register, queries)
        pending = [q for q in dict.fromkeys(queries) if q not in out]
        if not pending:
            return out
        if not self.can_ask:
            out.update({q: (SearchAnswer(reason=Reason.OFFLINE), None) for q in pending})
            return out
        assert self.net is not None
        live = await register.search(pending, self.net)
        for query in pending:
            answer = live.get(query, SearchAnswer(reason=Reason.MALFORMED_BODY))
            key = answers.query_key(query)
            answers.keep(self.cache, register.name, register.api_version, key, answer)
            out[query] = (answer, str(Tier.LIVE))
        return out
