"""PubMed title search: `esearch.fcgi?db=pubmed&term=w1[ti] AND w2[ti] …&retmode=json`.

Asked only for references with a biomedical venue. ESearch gives PMIDs (`idlist`, counts as
strings; zero hits is `count "0"` with NCBI's notices); their records then come from one
esummary for all queries' PMIDs together (`PubmedRegister`), so a batch of n queries costs n + 1
requests. A body without `esearchresult.idlist`, or with an `ERROR`, is a failure to look.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from auditor.errors import MalformedBody, Reason, RegisterError, Unreachable
from auditor.registers.interface import SearchAnswer, SearchRegister, TitleQuery
from auditor.registers.pubmed import NCBI, PubmedRegister
from auditor.registers.records import Breaker, http_reason
from auditor.tables import RecordStatus

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: PMIDs asked for per query.
RETMAX = 5
#: Title words used in the term: enough to pin a title down, few enough for a sane URL.
MAX_WORDS = 12

_WORD = re.compile(r"[^\W_]+")
#: PubMed's own stopwords are ignored in [ti] searches; sending them only adds noise.
_STOP = frozenset(
    ("a", "an", "and", "are", "as", "at", "by", "for", "from", "in", "is", "of", "on", "or")
    + ("the", "to", "with", "via", "we", "was", "were", "be", "its", "into", "not", "no")
)


def title_term(title: str) -> str:
    """The ESearch term for `title`: its distinctive words, each `[ti]`, joined by AND."""
    words: list[str] = []
    for word in _WORD.findall(title.casefold()):
        if word not in _STOP and word not in words:
            words.append(word)
    return " AND ".join(f"{w}[ti]" for w in words[:MAX_WORDS])


def parse_esearch(response: Response) -> list[str]:
    """The PMIDs of a 200 ESearch answer, best first; `MalformedBody` otherwise."""
    data = response.json()
    result = data.get("esearchresult") if isinstance(data, Mapping) else None
    if not isinstance(result, Mapping) or "ERROR" in result:
        raise MalformedBody("pubmed: esearch without a result", Reason.MALFORMED_BODY)
    ids = result.get("idlist")
    if not isinstance(ids, list) or not all(isinstance(i, str) and i.isdigit() for i in ids):
        raise MalformedBody("pubmed: esearch idlist unreadable", Reason.MALFORMED_BODY)
    return list(ids)


class PubmedSearchRegister(SearchRegister):
    """PubMed ESearch on title words, then one esummary for every PMID it gave."""

    name = "pubmed_search"
    api_version = "esearch-ti-1"
    title = "PubMed search"
    host = NCBI

    def __init__(self) -> None:
        self._breaker = Breaker()

    async def _pmids(self, query: TitleQuery, net: Net) -> list[str] | Reason:
        if self._breaker.open:
            return self._breaker.reason or Reason.CONNECTION_ERROR
        params = {
            "db": "pubmed",
            "term": title_term(query.title),
            "retmode": "json",
            "retmax": str(RETMAX),
        }
        try:
            url = f"{self.host.base_url(net.settings)}/esearch.fcgi"
            response = await net.get(self.host.name, url, params=params, follow_redirects=True)
            if response.status != 200:
                raise Unreachable(f"pubmed: HTTP {response.status}", http_reason(response.status))
            pmids = parse_esearch(response)
        except RegisterError as exc:
            self._breaker.failure(exc.reason)
            return exc.reason
        self._breaker.success()
        return pmids

    async def search(
        self, queries: Sequence[TitleQuery], net: Net
    ) -> dict[TitleQuery, SearchAnswer]:
        """One answer per distinct query; never raises `RegisterError`."""
        distinct = list(dict.fromkeys(queries))
        found = await asyncio.gather(*(self._pmids(q, net) for q in distinct))
        wanted = list(dict.fromkeys(p for ids in found if isinstance(ids, list) for p in ids))
        records = await PubmedRegister().fetch(wanted, net) if wanted else {}
        out: dict[TitleQuery, SearchAnswer] = {}
        for query, ids in zip(distinct, found, strict=True):
            if not isinstance(ids, list):
                out[query] = SearchAnswer(reason=ids)
                continue
            rows = [records[p] for p in ids if p in records]
            failed = [r for r in rows if r["status"] == RecordStatus.UNREACHABLE]
            if failed:
                out[query] = SearchAnswer(reason=Reason(failed[0]["reason"]))
                continue
            hits = tuple(
                {**r, "register": self.name} for r in rows if r["status"] == RecordStatus.FOUND
            )
            out[query] = SearchAnswer(candidates=hits)
        return out
