"""PubMed: E-utilities `esummary.fcgi?db=pubmed&retmode=json&id=a,b,…`, many PMIDs a request.

NCBI asks for HTTP POST above about 200 ids. An unknown PMID stays in `result.uids` with an
object `{"uid": …, "error": "cannot get document summary"}`: that is `not_found` for that id
only. An answer that misses an asked id, names one not asked, or echoes another uid is a failure
to look for the batch, which is then split so one broken record costs only its own row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from auditor.compare.register_fields import pubmed_surnames, pubmed_year
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.register_settings import RegisterSettings
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import (
    Breaker,
    chunks,
    digest,
    failed,
    fetch_groups,
    http_reason,
    row,
)
from auditor.registers.updates import pubmed_updates
from auditor.settings import Settings
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Ids per esummary request, and the count above which the request is a POST (NCBI's advice).
BATCH_SIZE = 500
POST_ABOVE = 200

#: The per-uid error esummary gives for a PMID it does not have.
_NOT_FOUND_ERRORS = ("cannot get document summary", "invalid uid")


def _pace(rate: float, settings: Settings) -> float:
    """NCBI allows 3/s without an API key and 10/s with one; a setting above that is capped."""
    return min(rate, 10.0 if settings.ncbi_api_key else 3.0)


def identity(settings: Settings) -> dict[str, str]:
    """What NCBI asks every E-utilities request to carry: `tool`, and `email`/`api_key` if set."""
    params = {"tool": "auditor"}
    if settings.ncbi_email:
        params["email"] = settings.ncbi_email
    if settings.ncbi_api_key:
        params["api_key"] = settings.ncbi_api_key
    return params


@dataclass(frozen=True)
class NcbiSettings(RegisterSettings):
    """NCBI E-utilities' settings, shared by every NCBI call (`[registers.ncbi]`, `ncbi_rate`,
    and the older `eutils_url` for its URL)."""

    url: str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
    rate: float = 3.0
    """All NCBI calls together; up to 10 with an API key."""

    aliases: ClassVar[Mapping[str, str]] = {"eutils_url": "url"}


#: Every E-utilities call (esummary here, the waterfall's esearch) shares this one pace.
NCBI = Host(
    name="ncbi",
    defaults=NcbiSettings(),
    concurrency=3,
    rate=_pace,
    identify=identity,
)


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _article_doi(summary: Mapping[str, Any]) -> str | None:
    ids = summary.get("articleids")
    for item in ids if isinstance(ids, list) else []:
        if isinstance(item, Mapping) and item.get("idtype") == "doi":
            return _text(item.get("value"))
    return None


def summary_row(pmid: str, summary: Mapping[str, Any], body_digest: str) -> RecordRow:
    """The row of one esummary document asked for as `pmid` (its echo checked by the caller)."""
    error = summary.get("error")
    if error is not None:
        if isinstance(error, str) and error.strip().lower() in _NOT_FOUND_ERRORS:
            return row(
                PubmedRegister.name,
                IdType.PMID,
                pmid,
                RecordStatus.NOT_FOUND,
                Reason.NOT_FOUND,
                body_digest=body_digest,
            )
        raise MalformedBody(f"pubmed: {pmid}: {error!r}", Reason.MALFORMED_BODY)
    title = summary.get("title")
    if not isinstance(title, str):
        raise MalformedBody(f"pubmed: {pmid} has no title", Reason.MALFORMED_BODY)
    authors = summary.get("authors")
    if authors is not None and not (
        isinstance(authors, list)
        and all(isinstance(a, Mapping) and isinstance(a.get("name", ""), str) for a in authors)
    ):
        # A wrong shape would read as "no authors" and then as a mismatch: a failure to look.
        raise MalformedBody(f"pubmed: {pmid} authors are not names", Reason.MALFORMED_BODY)
    names = [
        a["name"].strip()
        for a in (authors if isinstance(authors, list) else [])
        if isinstance(a, Mapping) and isinstance(a.get("name"), str)
    ]
    lang = summary.get("lang")
    return row(
        PubmedRegister.name,
        IdType.PMID,
        pmid,
        RecordStatus.FOUND,
        title=title.strip() or None,
        authors=names,
        surnames=pubmed_surnames(summary),
        year=pubmed_year(summary),
        container_title=_text(summary.get("source")),
        volume=_text(summary.get("volume")),
        issue=_text(summary.get("issue")),
        pages=_text(summary.get("pages")),
        doi=(_article_doi(summary) or "").lower() or None,
        language=_text(lang[0]) if isinstance(lang, list) and lang else None,
        updates=pubmed_updates(summary),
        body_digest=body_digest,
    )


def parse_documents(pmids: Sequence[str], response: Response) -> dict[str, Mapping[str, Any]]:
    """The esummary document of every asked PMID, each echoing its uid; else `MalformedBody`.

    The answer must list exactly asked uids, hold a document for each asked PMID, and each
    document must name its PMID as `uid`. A document's own `error` is left to the reader.
    """
    if response.status != 200:
        raise Unreachable(f"pubmed: HTTP {response.status}", http_reason(response.status))
    data = response.json()
    result = data.get("result") if isinstance(data, Mapping) else None
    if not isinstance(result, Mapping) or not isinstance(result.get("uids"), list):
        raise MalformedBody("pubmed: esummary without result.uids", Reason.MALFORMED_BODY)
    uids = [str(u) for u in result["uids"]]
    if set(uids) - set(pmids):
        raise MalformedBody("pubmed: answer names ids not asked for", Reason.WRONG_ECHO)
    out: dict[str, Mapping[str, Any]] = {}
    for pmid in pmids:
        summary = result.get(pmid)
        if not isinstance(summary, Mapping):
            raise MalformedBody(f"pubmed: answer lacks {pmid}", Reason.MALFORMED_BODY)
        if str(summary.get("uid", "")).strip() != pmid:
            got = summary.get("uid")
            raise MalformedBody(f"pubmed: asked {pmid}, got {got!r}", Reason.WRONG_ECHO)
        out[pmid] = summary
    return out


def parse_esummary(pmids: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """Rows for every asked PMID; raises `MalformedBody` unless the answer covers exactly them."""
    body_digest = digest(response.body)
    documents = parse_documents(pmids, response)
    return {pmid: summary_row(pmid, doc, body_digest) for pmid, doc in documents.items()}


class PubmedRegister(Register):
    """PMIDs through esummary; all NCBI calls share the `ncbi` throttle."""

    name = "pubmed"
    api_version = "esummary-0.3"
    title = "PubMed (NCBI)"
    host = NCBI
    id_type = IdType.PMID

    def __init__(self, sink: Sink | None = None) -> None:
        super().__init__(sink)
        self._breaker = Breaker()

    def _fail(self, pmid: str, reason: Reason) -> RecordRow:
        return failed(self.name, IdType.PMID, pmid, reason)

    async def _request(self, pmids: list[str], net: Net) -> Response:
        url = f"{NCBI.base_url(net.settings)}/esummary.fcgi"
        form = {"db": "pubmed", "retmode": "json", "id": ",".join(pmids)}
        retries = None if len(pmids) == 1 else 1
        if len(pmids) > POST_ABOVE:
            return await net.post(NCBI.name, url, form=form, retries=retries)
        return await net.get(NCBI.name, url, params=form, retries=retries, follow_redirects=True)

    async def _batch(self, pmids: list[str], net: Net) -> dict[str, RecordRow]:
        return parse_esummary(pmids, await self._request(pmids, net))

    async def documents(self, pmids: list[str], net: Net) -> dict[str, Mapping[str, Any]]:
        """The checked esummary documents of `pmids` in one request (the waterfall reads them).

        Raises `RegisterError` on a failure to look, like a batch of `fetch`.
        """
        return parse_documents(pmids, await self._request(pmids, net))

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids` (digit strings); batches of `BATCH_SIZE`, or one a request."""
        size = BATCH_SIZE if net.settings.batching else 1
        return await fetch_groups(
            self.name,
            chunks(list(ids), size),
            lambda g: self._batch(g, net),
            self._fail,
            self._breaker,
            sink=self.sink,
            report=net.report,
        )
