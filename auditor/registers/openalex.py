"""OpenAlex works: `GET /works?filter=doi:a|b|…&per-page=n`, or `GET /works/doi:{doi}` alone.

OpenAlex (CC0) is the largest open index of scholarly works: every Crossref and DataCite DOI it
has merged, plus books, chapters, conference papers without DOIs and the long tail. A list answer
is `{"meta": {"count", "per_page", …}, "results": [work, …]}` holding the works it has and
silently leaving out the rest; a lone DOI it does not hold is HTTP 404 (`not_in_openalex`, a
referral: OpenAlex is a second source, never the one that condemns a DOI). `filter=doi:` ORs up
to 50 values with `|` (`,` separates filters), so a DOI holding either is asked alone.

A work becomes a record row (`work_row`): `title` (or `display_name`), authors from
`authorships[].author.display_name` (else `raw_author_name`), `publication_year`, the venue
`primary_location.source.display_name`, `biblio` volume/issue/pages, `ids.doi` (its resolver
prefix stripped), `type`, and `is_retracted`, which becomes a retraction update (P0, as any).
Requests carry `mailto` (OpenAlex's polite pool) when the run has one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.compare.register_fields import arxiv_surnames
from auditor.errors import MalformedBody, Reason
from auditor.register_settings import RegisterSettings
from auditor.registers.doi_lists import DoiListRegister, rows_by_echo
from auditor.registers.interface import RecordRow
from auditor.registers.records import digest, json_text, row
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host
from auditor.vocabulary import UpdateRelation

if TYPE_CHECKING:
    from auditor.settings import Settings
    from auditor.transport.net import Net, Response

#: OpenAlex's `filter=doi:` takes at most 50 values ORed with `|`; `per-page` is at most 200.
MAX_BATCH = 50
MAX_PER_PAGE = 200

_RESOLVER = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_PMID = re.compile(r"(\d{1,9})/?$")


@dataclass(frozen=True)
class OpenalexSettings(RegisterSettings):
    """OpenAlex's settings (`[registers.openalex]`, `openalex_url`, `openalex_rate`, …)."""

    url: str = "https://api.openalex.org"
    rate: float = 10.0
    """OpenAlex's polite pool allows 10 requests a second."""
    batch_size: int = 50
    """DOIs per `filter=doi:` request (at most 50)."""


def identity(settings: Settings) -> Mapping[str, str]:
    """`mailto` on every request when the run has one: OpenAlex's polite pool."""
    return {"mailto": settings.mailto} if settings.mailto else {}


OPENALEX = Host(name="openalex", defaults=OpenalexSettings(), concurrency=4, identify=identity)


def work_doi(work: Mapping[str, Any]) -> str | None:
    """The work's DOI, lower-cased, without `https://doi.org/` (`ids.doi`, else `doi`)."""
    ids = work.get("ids")
    ids = ids if isinstance(ids, Mapping) else {}
    raw = json_text(ids.get("doi")) or json_text(work.get("doi"))
    doi = _RESOLVER.sub("", raw).strip().lower() if raw else ""
    return doi if doi.startswith("10.") else None


def work_pmid(work: Mapping[str, Any]) -> str | None:
    """The PMID of `ids.pmid` (`https://pubmed.ncbi.nlm.nih.gov/29456894` → `29456894`)."""
    ids = work.get("ids")
    raw = json_text(ids.get("pmid")) if isinstance(ids, Mapping) else None
    found = _PMID.search(raw) if raw else None
    return found.group(1) if found else None


def author_names(work: Mapping[str, Any]) -> list[str]:
    """Each authorship's `author.display_name`, else its `raw_author_name` as printed."""
    names: list[str] = []
    authorships = work.get("authorships")
    for authorship in authorships if isinstance(authorships, list) else []:
        if not isinstance(authorship, Mapping):
            continue
        author = authorship.get("author")
        shown = json_text(author.get("display_name")) if isinstance(author, Mapping) else None
        name = shown or json_text(authorship.get("raw_author_name"))
        if name:
            names.append(name)
    return names


def venue(work: Mapping[str, Any]) -> str | None:
    """`primary_location.source.display_name`: the journal, proceedings or repository."""
    location = work.get("primary_location")
    source = location.get("source") if isinstance(location, Mapping) else None
    return json_text(source.get("display_name")) if isinstance(source, Mapping) else None


def _year(work: Mapping[str, Any]) -> int | None:
    year = work.get("publication_year")
    return year if isinstance(year, int) and not isinstance(year, bool) else None


def _biblio(work: Mapping[str, Any]) -> tuple[str | None, str | None, str | None]:
    biblio = work.get("biblio")
    biblio = biblio if isinstance(biblio, Mapping) else {}
    first, last = json_text(biblio.get("first_page")), json_text(biblio.get("last_page"))
    pages = "-".join(p for p in (first, last) if p) or None
    return json_text(biblio.get("volume")), json_text(biblio.get("issue")), pages


def openalex_updates(work: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A retraction update when OpenAlex marks the work `is_retracted` (it names no notice)."""
    if work.get("is_retracted") is not True:
        return []
    entry = {"type": "retraction", "relation": str(UpdateRelation.UPDATED_BY), "date": None}
    return [{**entry, "doi": None, "pmid": None, "source": "openalex"}]


def work_row(
    work: Mapping[str, Any], body_digest: str, *, register: str = "openalex"
) -> RecordRow | None:
    """The `found` row of one OpenAlex work, keyed by its DOI, else its PMID, else its OpenAlex
    id; `None` for a work without a title (nothing to compare)."""
    title = json_text(work.get("title")) or json_text(work.get("display_name"))
    if title is None:
        return None
    doi, pmid = work_doi(work), work_pmid(work)
    names = author_names(work)
    volume, issue, pages = _biblio(work)
    id_type, identifier = (
        (IdType.DOI, doi)
        if doi
        else (IdType.PMID, pmid)
        if pmid
        else ("openalex", json_text(work.get("id")) or title)
    )
    year = _year(work)
    return row(
        register,
        id_type,
        identifier,
        RecordStatus.FOUND,
        title=title,
        authors=names,
        surnames=arxiv_surnames(names),
        year=year,
        years=[year] if year is not None else [],
        container_title=venue(work),
        volume=volume,
        issue=issue,
        pages=pages,
        doi=doi,
        language=json_text(work.get("language")),
        work_type=json_text(work.get("type")),
        updates=openalex_updates(work),
        body_digest=body_digest,
    )


def results(response: Response) -> list[Any]:
    """The `results` of a 200 list answer; `MalformedBody` when it is no list answer."""
    data = response.json()
    found = data.get("results") if isinstance(data, Mapping) else None
    if not isinstance(data, Mapping) or not isinstance(data.get("meta"), Mapping):
        raise MalformedBody("openalex: not a list answer", Reason.MALFORMED_BODY)
    if not isinstance(found, list):
        raise MalformedBody("openalex: results is not a list", Reason.MALFORMED_BODY)
    return found


def _doi_row(doi: str, work: object, body_digest: str) -> RecordRow:
    """The row of a work asked for by `doi` (its echo already matched)."""
    found = work_row(work, body_digest) if isinstance(work, Mapping) else None
    if found is None:
        raise MalformedBody(f"openalex: work {doi!r} without a title", Reason.MALFORMED_BODY)
    return found


def parse_work(doi: str, response: Response) -> RecordRow:
    """Parse a `/works/doi:{doi}` 200 answer; `MalformedBody` on a wrong shape or echo."""
    work = response.json()
    echoed = work_doi(work) if isinstance(work, Mapping) else None
    if echoed != doi.lower():
        raise MalformedBody(f"openalex: asked {doi!r}, got {echoed!r}", Reason.WRONG_ECHO)
    return _doi_row(doi, work, digest(response.body))


def parse_work_list(dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """Rows of the DOIs a `filter=doi:` answer holds (absent DOIs missing; echoes checked)."""
    body_digest = digest(response.body)

    def echo(work: object) -> object:
        return work_doi(work) if isinstance(work, Mapping) else None

    return rows_by_echo(
        "openalex", dois, results(response), echo, lambda d, w: _doi_row(d, w, body_digest)
    )


class OpenalexRegister(DoiListRegister):
    """OpenAlex works by DOI, `openalex_batch_size` a request: a second source of metadata."""

    name = "openalex"
    api_version = "works-doi-1"
    title = "OpenAlex"
    host = OPENALEX
    one_path = "/works/doi:{doi}"
    list_path = "/works"
    absent_reason = Reason.NOT_IN_OPENALEX
    max_batch = MAX_BATCH
    unlistable = ",|"

    @classmethod
    def claim(cls, id_type: str, identifier: str) -> str | None:
        """None: a second source, never first for a DOI (its agency answers first)."""
        return None

    def batch_size(self, net: Net) -> int:
        return OPENALEX.own(net.settings).batch_size

    def list_params(self, dois: Sequence[str]) -> dict[str, str]:
        # Without `per-page` OpenAlex answers 25 works a page, fewer than a batch may ask.
        return {"filter": "doi:" + "|".join(dois), "per-page": str(min(len(dois), MAX_PER_PAGE))}

    def parse_one(self, doi: str, response: Response) -> RecordRow:
        return parse_work(doi, response)

    def parse_list(self, dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
        return parse_work_list(dois, response)
