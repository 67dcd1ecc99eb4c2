"""arXiv title search: `GET /api/query?search_query=ti:"…"&max_results=n` (Atom).

The feed has the shape of an `id_list` answer; zero entries is arXiv's "found nothing". Parsed
with defusedxml (no entity expansion). A feed with an error entry or that is not Atom is a
failure to look. Candidates carry the arXiv id without its version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from auditor.compare.register_fields import arxiv_surnames, arxiv_year
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.arxiv import ARXIV, arxiv_key
from auditor.registers.interface import RecordRow, TitleQuery
from auditor.registers.records import digest, http_reason, row
from auditor.registers.searching import QuerySearch, plain_words
from auditor.tables import IdType, RecordStatus

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Entries asked for per query.
MAX_RESULTS = 5

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"


def _text(element: Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    return " ".join(element.text.split()) or None


def parse_search(response: Response) -> list[RecordRow]:
    """Candidate rows of a 200 feed, in feed order; `MalformedBody` on an untrustworthy one."""
    try:
        feed: Element = fromstring(response.body)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise MalformedBody(f"arxiv: unreadable Atom ({exc})", Reason.MALFORMED_BODY) from None
    if feed.tag != f"{_ATOM}feed":
        raise MalformedBody("arxiv: not an Atom feed", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)
    out: list[RecordRow] = []
    for entry in feed.findall(f"{_ATOM}entry"):
        entry_id = _text(entry.find(f"{_ATOM}id")) or ""
        if "/api/errors" in entry_id:
            raise MalformedBody("arxiv: error entry in a 200 answer", Reason.MALFORMED_BODY)
        title = _text(entry.find(f"{_ATOM}title"))
        if not entry_id or title is None:
            continue
        names = [_text(a.find(f"{_ATOM}name")) or "" for a in entry.findall(f"{_ATOM}author")]
        journal = _text(entry.find(f"{_ARXIV}journal_ref"))
        out.append(
            row(
                ArxivSearchRegister.name,
                IdType.ARXIV,
                arxiv_key(entry_id),
                RecordStatus.FOUND,
                title=title,
                authors=names,
                surnames=arxiv_surnames(names),
                year=arxiv_year(_text(entry.find(f"{_ATOM}published"))),
                # The preprint server is the venue; a journal_ref says where it appeared later.
                container_title=journal or "arXiv",
                doi=(_text(entry.find(f"{_ARXIV}doi")) or "").lower() or None,
                body_digest=body_digest,
            )
        )
    return out


class ArxivSearchRegister(QuerySearch):
    """arXiv's title search (`ti:`), for references that name arXiv or CoRR."""

    name = "arxiv_search"
    api_version = "search-atom-1"
    title = "arXiv search"
    host = ARXIV

    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The top `MAX_RESULTS` entries whose titles hold the title's words."""
        params = {
            "search_query": f'ti:"{plain_words(query.title)}"',
            "max_results": str(MAX_RESULTS),
        }
        url = f"{self.host.base_url(net.settings)}/api/query"
        response = await net.get(self.host.name, url, params=params, follow_redirects=True)
        if response.status != 200:
            raise Unreachable(f"arxiv: HTTP {response.status}", http_reason(response.status))
        return parse_search(response)
