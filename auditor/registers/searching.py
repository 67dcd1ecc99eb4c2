"""What the title-search registers share: one request per query, failures as data, a breaker.

Each search register says how to ask one query (`ask`) and how to read the answer; this base
sends the queries concurrently (the host's throttle paces them), turns a `RegisterError` into a
`SearchAnswer` with its reason, and after `BREAKER_LIMIT` failures in a row answers the rest
with that reason and no request: a dead index costs seconds, not a retry storm.
"""

from __future__ import annotations

import asyncio
import re
from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from auditor.errors import Reason, RegisterError
from auditor.registers.interface import RecordRow, SearchAnswer, SearchRegister, TitleQuery
from auditor.registers.records import Breaker

if TYPE_CHECKING:
    from auditor.transport.net import Net

_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def plain_words(text: str) -> str:
    """`text` as plain words: no punctuation an index might read as query syntax."""
    return " ".join(_WORDS.findall(text))


class QuerySearch(SearchRegister):
    """A search register that answers each query with one request."""

    def __init__(self) -> None:
        self._breaker = Breaker()

    @abstractmethod
    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The candidates for `query`, best first; raises `RegisterError` on a failure to look."""

    async def _one(self, query: TitleQuery, net: Net) -> SearchAnswer:
        if self._breaker.open:
            return SearchAnswer(reason=self._breaker.reason or Reason.CONNECTION_ERROR)
        try:
            found = await self.ask(query, net)
        except RegisterError as exc:
            self._breaker.failure(exc.reason)
            return SearchAnswer(reason=exc.reason)
        self._breaker.success()
        return SearchAnswer(candidates=tuple({**c, "register": self.name} for c in found))

    async def search(
        self, queries: Sequence[TitleQuery], net: Net
    ) -> dict[TitleQuery, SearchAnswer]:
        """One answer per distinct query, in the order asked; never raises `RegisterError`."""
        distinct = list(dict.fromkeys(queries))
        answers = await asyncio.gather(*(self._one(q, net) for q in distinct))
        return dict(zip(distinct, answers, strict=True))
