"""The placeholders and noise generated entries carry, recognised so they are never matched.

- `is_placeholder_name`: an author that is no one: `John Doe`, `Firstname Lastname`,
  `Author 1`, `Name1 Surname1`, or a single letter (`X`). auditor/v2's author rule reads such a
  name as `authors_placeholder` unless the register has an author of that name (a real Doe).
- `venue_holds_citation`: a `booktitle`/`journal` holding a whole citation (`Vaswani, A. and
  Shazeer, N. Attention is all you need. In Advances in …, pages 5998--6008, 2017`): it names
  authors (`Surname, I.`, `et al.`) and also a year, pages or an `. In …` clause, or it has both
  pages and an `. In …` clause. auditor/v2's venue rule reads it as `venue_is_citation`, never as
  the register's venue.

Measured before shipping (#25) on the real venues and author names of `shared/realdata` bibs and
HALLMARK dev: no real venue and no real author was caught (see the criteria's `known_issues`).
"""

from __future__ import annotations

import re

from auditor.text import normalize_text

__all__ = ["PLACEHOLDER_NAMES", "is_placeholder_name", "venue_holds_citation"]

#: Author names that name no one (normalized: lower case, punctuation as spaces).
PLACEHOLDER_NAMES = frozenset(
    {
        "john doe", "jane doe", "j doe", "doe j", "doe john", "doe jane",
        "author name", "author", "authors", "first author", "second author", "a author",
        "author a", "anonymous", "anon", "unknown", "unknown author", "firstname lastname",
        "first last", "lastname firstname", "name surname", "surname name", "your name",
        "author one", "author two", "et al", "n a", "na", "tbd", "todo", "xxx",
    }
)  # fmt: skip
_PLACEHOLDER_WORD = r"(?:author|name|surname|firstname|lastname|first|last|given|family)\s*\d*"
_NUMBERED = re.compile(rf"^{_PLACEHOLDER_WORD}(?:\s+{_PLACEHOLDER_WORD})?$")
_DIGIT = re.compile(r"\d")

_CITED_AUTHORS = re.compile(
    r"\b[A-Z][A-Za-z'\-]+,\s+(?:[A-Z]\.\s*)+(?:,|and\b|&)|\bet al\b\.?"
    r"|\b[A-Z]\.\s*[A-Z][a-z]+,\s+[A-Z]\.\s*[A-Z][a-z]+"
)
_PAGES = re.compile(r"\b(?:pp?\.|pages)\s*\d+\s*[-\u2010-\u2015]+\s*\d+", re.I)
_IN_CLAUSE = re.compile(r"[.,]\s+In:?\s+[A-Z]")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def is_placeholder_name(name: str) -> bool:
    """Whether `name` (one author as written) is a placeholder rather than a person's name."""
    text = normalize_text(name.replace(",", " "))
    if text in PLACEHOLDER_NAMES:
        return True
    letters = text.replace(" ", "")
    if len(letters) == 1 and letters.isascii() and letters.isalpha():
        return True  # `X`: a single Latin letter names no one
    return bool(_DIGIT.search(text)) and bool(_NUMBERED.match(text))


def venue_holds_citation(venue: str | None) -> bool:
    """Whether a claimed venue is a whole citation rather than the name of a venue."""
    if not venue:
        return False
    pages, clause = bool(_PAGES.search(venue)), bool(_IN_CLAUSE.search(venue))
    if _CITED_AUTHORS.search(venue):
        return pages or clause or bool(_YEAR.search(venue))
    return pages and clause
