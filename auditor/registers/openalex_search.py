"""OpenAlex title search: `GET /works?filter=title.search:<words>&per-page=n`.

The answer is a list answer (`{"meta": {...}, "results": [work, …]}`) ranked by relevance
(`relevance_score` on each work); an empty `results` is OpenAlex's "found nothing". The title
goes in as plain words: `,` separates OpenAlex filters and `|` ORs values, so punctuation would
change the question. Each work becomes a candidate row as a DOI lookup would make it
(`openalex.work_row`). Same host, pace and polite pool (`mailto`) as the DOI lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from auditor.errors import Unreachable
from auditor.registers.interface import RecordRow, TitleQuery
from auditor.registers.openalex import OPENALEX, results, work_row
from auditor.registers.records import digest, http_reason
from auditor.registers.searching import QuerySearch, plain_words

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Works asked for per query.
ROWS = 5


def parse_search(response: Response) -> list[RecordRow]:
    """Candidate rows of a 200 list answer, best first; `MalformedBody` on another shape."""
    body_digest = digest(response.body)
    out: list[RecordRow] = []
    for work in results(response):
        found = (
            work_row(work, body_digest, register=OpenalexSearchRegister.name)
            if isinstance(work, Mapping)
            else None
        )
        if found is not None:
            out.append(found)
    return out


class OpenalexSearchRegister(QuerySearch):
    """OpenAlex's title search (every field, books and the long tail included)."""

    name = "openalex_search"
    api_version = "works-title-search-1"
    title = "OpenAlex search"
    host = OPENALEX

    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The top `ROWS` works whose titles hold the query's words."""
        words = plain_words(query.title)
        if not words:
            return []
        response = await net.get(
            self.host.name,
            f"{self.host.base_url(net.settings)}/works",
            params={"filter": f"title.search:{words}", "per-page": str(ROWS)},
            follow_redirects=True,
        )
        if response.status != 200:
            raise Unreachable(f"openalex: HTTP {response.status}", http_reason(response.status))
        return parse_search(response)
