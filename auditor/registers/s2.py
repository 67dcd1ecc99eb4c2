"""Semantic Scholar title match: `GET /graph/v1/paper/search/match?query=…&fields=…`.

The match endpoint answers the one paper whose title is closest, `{"data": [{paperId, title,
matchScore, …}]}`, and HTTP 404 `{"error": "Title match not found"}` when none is close: that
404 is the index's "found nothing". An API key (`s2_api_key`) goes in the `x-api-key` header;
without one Semantic Scholar allows about one request a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.compare.register_fields import arxiv_surnames
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.register_settings import RegisterSettings
from auditor.registers.interface import RecordRow, TitleQuery
from auditor.registers.records import digest, http_reason, row
from auditor.registers.searching import QuerySearch
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: The paper fields asked for (`paperId` and `title` always come back).
FIELDS = "title,authors,year,venue,externalIds,publicationTypes"
NO_MATCH = "title match not found"


def _str(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def paper_row(paper: Mapping[str, Any], body_digest: str) -> RecordRow | None:
    """The `found` candidate row of one paper object, or `None` without a title."""
    title = _str(paper.get("title"))
    if title is None:
        return None
    ids = paper.get("externalIds")
    ids = ids if isinstance(ids, Mapping) else {}
    doi = (_str(ids.get("DOI")) or "").lower() or None
    pmid = _str(ids.get("PubMed"))
    arxiv = _str(ids.get("ArXiv"))
    authors = paper.get("authors")
    names = [
        a["name"].strip()
        for a in (authors if isinstance(authors, list) else [])
        if isinstance(a, Mapping) and isinstance(a.get("name"), str) and a["name"].strip()
    ]
    year = paper.get("year")
    id_type, identifier = (
        (IdType.DOI, doi)
        if doi
        else (IdType.ARXIV, arxiv)
        if arxiv
        else (IdType.PMID, pmid)
        if pmid
        else ("s2", _str(paper.get("paperId")) or title)
    )
    venue = _str(paper.get("venue"))
    if venue is None and arxiv:
        venue = "arXiv"  # S2 leaves a preprint's venue empty; its id says what it is
    return row(
        SemanticScholarRegister.name,
        id_type,
        identifier,
        RecordStatus.FOUND,
        title=title,
        authors=names,
        surnames=arxiv_surnames(names),
        year=year if isinstance(year, int) and not isinstance(year, bool) else None,
        container_title=venue,
        doi=doi,
        body_digest=body_digest,
    )


def parse_match(response: Response) -> list[RecordRow]:
    """Candidates of a match answer: one paper on 200, none on the 404 "not found" body.

    Any other status or shape raises (`MalformedBody`), so it is a failure to look.
    """
    data = response.json()
    if response.status == 404:
        error = data.get("error") if isinstance(data, Mapping) else None
        if isinstance(error, str) and error.strip().lower() == NO_MATCH:
            return []
        raise MalformedBody("s2: 404 without the no-match error", Reason.MALFORMED_BODY)
    papers = data.get("data") if isinstance(data, Mapping) else None
    if not isinstance(papers, list):
        raise MalformedBody("s2: no data array", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)
    out = [paper_row(p, body_digest) for p in papers if isinstance(p, Mapping)]
    return [c for c in out if c is not None]


#: Semantic Scholar allows about one request a second without a key.
@dataclass(frozen=True)
class S2Settings(RegisterSettings):
    """Semantic Scholar's settings (`[registers.s2]`, `s2_url`, `s2_rate`)."""

    url: str = "https://api.semanticscholar.org"
    rate: float = 1.0
    """Semantic Scholar's pace without a key."""


S2 = Host(name="s2", defaults=S2Settings(), concurrency=1)


class SemanticScholarRegister(QuerySearch):
    """Semantic Scholar's closest-title match (every field of science, preprints included)."""

    name = "s2"
    api_version = "graph-v1-match-1"
    title = "Semantic Scholar"
    host = S2

    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The one closest title, or none (`404 Title match not found`)."""
        key = net.settings.s2_api_key
        response = await net.get(
            self.host.name,
            f"{self.host.base_url(net.settings)}/graph/v1/paper/search/match",
            params={"query": query.title, "fields": FIELDS},
            headers={"x-api-key": key} if key else None,
            follow_redirects=True,
        )
        if response.status not in (200, 404):
            raise Unreachable(f"s2: HTTP {response.status}", http_reason(response.status))
        return parse_match(response)
