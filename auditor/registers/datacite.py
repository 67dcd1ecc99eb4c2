"""DataCite REST (JSON:API): `GET /dois?ids=a,b,…&page[size]=n`, or `GET /dois/{doi}` alone.

Zenodo, Dryad, figshare and most dataset and software DOIs are DataCite's. A batch asks for many
DOIs at once (lupo's `ids` filter; `page[size]` set to the batch, since its default page is 25).
A DOI absent from a batch answer, one containing a comma, and every DOI with batching off is asked
by itself. A DataCite 404 means "not in DataCite", never "does not exist": those rows come back as
`not_found` with reason `not_in_datacite`, a referral the DOI system settles. Bodies are checked
strictly: a record echoing another DOI, or an answer that is not a JSON:API document, is a failure
to look for that batch, never a record. Updates (`IsObsoletedBy`, …) are read from
`relatedIdentifiers` of the record already fetched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.compare.register_fields import datacite_surnames, datacite_year
from auditor.errors import MalformedBody, Reason
from auditor.register_settings import RegisterSettings
from auditor.registers.doi_lists import DoiListRegister, rows_by_echo
from auditor.registers.interface import RecordRow
from auditor.registers.records import (
    digest,
    json_text,
    row,
)
from auditor.registers.updates import datacite_updates
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: lupo caps a page at 1,000 records; the URL stays short well before that.
MAX_BATCH = 200


#: DataCite's REST API (api.datacite.org): its own pace; DataCite allows ~3,000 requests / 5 min.
@dataclass(frozen=True)
class DataciteSettings(RegisterSettings):
    """DataCite REST's settings (`[registers.datacite]`, `datacite_url`, …)."""

    url: str = "https://api.datacite.org"
    rate: float = 5.0
    """DataCite allows about 10/s per address."""
    batch_size: int = 50
    """DOIs per `GET /dois?ids=` request."""


DATACITE = Host(name="datacite", defaults=DataciteSettings())


def _title(attributes: Mapping[str, Any]) -> str | None:
    """The main title: the first `titles[]` entry without a `titleType` (else the first)."""
    titles = [t for t in attributes.get("titles") or [] if isinstance(t, Mapping)]
    main = [t for t in titles if not t.get("titleType")] or titles
    return next((json_text(t.get("title")) for t in main if json_text(t.get("title"))), None)


def _creator_names(attributes: Mapping[str, Any]) -> list[str]:
    names: list[str] = []
    creators = attributes.get("creators")
    for creator in creators if isinstance(creators, list) else []:
        if not isinstance(creator, Mapping):
            continue
        given, family = json_text(creator.get("givenName")), json_text(creator.get("familyName"))
        parts = [p for p in (given, family) if p]
        names.append(" ".join(parts) if parts else (json_text(creator.get("name")) or ""))
    return names


def _container(attributes: Mapping[str, Any]) -> Mapping[str, Any]:
    container = attributes.get("container")
    return container if isinstance(container, Mapping) else {}


def _publisher(attributes: Mapping[str, Any]) -> str | None:
    publisher = attributes.get("publisher")
    if isinstance(publisher, Mapping):  # `publisher=true` gives an object
        return json_text(publisher.get("name"))
    return json_text(publisher)


def record_row(doi: str, item: Mapping[str, Any], body_digest: str) -> RecordRow:
    """The `found` row of one JSON:API resource asked for as `doi` (echo checked)."""
    attributes = item.get("attributes")
    if not isinstance(attributes, Mapping):
        raise MalformedBody("datacite: resource without attributes", Reason.MALFORMED_BODY)
    echoed = attributes.get("doi", item.get("id"))
    if not isinstance(echoed, str) or echoed.strip().lower() != doi.lower():
        raise MalformedBody(f"datacite: asked {doi!r}, got {echoed!r}", Reason.WRONG_ECHO)
    container = _container(attributes)
    first_page, last_page = (
        json_text(container.get("firstPage")),
        json_text(container.get("lastPage")),
    )
    return row(
        DataciteRegister.name,
        IdType.DOI,
        doi,
        RecordStatus.FOUND,
        title=_title(attributes),
        authors=_creator_names(attributes),
        surnames=datacite_surnames(attributes),
        year=datacite_year(attributes),
        container_title=json_text(container.get("title")) or _publisher(attributes),
        volume=json_text(container.get("volume")),
        issue=json_text(container.get("issue")),
        pages="-".join(p for p in (first_page, last_page) if p) or None,
        doi=echoed.strip().lower(),
        language=json_text(attributes.get("language")),
        agency="DataCite",
        updates=datacite_updates(attributes, echoed.strip()),
        body_digest=body_digest,
    )


def _document(response: Response) -> Any:
    data = response.json()
    if not isinstance(data, Mapping) or "data" not in data:
        raise MalformedBody("datacite: not a JSON:API document", Reason.MALFORMED_BODY)
    return data["data"]


def parse_doi(doi: str, response: Response) -> RecordRow:
    """Parse a `/dois/{doi}` 200 answer; raises `MalformedBody` on a wrong shape or echo."""
    item = _document(response)
    if not isinstance(item, Mapping):
        raise MalformedBody("datacite: data is not a resource", Reason.MALFORMED_BODY)
    return record_row(doi, item, digest(response.body))


def parse_doi_list(dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """Parse a `/dois?ids=` answer into rows of the DOIs it holds (absent DOIs are missing).

    A resource naming a DOI that was not asked for, or one asked twice, makes the answer
    untrustworthy as a whole.
    """
    items = _document(response)
    if not isinstance(items, list):
        raise MalformedBody("datacite: data is not a list", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)

    def echo(item: object) -> object:
        attributes = item.get("attributes") if isinstance(item, Mapping) else None
        return attributes.get("doi") if isinstance(attributes, Mapping) else None

    return rows_by_echo(
        "datacite", dois, items, echo, lambda doi, item: record_row(doi, item, body_digest)
    )


class DataciteRegister(DoiListRegister):
    """DataCite DOIs, `datacite_batch_size` a request; asked when the DOI's agency is DataCite."""

    name = "datacite"
    api_version = "dois-v1"
    title = "DataCite"
    host = DATACITE
    reads_agencies = frozenset({"datacite"})
    one_path = "/dois/{doi}"
    list_path = "/dois"
    absent_reason = Reason.NOT_IN_DATACITE
    max_batch = MAX_BATCH

    def batch_size(self, net: Net) -> int:
        return DATACITE.own(net.settings).batch_size

    def list_params(self, dois: Sequence[str]) -> dict[str, str]:
        # `ids` is DataCite's comma list; without page[size] it answers 25 records at most.
        return {"ids": ",".join(dois), "page[size]": str(len(dois))}

    def parse_one(self, doi: str, response: Response) -> RecordRow:
        return parse_doi(doi, response)

    def parse_list(self, dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
        return parse_doi_list(dois, response)
