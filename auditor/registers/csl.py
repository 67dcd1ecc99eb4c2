"""DOI content negotiation: `GET doi.org/{doi}`, `Accept: application/vnd.citationstyles.csl+json`.

The resolver redirects to the agency's metadata service; the transport follows each hop under the
redirect policy (HTTPS only, no bare IP, no userinfo, no explicit port, an allowlisted host or a
configured base URL, checked before any body is read), so a refused hop is `unsafe_redirect` and
never reaches this module. A 200 body must be CSL-JSON of the documented shape, checked strictly
(a title that is not one string, a year that is not four ASCII digits, a `DOI` echo naming
another DOI are failures to look, never a record); a 404 is the resolver's "DOI Not Found", which
only the Handle API may turn into "does not exist".

For DOIs of agencies without a REST register (mEDRA, JaLC, KISTI, Airiti, OP: `agencies`), this
is the register the resolve stage asks once doiRA has placed a DOI there. An agency that serves no
CSL for a DOI (a landing page instead of JSON, 406 or 415 to the CSL `Accept`) gives a failure with
reason `no_csl`: the resolve stage then keeps the DOI `NOT COVERED` (`registered_with_<agency>`),
the Chinese waterfall treats it as unavailable, and it never counts toward the breaker.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from auditor.compare.register_fields import csl_surnames
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.doi import DOI_SYSTEM
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import Breaker, digest, failed, http_reason, row, split_fetch
from auditor.tables import IdType, RecordStatus

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

CSL_ACCEPT = "application/vnd.citationstyles.csl+json"
#: A CSL-JSON record is a few kilobytes; bodies are refused past this (the protocol's cap).
MAX_BYTES = 2 * 1024 * 1024
_YEAR = re.compile(r"[0-9]{4}")  # ASCII digits only: a Unicode-digit year must not slip through
#: Media types a CSL-JSON answer may carry (agencies differ).
_JSON_TYPES = frozenset({CSL_ACCEPT, "application/json", "application/citeproc+json"})
#: Answers to the CSL `Accept` that mean "no CSL is served for this DOI".
_NO_CSL_STATUSES = frozenset({406, 415})


def _bad(what: str, reason: Reason = Reason.MALFORMED_BODY) -> MalformedBody:
    return MalformedBody(f"CSL {what}: unexpected payload shape", reason)


def csl_url(base: str, doi: str) -> str:
    """`{base}/{doi}` with the DOI percent-encoded as one path (its `/` kept)."""
    return f"{base.rstrip('/')}/{quote(doi, safe='/')}"


def _one_string(value: Any, what: str) -> str | None:
    """A CSL text field: a string, or a one-element list of a string; absent/"" → `None`."""
    if value is None:
        return None
    if isinstance(value, list):
        if len(value) != 1 or not isinstance(value[0], str):
            raise _bad(what)
        value = value[0]
    if not isinstance(value, str):
        raise _bad(what)
    return value.strip() or None


def _scalar(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _bad(what)
    return str(value).strip() or None


def _year(issued: Any) -> int | None:
    """Year of `issued.date-parts[0][0]`; absent or `[[null]]`/`[[]]` → `None` (no year check)."""
    if issued is None:
        return None
    if not isinstance(issued, Mapping):
        raise _bad("issued")
    parts = issued.get("date-parts")
    if parts is None:
        return None
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list):
        raise _bad("issued.date-parts")
    if not parts[0] or parts[0][0] is None:
        return None
    year = parts[0][0]
    if isinstance(year, bool):
        raise _bad("year")
    text = str(year) if isinstance(year, int | str) else ""
    if not _YEAR.fullmatch(text.strip()):
        raise _bad("year (not four ASCII digits)")
    return int(text)


def _authors(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _bad("author")
    names: list[str] = []
    for person in value:
        if not isinstance(person, Mapping):
            raise _bad("author")
        parts = [person.get(k) for k in ("family", "given", "literal")]
        names.append(" ".join(p.strip() for p in parts if isinstance(p, str) and p.strip()))
    return names


def parse_csl(doi: str, body: Any, body_digest: str, agency: str | None = None) -> RecordRow:
    """The `found` row of a CSL-JSON record asked for as `doi`; `MalformedBody` on any doubt."""
    if not isinstance(body, Mapping):
        raise _bad("record")
    if "DOI" in body:
        echo = body["DOI"]
        if not isinstance(echo, str) or echo.strip().lower() != doi.lower():
            raise _bad("DOI echo", Reason.WRONG_ECHO)
    return row(
        CslRegister.name,
        IdType.DOI,
        doi,
        RecordStatus.FOUND,
        title=_one_string(body.get("title"), "title"),
        authors=_authors(body.get("author")),
        # criteria: a CSL record's register surnames are `author[].family` (see criteria.json)
        surnames=csl_surnames(body),
        year=_year(body.get("issued")),
        container_title=_one_string(body.get("container-title"), "container-title"),
        volume=_scalar(body.get("volume"), "volume"),
        pages=_scalar(body.get("page"), "page"),
        doi=doi,
        agency=agency,
        body_digest=body_digest,
    )


def parse_csl_reply(doi: str, response: Response, agency: str | None = None) -> RecordRow:
    """`found` for a good 200, `not_found` for the resolver's 404, else raise `RegisterError`."""
    if response.status == 404:
        return row(
            CslRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_FOUND,
            Reason.NOT_FOUND,
            body_digest=digest(response.body),
        )
    kind = response.content_type
    # A declared non-JSON type (a landing page) is "no CSL"; an undeclared one is parsed.
    not_json = kind is not None and kind not in _JSON_TYPES and not kind.endswith("+json")
    if response.status in _NO_CSL_STATUSES or (response.status == 200 and not_json):
        what = response.content_type or f"HTTP {response.status}"
        raise Unreachable(f"content negotiation: no CSL for {doi} ({what})", Reason.NO_CSL)
    if response.status != 200:
        reason = http_reason(response.status)
        raise Unreachable(f"content negotiation: HTTP {response.status} for {doi}", reason)
    return parse_csl(doi, response.json(MAX_BYTES), digest(response.body), agency)


class CslRegister(Register):
    """CSL-JSON metadata of any DOI through the DOI system, one request per DOI.

    `not_found` is the resolver's 404 only: whether the DOI exists is the Handle API's word.
    """

    name = "csl"
    api_version = "csl-v1"
    title = "DOI content negotiation"
    host = DOI_SYSTEM
    reads_agencies = frozenset({"medra", "jalc", "kisti", "airiti", "op"})
    settled_by = "doi"

    def __init__(
        self, sink: Sink | None = None, agency_of: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(sink)
        self._breaker = Breaker()
        self._agency_of = dict(agency_of or {})
        """DOI → the agency doiRA named, written into the `agency` column."""

    def referred(self, row: RecordRow) -> bool:
        """No comparable CSL: the DOI system's word (the DOI exists, at its agency) stands.

        That is the resolver's 404, "no CSL here", and a redirect to a metadata host outside the
        redirect policy (refused before any body was read): CSL the policy does not let us read is
        no usable CSL, so the DOI stays NOT COVERED with its agency, as before it was asked.
        """
        return row.get("status") == RecordStatus.NOT_FOUND or row.get("reason") in (
            Reason.NO_CSL,
            Reason.UNSAFE_REDIRECT,
        )

    def _fail(self, doi: str, reason: Reason) -> RecordRow:
        return failed(self.name, IdType.DOI, doi, reason)

    async def _one(self, dois: list[str], net: Net) -> dict[str, RecordRow]:
        (doi,) = dois
        url = csl_url(DOI_SYSTEM.base_url(net.settings), doi)
        response = await net.get(DOI_SYSTEM.name, url, accept=CSL_ACCEPT, follow_redirects=True)
        return {doi: parse_csl_reply(doi, response, self._agency_of.get(doi))}

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids`: `found`, `not_found` (the resolver's 404) or `unreachable`."""
        answers = await asyncio.gather(
            *(split_fetch([d], lambda g: self._one(g, net), self._fail, self._breaker) for d in ids)
        )
        out: dict[str, RecordRow] = {}
        for answer in answers:
            out.update(answer)
        if self.sink is not None:
            self.sink(out)
        return out
