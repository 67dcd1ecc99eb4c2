"""Crossref title search: `GET /works?query.bibliographic=<title author year>&rows=n`.

The answer is a `work-list` whose items are full work messages with a relevance `score`; an
empty `items` is Crossref's "found nothing". Each item becomes a candidate row exactly as a
`/works/{doi}` message would (`crossref.work_row`), so the comparison reads it the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.crossref import CROSSREF, work_row
from auditor.registers.interface import RecordRow, TitleQuery
from auditor.registers.records import digest, http_reason
from auditor.registers.searching import QuerySearch

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Items asked for per query.
ROWS = 5


def parse_search(response: Response) -> list[RecordRow]:
    """Candidate rows of a 200 `work-list`, best first; `MalformedBody` on another shape."""
    data = response.json()
    message = data.get("message") if isinstance(data, Mapping) else None
    if (
        not isinstance(data, Mapping)
        or data.get("status") != "ok"
        or data.get("message-type") != "work-list"
        or not isinstance(message, Mapping)
        or not isinstance(message.get("items"), list)
    ):
        raise MalformedBody("crossref: not a work-list answer", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)
    out: list[RecordRow] = []
    for item in message["items"]:
        doi = item.get("DOI") if isinstance(item, Mapping) else None
        if isinstance(doi, str) and doi.strip():
            found = work_row(doi.strip().lower(), item, body_digest)
            out.append({**found, "register": CrossrefSearchRegister.name})
    return out


def bibliographic(query: TitleQuery) -> str:
    """The `query.bibliographic` text: title, first-author surname and year, as Crossref asks."""
    parts = [query.title, query.surname or "", str(query.year) if query.year else ""]
    return " ".join(p for p in parts if p)


class CrossrefSearchRegister(QuerySearch):
    """Crossref's bibliographic search (every Crossref member's works)."""

    name = "crossref_search"
    api_version = "works-query-1"
    title = "Crossref search"
    host = CROSSREF

    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The top `ROWS` works for the title, first-author surname and year."""
        response = await net.get(
            self.host.name,
            f"{self.host.base_url(net.settings)}/works",
            params={"query.bibliographic": bibliographic(query), "rows": str(ROWS)},
            follow_redirects=True,
        )
        if response.status != 200:
            raise Unreachable(f"crossref: HTTP {response.status}", http_reason(response.status))
        return parse_search(response)
