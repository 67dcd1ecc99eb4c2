"""arXiv: `api/query?id_list=a,b,…&max_results=n` (Atom), many ids a request, one every 3 s.

Parsed with defusedxml (no entity expansion). The API drops well-formed unknown ids silently, so
an id missing from a *trustworthy* answer is `not_found`; an answer holding an entry that was not
asked for (wrong echo), twice, or a `totalResults` that disagrees with its entries is a failure
to look. A malformed id gets HTTP 400 with one error entry (`…/api/errors#incorrect_id_format_…`):
alone, that id is `not_found` (the register said it names nothing); in a batch, the batch is split.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from auditor.compare.register_fields import arxiv_surnames, arxiv_version, arxiv_year
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
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response


#: arXiv asks for one request every three seconds on a single connection.
@dataclass(frozen=True)
class ArxivSettings(RegisterSettings):
    """The arXiv API's settings (`[registers.arxiv]`, `arxiv_url`, `arxiv_rate`)."""

    url: str = "https://export.arxiv.org"
    rate: float = 1 / 3
    """arXiv asks for one request every three seconds."""


ARXIV = Host(name="arxiv", defaults=ArxivSettings(), concurrency=1)

#: The API's own ceiling for one slice of `id_list`.
BATCH_SIZE = 2000

_ATOM = "{http://www.w3.org/2005/Atom}"
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_ABS = re.compile(r"^https?://(?:export\.)?arxiv\.org/abs/", re.IGNORECASE)
_VERSION = re.compile(r"v\d+$")
_OLD_STYLE = re.compile(r"^([a-z-]+)(?:\.[a-z]{2})?/(\d{7})$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def arxiv_key(text: str) -> str:
    """Comparable form of an arXiv id or abs URL: no URL, no version, no subject class."""
    key = _VERSION.sub("", _ABS.sub("", text.strip())).lower()
    match = _OLD_STYLE.match(key)
    # `math.GT/0309136` is answered as `math/0309136`: the subject class is not part of the id.
    return f"{match.group(1)}/{match.group(2)}" if match else key


def id_from_doi(doi: str) -> str | None:
    """The arXiv id inside an arXiv DOI (`10.48550/arXiv.1706.03762`), else `None`."""
    match = _ARXIV_DOI.match(doi.strip())
    return match.group(1) if match else None


def _text(element: Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    text = " ".join(element.text.split())
    return text or None


def _parse_feed(body: bytes) -> Element:
    try:
        root: Element = fromstring(body)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise MalformedBody(f"arxiv: unreadable Atom ({exc})", Reason.MALFORMED_BODY) from None
    return root


def _is_error(entry: Element) -> bool:
    return "/api/errors" in (_text(entry.find(f"{_ATOM}id")) or "")


def _found_row(identifier: str, entry: Element, body_digest: str) -> RecordRow:
    """The `found` record of `identifier` from its Atom `entry`."""
    names = [_text(a.find(f"{_ATOM}name")) or "" for a in entry.findall(f"{_ATOM}author")]
    published = arxiv_year(_text(entry.find(f"{_ATOM}published")))
    updated = arxiv_year(_text(entry.find(f"{_ATOM}updated")))
    return row(
        ArxivRegister.name,
        IdType.ARXIV,
        identifier,
        RecordStatus.FOUND,
        title=_text(entry.find(f"{_ATOM}title")),
        authors=names,
        surnames=arxiv_surnames(names),
        year=published,
        years=sorted({y for y in (published, updated) if y is not None}),
        version=arxiv_version(_text(entry.find(f"{_ATOM}id"))),
        work_type="preprint",
        # The authors' note of where the work appeared (`Phys. Rev. B 85, 115117 (2012)`):
        # the venue evidence auditor/v2's `journal_ref_rule` compares; none for a preprint.
        container_title=_text(entry.find(f"{_ARXIV}journal_ref")),
        doi=(_text(entry.find(f"{_ARXIV}doi")) or "").lower() or None,
        body_digest=body_digest,
    )


def parse_feed(ids: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """Rows for every asked id from a 200 feed; raises `MalformedBody` on an untrustworthy one."""
    feed = _parse_feed(response.body)
    if feed.tag != f"{_ATOM}feed":
        raise MalformedBody("arxiv: not an Atom feed", Reason.MALFORMED_BODY)
    entries = feed.findall(f"{_ATOM}entry")
    total = _text(feed.find(f"{_OPENSEARCH}totalResults"))
    if total is not None and (not total.isdigit() or int(total) != len(entries)):
        raise MalformedBody("arxiv: totalResults disagrees with entries", Reason.MALFORMED_BODY)
    asked = {arxiv_key(i): i for i in ids}
    body_digest = digest(response.body)
    out: dict[str, RecordRow] = {}
    for entry in entries:
        if _is_error(entry):
            raise MalformedBody("arxiv: error entry in a 200 answer", Reason.MALFORMED_BODY)
        key = arxiv_key(_text(entry.find(f"{_ATOM}id")) or "")
        if key not in asked or asked[key] in out:
            raise MalformedBody(f"arxiv: unexpected entry {key!r}", Reason.WRONG_ECHO)
        out[asked[key]] = _found_row(asked[key], entry, body_digest)
    for identifier in ids:
        # A well-formed unknown id is silently dropped by the API: the register's "no".
        out.setdefault(
            identifier,
            row(
                ArxivRegister.name,
                IdType.ARXIV,
                identifier,
                RecordStatus.NOT_FOUND,
                Reason.NOT_FOUND,
                body_digest=body_digest,
            ),
        )
    return out


def parse_error_feed(ids: Sequence[str], response: Response) -> dict[str, RecordRow]:
    """A 400 answer: for a single id with the API's error entry, `not_found`; else raise."""
    feed = _parse_feed(response.body)
    entries = feed.findall(f"{_ATOM}entry")
    if len(ids) == 1 and len(entries) == 1 and _is_error(entries[0]):
        (identifier,) = ids
        return {
            identifier: row(
                ArxivRegister.name,
                IdType.ARXIV,
                identifier,
                RecordStatus.NOT_FOUND,
                Reason.NOT_FOUND,
                body_digest=digest(response.body),
            )
        }
    raise MalformedBody("arxiv: HTTP 400 for a batch", Reason.HTTP_4XX)


class ArxivRegister(Register):
    """arXiv ids (new `YYMM.NNNNN` and old `archive/YYMMNNN`, without version)."""

    name = "arxiv"
    api_version = "atom-2026-jref"
    title = "arXiv"
    host = ARXIV
    id_type = IdType.ARXIV

    def __init__(self, sink: Sink | None = None) -> None:
        super().__init__(sink)
        self._breaker = Breaker()

    @classmethod
    def claim(cls, id_type: str, identifier: str) -> str | None:
        """arXiv ids, and arXiv DOIs (`10.48550/arXiv.<id>`) as their arXiv id."""
        if id_type == IdType.DOI:
            return id_from_doi(identifier)
        return super().claim(id_type, identifier)

    def _fail(self, identifier: str, reason: Reason) -> RecordRow:
        return failed(self.name, IdType.ARXIV, identifier, reason)

    async def _batch(self, ids: list[str], net: Net) -> dict[str, RecordRow]:
        params = {"id_list": ",".join(ids), "max_results": str(len(ids))}
        response = await net.get(
            ARXIV.name,
            f"{ARXIV.base_url(net.settings)}/api/query",
            params=params,
            retries=None if len(ids) == 1 else 1,
            follow_redirects=True,
        )
        if response.status == 200:
            return parse_feed(ids, response)
        if response.status == 400:
            return parse_error_feed(ids, response)
        reason = http_reason(response.status)
        raise Unreachable(f"arxiv: HTTP {response.status}", reason)

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids`; slices of `BATCH_SIZE`, or one a request without batching."""
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
