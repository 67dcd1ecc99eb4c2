"""PubMed coordinate lookup for DOI-less Chinese medical references.

Coverage first (`"TA"[ta]` has ≥ 1 record), then one deterministic query: volume + first page, or
first author + year only when volume or first page is missing (never as a fallback after a zero or
ambiguous result). Values that could carry Entrez syntax are refused before any request. ESearch
and ESummary bodies are checked strictly (string counts, unique numeric ids, `len(idlist) ==
min(count, retmax)`, uid echoes, ASCII years); a doubt raises `MalformedBody`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from auditor.chinese.lookups import Lookups, Reply, decode_json, malformed
from auditor.errors import Reason, Unreachable

TOOL = "auditor"
COORD_RETMAX = 20
_VOLUME = re.compile(r"[0-9A-Za-z]{1,10}")
_PAGE = re.compile(r"[A-Za-z]?[0-9]{1,7}[A-Za-z]?")
_PAGE_SPLIT = re.compile(r"\s*[-\u2010-\u2015~,]\s*")
_AUTHOR_TEXT = re.compile(r"[A-Za-z][A-Za-z .,'\-]*")
_SURNAME = re.compile(r"[A-Za-z][A-Za-z'\-]{0,39}")
_DIGITS = re.compile(r"[0-9]+")
_PMID = re.compile(r"[1-9][0-9]{0,19}")
_EMAIL = re.compile(r"[^@\s\x00-\x1f]+@[^@\s\x00-\x1f]+\.[^@\s\x00-\x1f]+")
_YEAR = re.compile(r"([0-9]{4})(?![0-9])")


@dataclass(frozen=True)
class Coordinates:
    """What the query is built from; `refused` names a value that could inject Entrez syntax."""

    volume: str | None = None
    first_page: str | None = None
    surname: str | None = None
    year: int | None = None
    refused: str | None = None

    @property
    def by_volume_page(self) -> bool:
        """Volume and first page both usable."""
        return self.volume is not None and self.first_page is not None

    @property
    def by_author_year(self) -> bool:
        """First author surname and year both usable."""
        return self.surname is not None and self.year is not None


def first_page(pages: str | None) -> str | None:
    """The first page of a `pages` field as written (`3967-3971` → `3967`); `None` when blank."""
    if not pages or not pages.strip():
        return None
    return _PAGE_SPLIT.split(pages.strip(), maxsplit=1)[0]


def _surname(author: str) -> str | None:
    """Latin surname of a first author (`Chen, X.` / `Chen Xiaoming`); Han names give `None`."""
    head = author.split(",", 1)[0].strip() if "," in author else author.strip().split(" ")[0]
    return head if _SURNAME.fullmatch(head) else None


def coordinates(
    volume: str | None, pages: str | None, authors: list[str] | None, year: int | None
) -> Coordinates:
    """Usable, injection-free coordinates of one reference (nothing is guessed)."""
    vol = (volume or "").strip() or None
    page = first_page(pages)
    if vol is not None and not _VOLUME.fullmatch(vol):
        return Coordinates(refused=f"volume {vol!r}")
    if page is not None and not _PAGE.fullmatch(page):
        return Coordinates(refused=f"first page {page!r}")
    if vol is not None and page is not None:
        return Coordinates(volume=vol, first_page=page)
    surname = None
    if authors:
        first = authors[0].strip()
        if first and not _AUTHOR_TEXT.fullmatch(first):
            if re.search(r"[\"\[\]()#:*]|\b(?:AND|OR|NOT)\b", first):
                return Coordinates(refused=f"first author {first!r}")
        else:
            surname = _surname(first) if first else None
    return Coordinates(volume=vol, first_page=page, surname=surname, year=year)


def coverage_term(ta: str) -> str:
    """The coverage query: every record of the journal."""
    return f'"{ta}"[ta]'


def coordinate_term(ta: str, c: Coordinates) -> str:
    """The single coordinate query: volume + first page, else first author + year."""
    if c.by_volume_page:
        return f'"{ta}"[ta] AND {c.volume}[vi] AND {c.first_page}[pg]'
    return f'"{ta}"[ta] AND "{c.surname}"[1au] AND {c.year}[dp]'


def valid_email(email: str | None) -> bool:
    """An NCBI contact address of plausible form (no whitespace or control characters)."""
    return bool(email) and _EMAIL.fullmatch(email) is not None  # type: ignore[arg-type]


def ncbi_params(email: str, api_key: str | None) -> dict[str, str]:
    """Identification every NCBI call carries; an API key does not relax pacing."""
    params = {"tool": TOOL, "email": email}
    if api_key:
        params["api_key"] = api_key
    return params


def _ok_json(reply: Reply, what: str) -> Any:
    if reply.status != 200:
        raise Unreachable(f"{what} answered HTTP {reply.status}", Reason.HTTP_4XX)
    return decode_json(reply, what)


def parse_esearch(reply: Reply, retmax: int) -> tuple[int, list[str]]:
    """`(count, idlist)` of an ESearch JSON body, checked for internal consistency."""
    body = _ok_json(reply, "ESearch")
    result = body.get("esearchresult") if isinstance(body, dict) else None
    if not isinstance(result, dict) or "ERROR" in result:
        raise malformed("ESearch")
    count, ids = result.get("count"), result.get("idlist")
    if not isinstance(count, str) or not _DIGITS.fullmatch(count) or not isinstance(ids, list):
        raise malformed("ESearch count/idlist")
    if not all(isinstance(i, str) and _PMID.fullmatch(i) for i in ids):
        raise malformed("ESearch idlist (non-numeric id)")
    if len(set(ids)) != len(ids) or len(ids) != min(int(count), retmax):
        raise malformed("ESearch idlist (duplicated, incomplete or overlong)")
    return int(count), ids


async def esearch(
    lookups: Lookups, base: str, term: str, retmax: int, ident: Mapping[str, str]
) -> tuple[int, list[str]]:
    """One ESearch on db=pubmed (through the shared NCBI throttle)."""
    params = {"db": "pubmed", "retmode": "json", "term": term, "retmax": str(retmax), **ident}
    reply = await lookups.get("ncbi", f"{base.rstrip('/')}/esearch.fcgi", params=params)
    return parse_esearch(reply, retmax)


@dataclass(frozen=True)
class PubmedCandidate:
    """The one record a coordinate query found: a candidate, never a match by itself."""

    pmid: str
    issns: tuple[str, ...]
    year: int | None
    volume: str | None
    first_page: str | None
    doi: str | None


def parse_esummary(reply: Reply, pmid: str) -> PubmedCandidate:
    """The candidate of a single-PMID ESummary body; every echo must name exactly `pmid`."""
    body = _ok_json(reply, "ESummary")
    result = body.get("result") if isinstance(body, dict) else None
    if not isinstance(result, dict):
        raise malformed("ESummary")
    uids = result.get("uids")
    if uids is not None and uids != [pmid]:
        raise malformed("ESummary uids echo", Reason.WRONG_ECHO)
    doc = result.get(pmid)
    if not isinstance(doc, dict) or "error" in doc:
        raise malformed("ESummary document")
    if "uid" in doc and doc["uid"] != pmid:
        raise malformed("ESummary uid echo", Reason.WRONG_ECHO)
    year = None
    pubdate = doc.get("pubdate")
    if pubdate not in (None, ""):
        match = _YEAR.match(pubdate) if isinstance(pubdate, str) else None
        if match is None:
            raise malformed("ESummary pubdate")
        year = int(match.group(1))
    issns = tuple(
        v.strip().upper() for v in (doc.get("issn"), doc.get("essn")) if isinstance(v, str) and v
    )
    return PubmedCandidate(
        pmid=pmid,
        issns=issns,
        year=year,
        volume=_text(doc.get("volume")),
        first_page=first_page(_text(doc.get("pages"))),
        doi=_doi(doc.get("articleids")),
    )


def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _doi(ids: Any) -> str | None:
    if not isinstance(ids, list):
        return None
    for item in ids:
        if isinstance(item, dict) and item.get("idtype") == "doi":
            value = item.get("value")
            if isinstance(value, str) and value.strip():
                return value.strip().lower()
    return None


async def esummary(
    lookups: Lookups, base: str, pmid: str, ident: Mapping[str, str]
) -> PubmedCandidate:
    """One single-PMID ESummary (through the shared NCBI throttle)."""
    params = {"db": "pubmed", "retmode": "json", "id": pmid, **ident}
    reply = await lookups.get("ncbi", f"{base.rstrip('/')}/esummary.fcgi", params=params)
    return parse_esummary(reply, pmid)


def conflicts(
    cand: PubmedCandidate, *, issn: str, year: int | None, c: Coordinates, volume: str | None
) -> list[str]:
    """The fields where candidate and citation disagree, wherever both sides give one."""
    out: list[str] = []
    if cand.issns and issn.upper() not in cand.issns:
        out.append("issn")
    if cand.year is not None and year is not None and cand.year != year:
        out.append("year")
    vol = volume.strip() if volume else None
    if cand.volume and vol and cand.volume != vol:
        out.append("volume")
    if cand.first_page and c.first_page and cand.first_page.upper() != c.first_page.upper():
        out.append("first_page")
    return out
