"""PubMed coordinate lookup for DOI-less Chinese medical references: queries and candidates.

Coverage first (`"TA"[ta]` has ≥ 1 record), then one deterministic query: volume + first page, or
first author + year only when volume or first page is missing (never as a fallback after a zero or
ambiguous result). Values that could carry Entrez syntax are refused before any request. The
requests and their envelope checks (string counts, unique numeric ids, `len(idlist) ==
min(count, retmax)`, uid echoes) are the E-utilities registers' (`registers/esearch.py`,
`registers/pubmed.py`); the candidate read from a checked document is this module's, strictly (an
`error` document, a pubdate without an ASCII year raise `MalformedBody`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from auditor.errors import MalformedBody, Reason
from auditor.names import family_first_surname

COORD_RETMAX = 20
_VOLUME = re.compile(r"[0-9A-Za-z]{1,10}")
_PAGE = re.compile(r"[A-Za-z]?[0-9]{1,7}[A-Za-z]?")
_PAGE_SPLIT = re.compile(r"\s*[-\u2010-\u2015~,]\s*")
_AUTHOR_TEXT = re.compile(r"[A-Za-z][A-Za-z .,'\-]*")
_SURNAME = re.compile(r"[A-Za-z][A-Za-z'\-]{0,39}")
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
    head = family_first_surname(author)
    return head if head is not None and _SURNAME.fullmatch(head) else None


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


@dataclass(frozen=True)
class PubmedCandidate:
    """The one record a coordinate query found: a candidate, never a match by itself."""

    pmid: str
    issns: tuple[str, ...]
    year: int | None
    volume: str | None
    first_page: str | None
    doi: str | None


def _bad(what: str) -> MalformedBody:
    return MalformedBody(f"{what}: unexpected payload shape", Reason.MALFORMED_BODY)


def candidate(pmid: str, doc: Mapping[str, Any]) -> PubmedCandidate:
    """The candidate of `pmid`'s checked esummary document; an `error` or odd date raises."""
    if "error" in doc:
        raise _bad("ESummary document")
    year = None
    pubdate = doc.get("pubdate")
    if pubdate not in (None, ""):
        match = _YEAR.match(pubdate) if isinstance(pubdate, str) else None
        if match is None:
            raise _bad("ESummary pubdate")
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
