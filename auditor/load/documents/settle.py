"""Search-based reading of a reference string the parse was unsure of (issue #24 item 4).

When the string gave no year, quotes or type tag to mark where the authors end and the title
begins (`rows.UNSURE`), the whole string is the search query (`string_query`), asked of the
indexes built for bibliographic strings (`STRING_ROUTE`: Crossref's `query.bibliographic`,
Semantic Scholar). A candidate is taken as the cited work only when its title, its first
author's surname and its year are all found in the string itself (`validated`); then the
claimed fields are read off the string around the title (`fields_around`): the title as
printed, the authors before it, the venue after it, the year as printed. A candidate that does
not pass is never used, and a row no candidate passes stays NOT COVERED (`unsure_reference`):
a miss for a string query proves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from auditor.load.documents.identifiers import find_identifiers
from auditor.load.documents.people import split_authors
from auditor.load.documents.refstring import string_query, strip_label
from auditor.load.documents.venue_part import venue_fields
from auditor.text import normalize_text

__all__ = ["STRING_ROUTE", "fields_around", "string_query", "validated"]

#: The indexes that take a whole reference string as a query.
STRING_ROUTE: tuple[str, ...] = ("crossref_search", "s2")

_WORD_RE = re.compile(r"[^\W_]+")
# (from where a run of these marks starts only: tried inside a long run it costs its square)
_YEAR_TAIL_RE = re.compile(r"(?<![\s.,;:(])[\s.,;:(]*(?:1[5-9]\d\d|20\d\d)[a-z]?[).,;:\s]*$")


def _surname(candidate: Mapping[str, Any]) -> str:
    surnames = candidate.get("surnames") or []
    if surnames:
        return normalize_text(str(surnames[0]))
    authors = [a for a in candidate.get("authors") or [] if a]
    if not authors:
        return ""
    first = str(authors[0])
    return normalize_text(first.split(",", 1)[0] if "," in first else first.split()[-1])


def validated(text: str, candidate: Mapping[str, Any]) -> bool:
    """Whether `candidate`'s title, first author's surname and year are all in `text`."""
    padded = f" {normalize_text(text)} "
    title = normalize_text(candidate.get("title"))
    surname = _surname(candidate)
    year = candidate.get("year")
    if len(title.split()) < 2 or not surname or not year:
        return False
    tokens = set(padded.split())
    return f" {title} " in padded and set(surname.split()) <= tokens and str(year) in tokens


def fields_around(text: str, candidate: Mapping[str, Any]) -> dict[str, Any] | None:
    """The claimed fields read off `text` around `candidate`'s title as printed there; `None`
    when the title cannot be located in the printed characters."""
    words = _WORD_RE.findall(str(candidate.get("title") or ""))
    if not words:
        return None
    pattern = re.compile(r"[\W_]*".join(map(re.escape, words)), re.IGNORECASE)
    _, rest = strip_label(" ".join(text.split()))
    _, rest = find_identifiers(rest)
    m = pattern.search(rest)
    if m is None:
        return None
    authors, et_al = split_authors(_YEAR_TAIL_RE.sub("", rest[: m.start()]).strip(' .,:“"‘'))
    venue = rest[m.end() :].lstrip(' .,”"’?!')
    found = venue_fields(venue)
    return {
        "title": m.group(0),
        "authors": authors,
        "authors_et_al": et_al,
        "year": int(candidate["year"]),
        "container_title": found["container_title"],
        "volume": found["volume"],
        "issue": found["issue"],
        "pages": found["pages"],
    }
