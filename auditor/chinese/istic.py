"""ISTIC: CSL-JSON content negotiation through `doi.org`, strict shape checks, the title rule.

The transport follows the resolver's redirects under the redirect policy (HTTPS only, no bare IP,
no userinfo, no explicit port, allowlisted host or a configured base URL, checked on every hop
before a body is read); a refused hop raises `UnsafeRedirect` and never reaches this module. Here a
200 body must be CSL-JSON of the documented shape or `MalformedBody` is raised; a 404 is the
register's "no such DOI" and sends the caller to the Handle probe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import quote

from auditor.chinese.lookups import Lookups, Reply, decode_json, malformed
from auditor.compare.text import han_titles_equal
from auditor.errors import Reason, Unreachable

CSL_ACCEPT = "application/vnd.citationstyles.csl+json"
_YEAR = re.compile(r"[0-9]{4}")  # ASCII digits only: a Unicode-digit year must not slip through


class TitleCheck(StrEnum):
    """`doi_lookup_with_title_check`'s closed set (the protocol's DoiTitleLookupOutcome)."""

    MATCH = "MATCH"
    MISMATCH = "MISMATCH"
    NOT_FOUND = "NOT_FOUND"
    UNVERIFIABLE = "UNVERIFIABLE"


@dataclass(frozen=True)
class CslRecord:
    """The fields of a CSL-JSON record the waterfall uses; authors are display-only."""

    doi: str
    title: str | None
    container_title: str | None
    volume: str | None
    page: str | None
    year: int | None
    authors: tuple[str, ...]


def csl_url(base: str, doi: str) -> str:
    """`{base}/{doi}` with the DOI percent-encoded as one path (its `/` kept)."""
    return f"{base.rstrip('/')}/{quote(doi, safe='/')}"


def _one_string(value: Any, what: str) -> str | None:
    """A CSL text field: a string, or a one-element list of a string; absent/"" → `None`."""
    if value is None:
        return None
    if isinstance(value, list):
        if len(value) != 1 or not isinstance(value[0], str):
            raise malformed(f"CSL {what}")
        value = value[0]
    if not isinstance(value, str):
        raise malformed(f"CSL {what}")
    return value.strip() or None


def _scalar(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise malformed(f"CSL {what}")
    return str(value).strip() or None


def _year(issued: Any) -> int | None:
    """Year of `issued.date-parts[0][0]`; absent or `[[null]]`/`[[]]` → `None` (no year check)."""
    if issued is None:
        return None
    if not isinstance(issued, dict):
        raise malformed("CSL issued")
    parts = issued.get("date-parts")
    if parts is None:
        return None
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list):
        raise malformed("CSL issued.date-parts")
    if not parts[0] or parts[0][0] is None:
        return None
    year = parts[0][0]
    if isinstance(year, bool):
        raise malformed("CSL year")
    text = str(year) if isinstance(year, int | str) else ""
    if not _YEAR.fullmatch(text.strip()):
        raise malformed("CSL year (not four ASCII digits)")
    return int(text)


def _authors(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise malformed("CSL author")
    names: list[str] = []
    for person in value:
        if not isinstance(person, dict):
            raise malformed("CSL author")
        parts = [person.get(k) for k in ("family", "given", "literal")]
        names.append(" ".join(p.strip() for p in parts if isinstance(p, str) and p.strip()))
    return tuple(names)


def parse_csl(body: Any, doi: str) -> CslRecord:
    """Check the CSL shape and the DOI echo; raise `MalformedBody` rather than bind a title."""
    if not isinstance(body, dict):
        raise malformed("CSL")
    if "DOI" in body:
        echo = body["DOI"]
        if not isinstance(echo, str) or echo.strip().lower() != doi.lower():
            raise malformed("CSL DOI echo", Reason.WRONG_ECHO)
    return CslRecord(
        doi=doi,
        title=_one_string(body.get("title"), "title"),
        container_title=_one_string(body.get("container-title"), "container-title"),
        volume=_scalar(body.get("volume"), "volume"),
        page=_scalar(body.get("page"), "page"),
        year=_year(body.get("issued")),
        authors=_authors(body.get("author")),
    )


def read_csl_reply(reply: Reply, doi: str) -> CslRecord | None:
    """`None` for the register's 404 ("DOI Not Found"), the record for a good 200, else raise."""
    if reply.status == 404:
        return None
    if reply.status != 200:
        raise Unreachable(f"content negotiation answered HTTP {reply.status}", Reason.HTTP_4XX)
    return parse_csl(decode_json(reply, "CSL-JSON"), doi)


async def fetch_csl(lookups: Lookups, base: str, doi: str) -> CslRecord | None:
    """One content-negotiation request for `doi` (memoized per run)."""
    reply = await lookups.get("doi", csl_url(base, doi), accept=CSL_ACCEPT)
    return read_csl_reply(reply, doi)


def check_title(cited: str | None, record: CslRecord | None) -> TitleCheck:
    """MATCH, MISMATCH (Han titles differ), NOT_FOUND or UNVERIFIABLE (missing, cross-script)."""
    if record is None:
        return TitleCheck.NOT_FOUND
    equal = han_titles_equal(cited, record.title)
    if equal is None:
        return TitleCheck.UNVERIFIABLE
    return TitleCheck.MATCH if equal else TitleCheck.MISMATCH
