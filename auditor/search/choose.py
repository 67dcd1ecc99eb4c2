"""Which search hit, if any, is the cited work (criteria auditor/v2 `search_candidate`).

The evidence rule itself is `auditor.compare.agreement` (title, authors and year agreement of
one candidate). This module picks among an index's hits: the strongest agreeing candidate, and
among equals the one whose venue kind matches the claim (a journal or proceedings claim prefers
the published record to a preprint of it, a preprint claim the preprint), so a work that exists
only as a preprint is found as that preprint and the comparison can say so. A hit is
*confident*, and stops the search, when title, authors and year all agree fully.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from auditor.compare.agreement import Agreement, AuthorsAgreement, YearAgreement, agreement
from auditor.compare.titles import TitleAgreement
from auditor.registers.interface import RecordRow

#: Near candidates shown in the report for a row that ends NOT FOUND.
NEAREST = 3

_PREPRINT = re.compile(r"\b(arxiv|corr|biorxiv|medrxiv|preprint|ssrn)\b", re.I)


@dataclass(frozen=True)
class Choice:
    """One candidate and how the reference agrees with it."""

    candidate: RecordRow
    agreement: Agreement
    venue_fit: int
    """1 when the candidate's venue kind (preprint or not) is the claim's, else 0."""

    @property
    def strong(self) -> bool:
        """Whether the candidate is taken as the cited work."""
        return self.agreement.strong

    @property
    def confident(self) -> bool:
        """Title, authors and year agree fully: no other index needs asking."""
        a = self.agreement
        return (
            a.strong
            and a.title is TitleAgreement.SAME
            and a.authors in (AuthorsAgreement.SAME, AuthorsAgreement.UNKNOWN)
            and a.year in (YearAgreement.SAME, YearAgreement.UNKNOWN)
            and bool(self.venue_fit)
        )

    @property
    def rank(self) -> tuple[Any, ...]:
        """Sort key, larger is better."""
        title, authors, year, score = self.agreement.rank
        return (self.agreement.strong, title, authors, year, self.venue_fit, score)


def _is_preprint(venue: str | None) -> bool:
    return bool(venue and _PREPRINT.search(venue))


def assess(reference: dict[str, Any], candidate: RecordRow) -> Choice:
    """How `reference` (a `REFERENCES` row) agrees with one candidate row."""
    found = agreement(
        reference.get("title"),
        reference.get("authors") or [],
        reference.get("year"),
        candidate.get("title"),
        candidate.get("authors") or [],
        candidate.get("year"),
        candidate_surnames=candidate.get("surnames") or None,
    )
    fit = _is_preprint(reference.get("container_title")) == _is_preprint(
        candidate.get("container_title")
    )
    return Choice(candidate, found, int(fit))


def ranked(reference: dict[str, Any], candidates: Sequence[RecordRow]) -> list[Choice]:
    """Every candidate assessed, best first (ties keep the index's order)."""
    choices = [assess(reference, c) for c in candidates]
    return sorted(choices, key=lambda c: c.rank, reverse=True)


def describe(candidate: RecordRow) -> str:
    """One line naming a near candidate: `Title — First Author et al. (Year), Venue [index]`."""
    authors = [a for a in candidate.get("authors") or [] if a]
    who = (authors[0] + (" et al." if len(authors) > 1 else "")) if authors else "no authors"
    year = candidate.get("year")
    venue = candidate.get("container_title")
    tail = f" ({year})" if year else ""
    tail += f", {venue}" if venue else ""
    return f"{candidate.get('title') or '(no title)'} — {who}{tail} [{candidate.get('register')}]"
