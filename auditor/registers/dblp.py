"""DBLP publication search: `GET /search/publ/api?q=…&format=json&h=n`, the CS venues' index.

DBLP asks for about one request a second and answers 429 with `Retry-After` beyond it (the
transport honours both). The body is `{"result": {"hits": {"@total", "@sent", "hit": [...]}}}`
with counts as strings; `hit` is absent when nothing matched, and `info.authors.author` is a
list, or a lone object for a single author. A body of another shape is a failure to look
(`MalformedBody`), never "found nothing".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.compare.register_fields import arxiv_surnames
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.load.latex import latex_to_unicode
from auditor.register_settings import RegisterSettings
from auditor.registers.interface import RecordRow, TitleQuery
from auditor.registers.records import digest, http_reason, row
from auditor.registers.searching import QuerySearch, plain_words
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Hits asked for per query: enough to hold a work's preprint and its published version.
HITS = 5
#: DBLP tells namesakes apart with a four-digit suffix (`Wei Wang 0001`): not part of the name.
_HOMONYM = re.compile(r"\s+\d{4}$")
_TITLE_END = re.compile(r"\.\s*$")


def _authors(info: Mapping[str, Any]) -> list[str]:
    authors = info.get("authors")
    listed = authors.get("author") if isinstance(authors, Mapping) else None
    if isinstance(listed, Mapping):
        listed = [listed]  # DBLP's shape for a single author
    names: list[str] = []
    for author in listed if isinstance(listed, list) else []:
        text = author.get("text") if isinstance(author, Mapping) else author
        if isinstance(text, str) and text.strip():
            names.append(_HOMONYM.sub("", text.strip()))
    return names


def _str(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _year(value: object) -> int | None:
    text = _str(value)
    return int(text) if text is not None and text.isascii() and text.isdigit() else None


def _venue(value: object) -> str | None:
    # A paper in two venues lists both; the first is DBLP's primary one.
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return _str(value)


def hit_row(info: Mapping[str, Any], body_digest: str) -> RecordRow | None:
    """The `found` candidate row of one hit's `info`, or `None` for a hit without a title."""
    title = _str(info.get("title"))
    if title is None:
        return None
    if "$" in title or "\\" in title:
        # DBLP keeps TeX in titles (`$\varepsilon$-Accurate`): the title is its rendering.
        title = latex_to_unicode(title)
    doi = (_str(info.get("doi")) or "").lower() or None
    names = _authors(info)
    key = _str(info.get("key")) or _str(info.get("url")) or title
    return row(
        DblpRegister.name,
        IdType.DOI if doi else "dblp",
        doi or key,
        RecordStatus.FOUND,
        title=_TITLE_END.sub("", title),
        authors=names,
        surnames=arxiv_surnames(names),
        year=_year(info.get("year")),
        container_title=_venue(info.get("venue")),
        volume=_str(info.get("volume")),
        pages=_str(info.get("pages")),
        doi=doi,
        body_digest=body_digest,
    )


def parse_search(response: Response) -> list[RecordRow]:
    """Candidate rows of a 200 search answer, best first; `MalformedBody` on another shape."""
    data = response.json()
    result = data.get("result") if isinstance(data, Mapping) else None
    hits = result.get("hits") if isinstance(result, Mapping) else None
    if not isinstance(hits, Mapping) or not str(hits.get("@total", "")).isdigit():
        raise MalformedBody("dblp: not a publication-search answer", Reason.MALFORMED_BODY)
    listed = hits.get("hit", [])
    if isinstance(listed, Mapping):
        listed = [listed]
    if not isinstance(listed, list):
        raise MalformedBody("dblp: hits.hit is not a list", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)
    out: list[RecordRow] = []
    for hit in listed:
        info = hit.get("info") if isinstance(hit, Mapping) else None
        if isinstance(info, Mapping):
            candidate = hit_row(info, body_digest)
            if candidate is not None:
                out.append(candidate)
    return out


#: dblp.org asks for about one request a second, one at a time, and answers 429 beyond it.
@dataclass(frozen=True)
class DblpSettings(RegisterSettings):
    """DBLP's search API settings (`[registers.dblp]`, `dblp_url`, `dblp_rate`)."""

    url: str = "https://dblp.org"
    rate: float = 1.0
    """DBLP asks for about one request a second (429 with `Retry-After` beyond)."""


DBLP = Host(name="dblp", defaults=DblpSettings(), concurrency=1)


class DblpRegister(QuerySearch):
    """DBLP publication search by title words (computer-science venues and CoRR)."""

    name = "dblp"
    api_version = "publ-search-json-1"
    title = "DBLP"
    host = DBLP

    async def ask(self, query: TitleQuery, net: Net) -> list[RecordRow]:
        """The top `HITS` hits for the title's words."""
        params = {"q": plain_words(query.title), "format": "json", "h": str(HITS)}
        url = f"{self.host.base_url(net.settings)}/search/publ/api"
        response = await net.get(self.host.name, url, params=params, follow_redirects=True)
        if response.status != 200:
            raise Unreachable(f"dblp: HTTP {response.status}", http_reason(response.status))
        return parse_search(response)
