"""The criteria's per-register rules for the record side: register year and register surnames.

reference-resolution/v1 §comparison fixes where each register's year and author surnames come
from. The resolvers call these helpers so the rules live in one place, next to the comparison core
that relies on them. Every helper takes the parsed, untrusted register body and never raises on a
wrong shape: a value it cannot read is `None` (year) or is skipped/blank (surnames), as documented.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from auditor.names import first_token, last_token, v1_surname_cut

__all__ = [
    "CROSSREF_DATE_PRECEDENCE",
    "CROSSREF_DATE_KEYS",
    "arxiv_version",
    "crossref_years",
    "arxiv_surnames",
    "arxiv_year",
    "crossref_surnames",
    "crossref_year",
    "csl_surnames",
    "csl_year",
    "datacite_surnames",
    "datacite_year",
    "pubmed_surnames",
    "pubmed_year",
]

#: criteria v1 §year.register_year_precedence.doi, in order.
CROSSREF_DATE_PRECEDENCE: tuple[str, ...] = (
    "published",
    "issued",
    "published-online",
    "published-print",
    "created",
)


def _leading_year(text: object) -> int | None:
    """The integer of the first four characters when they are ASCII digits, else `None`."""
    if not isinstance(text, str) or len(text) < 4:
        return None
    head = text[:4]
    # ASCII only: str.isdigit() would also accept Unicode digits such as "２０２４".
    if head.isascii() and head.isdigit():
        return int(head)
    return None


def _date_parts_year(value: object) -> int | None:
    """The year of a Crossref date object `{"date-parts": [[Y, M, D]]}`, else `None`.

    Real Crossref bodies carry `[[null]]` and `[[]]` for undated records; those give `None` so the
    precedence falls through to the next date.
    """
    if not isinstance(value, Mapping):
        return None
    parts = value.get("date-parts")
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list) or not parts[0]:
        return None
    year = parts[0][0]
    if isinstance(year, bool) or not isinstance(year, int):
        return None
    return year


def crossref_year(message: Mapping[str, Any]) -> int | None:
    """Register year of a Crossref `/works` `message`: the first dated key of the precedence.

    Precedence (criteria v1): published, issued, published-online, published-print, created. A key
    that is absent or undated (`[[null]]`, `[[]]`) falls through; `None` when none is dated.
    """
    for key in CROSSREF_DATE_PRECEDENCE:
        year = _date_parts_year(message.get(key))
        if year is not None:
            return year
    return None


#: Every Crossref date key auditor/v2's year rule reads (a year off from all of them differs).
CROSSREF_DATE_KEYS: tuple[str, ...] = (
    *CROSSREF_DATE_PRECEDENCE,
    "posted",
    "accepted",
    "approved",
    "content-created",
)


def crossref_years(message: Mapping[str, Any]) -> list[int]:
    """Every distinct year a Crossref `message`'s dates hold, ascending (auditor/v2 §year)."""
    years = {_date_parts_year(message.get(key)) for key in CROSSREF_DATE_KEYS}
    return sorted(y for y in years if y is not None)


def arxiv_version(entry_id: str | None) -> int | None:
    """The version number at the end of an arXiv Atom `<id>` (`…/abs/2310.01362v3` → 3)."""
    if not isinstance(entry_id, str):
        return None
    head, sep, tail = entry_id.strip().rpartition("v")
    if not sep or not head or not tail.isascii() or not tail.isdigit():
        return None
    return int(tail)


def pubmed_year(summary: Mapping[str, Any]) -> int | None:
    """Register year of a PubMed esummary document: `pubdate[:4]` if numeric, else `sortpubdate`.

    `None` when neither begins with four ASCII digits.
    """
    year = _leading_year(summary.get("pubdate"))
    if year is not None:
        return year
    return _leading_year(summary.get("sortpubdate"))


def arxiv_year(published: str | None) -> int | None:
    """Register year of an arXiv entry from its Atom `<published>` (`2017-07-26T17:59:58Z`)."""
    return _leading_year(published)


def _dicts(items: object) -> Iterable[Mapping[str, Any]]:
    if not isinstance(items, list):
        return ()
    return (item for item in items if isinstance(item, Mapping))


def crossref_surnames(message: Mapping[str, Any]) -> list[str]:
    """Register surnames of a Crossref `message`: `author[].family`, in order.

    An author without a string `family` (a corporate author has only `name`) keeps its position
    with `""`, which never matches a claimed surname; positions matter for the first-author rule.
    """
    out: list[str] = []
    for author in _dicts(message.get("author")):
        family = author.get("family")
        out.append(family if isinstance(family, str) else "")
    return out


def pubmed_surnames(summary: Mapping[str, Any]) -> list[str]:
    """Register surnames of a PubMed esummary document: the first token of each `authors[].name`.

    `"Schmidt RJ"` → `"Schmidt"`. Collective names are kept (literal v1: every NCBI author name);
    a missing or blank name keeps its position with `""`.
    """
    return [first_token(author.get("name")) for author in _dicts(summary.get("authors"))]


def arxiv_surnames(names: Iterable[str | None]) -> list[str]:
    """Register surnames of arXiv `<author><name>` values: the last whitespace token of each name.

    `"Ashish Vaswani"` → `"Vaswani"`; a blank name keeps its position with `""`.
    """
    return [last_token(name) for name in names]


def datacite_year(attributes: Mapping[str, Any]) -> int | None:
    """Register year of a DataCite record: `publicationYear` (a JSON integer or four ASCII digits).

    DataCite makes `publicationYear` mandatory; `None` when it is absent or not a year.
    """
    year = attributes.get("publicationYear")
    if isinstance(year, int) and not isinstance(year, bool):
        return year if 0 < year < 10000 else None
    if isinstance(year, str) and len(year.strip()) == 4:
        return _leading_year(year.strip())
    return None


def datacite_surnames(attributes: Mapping[str, Any]) -> list[str]:
    """Register surnames of a DataCite record's `creators`, in order.

    `familyName` when it is a non-empty string; else, for a personal name (`nameType` `Personal`
    or absent), the claimed-surname rule of v1 applied to `name` (the part before the first comma,
    DataCite's `Family, Given` form, else the last whitespace token); an organisational creator
    keeps its position with `""`, like a Crossref author without `family`.
    """
    out: list[str] = []
    for creator in _dicts(attributes.get("creators")):
        family = creator.get("familyName")
        if isinstance(family, str) and family.strip():
            out.append(family.strip())
            continue
        name = creator.get("name")
        if creator.get("nameType") == "Organizational" or not isinstance(name, str):
            out.append("")
            continue
        out.append(v1_surname_cut(name).strip())
    return out


def csl_year(csl: Mapping[str, Any]) -> int | None:
    """Register year of a CSL-JSON record: `issued.date-parts[0][0]` (integer or four digits)."""
    issued = csl.get("issued")
    year = _date_parts_year(issued)
    if year is not None:
        return year
    parts = issued.get("date-parts") if isinstance(issued, Mapping) else None
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return _leading_year(parts[0][0]) if isinstance(parts[0][0], str) else None
    return None


def csl_surnames(csl: Mapping[str, Any]) -> list[str]:
    """Register surnames of a CSL-JSON record: `author[].family`, in order (else `""`)."""
    out: list[str] = []
    for author in _dicts(csl.get("author")):
        family = author.get("family")
        out.append(family.strip() if isinstance(family, str) else "")
    return out
