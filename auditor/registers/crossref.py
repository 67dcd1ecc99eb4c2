"""Crossref: `GET /works/{doi}` one DOI at a time, or batched `GET /works?filter=doi:A,doi:B`.

A Crossref 404 means "not in Crossref", never "does not exist": those rows come back as
`not_found` with reason `not_in_crossref`, and the resolve stage asks the DOI system
(`doi.py`, `handle.py`) before anyone condemns the DOI. A DOI absent from a batch answer is
confirmed by its own request. Bodies are checked strictly: a message that echoes another DOI, a
wrong `message-type` or a non-JSON body is a failure to look (`unreachable`), never a record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from auditor.compare.register_fields import crossref_surnames, crossref_year, crossref_years
from auditor.errors import MalformedBody, Reason
from auditor.register_settings import RegisterSettings
from auditor.registers.doi_lists import DoiListRegister, rows_by_echo
from auditor.registers.interface import RecordRow
from auditor.registers.records import (
    digest,
    row,
)
from auditor.registers.updates import crossref_updates
from auditor.settings import Settings
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: The filter URL grows by about 40 characters a DOI; keep it well under common 8 KiB limits.
MAX_FILTER_DOIS = 100


def _pace(rate: float, settings: Settings) -> float:
    """`crossref_rate`, or by default 10/s in the polite pool (with a mailto) and 5/s without."""
    return rate or (10.0 if settings.mailto else 5.0)


def _interval(text: str | None) -> float | None:
    """`X-Rate-Limit-Interval` (`1s`, `1m`) in seconds."""
    if not text:
        return None
    text = text.strip().lower()
    scale = 60.0 if text.endswith("m") else 1.0
    try:
        return float(text.rstrip("sm")) * scale
    except ValueError:
        return None


def rate_limit(headers: Mapping[str, str]) -> float | None:
    """The pace Crossref's `X-Rate-Limit-Limit`/`-Interval` headers allow, in requests/s."""
    limit = headers.get("x-rate-limit-limit")
    interval = _interval(headers.get("x-rate-limit-interval"))
    try:
        return float(limit) / interval if limit and interval else None
    except ValueError:
        return None


@dataclass(frozen=True)
class CrossrefSettings(RegisterSettings):
    """Crossref REST's settings (`[registers.crossref]`, `crossref_url`, `--crossref-url`, …)."""

    url: str = "https://api.crossref.org"
    rate: float = 0.0
    """Requests/s; 0 = 10 with a mailto, 5 without (never above what the headers allow)."""
    concurrency: int = 5
    """Requests in flight at once."""
    batch_size: int = 20
    """DOIs per `filter=doi:` request."""

    rules: ClassVar[Mapping[str, str]] = {"rate": "non_negative"}

    def slots(self, default: int) -> int:
        """The user sets Crossref's concurrency."""
        return self.concurrency


#: Crossref's REST API: asks for a mailto in the User-Agent and publishes its rate limit.
CROSSREF = Host(
    name="crossref",
    defaults=CrossrefSettings(),
    wants_mailto=True,
    rate=_pace,
    rate_from_headers=rate_limit,
)


def _first_text(value: object, field: str) -> str | None:
    """The first non-blank string of a Crossref text list (`title`, `container-title`).

    A value of another JSON type is a body we cannot read (`malformed_body`), never a record
    with an empty title that would then "differ" from the claim.
    """
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedBody(f"crossref: {field} is not a list of text", Reason.MALFORMED_BODY)
    first = next((v.strip() for v in value if v.strip()), None)
    return first


def _author_names(message: Mapping[str, Any]) -> list[str]:
    names: list[str] = []
    authors = message.get("author")
    if authors is not None and not isinstance(authors, list):
        raise MalformedBody("crossref: author is not a list", Reason.MALFORMED_BODY)
    for author in authors or []:
        if not isinstance(author, Mapping) or any(
            author.get(k) is not None and not isinstance(author.get(k), str)
            for k in ("given", "family", "name")
        ):
            raise MalformedBody("crossref: author is not a name object", Reason.MALFORMED_BODY)
        parts = [author.get("given"), author.get("family")]
        name = " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())
        if not name and isinstance(author.get("name"), str):
            name = author["name"].strip()
        names.append(name)
    return names


def _text(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def work_row(doi: str, message: Mapping[str, Any], body_digest: str) -> RecordRow:
    """The `found` row of one Crossref work `message` asked for as `doi` (echo checked)."""
    echoed = message.get("DOI")
    if not isinstance(echoed, str) or echoed.strip().lower() != doi.lower():
        raise MalformedBody(f"crossref: asked {doi!r}, got {echoed!r}", Reason.WRONG_ECHO)
    return row(
        CrossrefRegister.name,
        IdType.DOI,
        doi,
        RecordStatus.FOUND,
        title=_first_text(message.get("title"), "title"),
        authors=_author_names(message),
        surnames=crossref_surnames(message),
        year=crossref_year(message),
        years=crossref_years(message),
        work_type=_text(message.get("type")),
        container_title=_first_text(message.get("container-title"), "container-title"),
        volume=_text(message.get("volume")),
        issue=_text(message.get("issue")),
        pages=_text(message.get("page")),
        doi=echoed.strip().lower(),
        language=_text(message.get("language")),
        agency="Crossref",
        updates=crossref_updates(message, echoed.strip()),
        body_digest=body_digest,
    )


def _envelope(response: Response, message_type: str) -> Mapping[str, Any]:
    data = response.json()
    if (
        not isinstance(data, Mapping)
        or data.get("status") != "ok"
        or data.get("message-type") != message_type
        or not isinstance(data.get("message"), Mapping)
    ):
        raise MalformedBody(f"crossref: not a {message_type} envelope", Reason.MALFORMED_BODY)
    message: Mapping[str, Any] = data["message"]
    return message


def parse_work(doi: str, response: Response) -> RecordRow:
    """Parse a `/works/{doi}` 200 answer; raises `MalformedBody` on any wrong shape or echo."""
    return work_row(doi, _envelope(response, "work"), digest(response.body))


def parse_work_list(dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """Parse a `filter=doi:` answer into rows of the DOIs it holds (absent DOIs are missing).

    An item naming a DOI that was not asked for, or twice, makes the whole answer untrustworthy.
    """
    items = _envelope(response, "work-list").get("items")
    if not isinstance(items, list):
        raise MalformedBody("crossref: work-list without items", Reason.MALFORMED_BODY)
    body_digest = digest(response.body)

    def echo(item: object) -> object:
        if not isinstance(item, Mapping):
            raise MalformedBody("crossref: item is not an object", Reason.MALFORMED_BODY)
        return item.get("DOI")

    return rows_by_echo(
        "crossref", dois, items, echo, lambda doi, item: work_row(doi, item, body_digest)
    )


class CrossrefRegister(DoiListRegister):
    """DOIs registered with Crossref, one request per DOI or `crossref_batch_size` per request."""

    name = "crossref"
    api_version = "works-v1"
    title = "Crossref"
    host = CROSSREF
    reads_agencies = frozenset({"crossref"})
    one_path = "/works/{doi}"
    list_path = "/works"
    absent_reason = Reason.NOT_IN_CROSSREF
    max_batch = MAX_FILTER_DOIS

    def batch_size(self, net: Net) -> int:
        return CROSSREF.own(net.settings).batch_size

    def list_params(self, dois: Sequence[str]) -> dict[str, str]:
        return {"filter": ",".join(f"doi:{d}" for d in dois), "rows": str(len(dois))}

    def parse_one(self, doi: str, response: Response) -> RecordRow:
        return parse_work(doi, response)

    def parse_list(self, dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
        return parse_work_list(dois, response)
