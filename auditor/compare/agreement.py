"""Is this search hit the cited work? Title, authors and year agreement of one candidate.

A search index always answers its top hits, also for a fabricated title, so a hit is taken as
the cited work only when the evidence agrees strongly (criteria auditor/v2, `search_candidate`):

- the titles are the same title (see `auditor.compare.titles`), and the authors do not
  contradict it (some claimed author is in the hit's list, or a side has no authors) or the
  title is long enough (at least `DISTINCT_TITLE_WORDS` words) to name one work by itself; or
- the titles are a near miss (at most two words apart) and the first claimed author is the hit's
  first author, and the years do not contradict it.

The rules of auditor/v2 then compare the chosen hit field by field like any resolved record, so
a hit with the cited title but other authors is found and then differs on its authors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from auditor.compare.forms import title_words
from auditor.compare.text_columns import ET_AL_MARKERS
from auditor.compare.titles import TitleAgreement, compare_titles
from auditor.names import name_keys, register_name_keys
from auditor.text import normalize_text

__all__ = [
    "DISTINCT_TITLE_WORDS",
    "YEAR_TOLERANCE",
    "Agreement",
    "AuthorsAgreement",
    "YearAgreement",
    "agreement",
]

#: A same title of at least this many words names one work even when the authors disagree.
DISTINCT_TITLE_WORDS = 4
#: Years within this many years agree (conference vs. proceedings year, online vs. print).
YEAR_TOLERANCE = 1


class AuthorsAgreement(StrEnum):
    """How a claimed author list relates to a candidate's."""

    SAME = "same"
    """Every claimed author is in the candidate's list and the first authors agree."""
    OVERLAP = "overlap"
    """Some claimed author is in the candidate's list."""
    DIFFERENT = "different"
    """No claimed author is in the candidate's list."""
    UNKNOWN = "unknown"
    """A side has no (named) authors."""


class YearAgreement(StrEnum):
    """How a claimed year relates to a candidate's."""

    SAME = "same"
    NEAR = "near"
    """Within `YEAR_TOLERANCE`."""
    DIFFERENT = "different"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Agreement:
    """Field-by-field agreement of a reference with one search candidate."""

    title: TitleAgreement
    title_score: float
    authors: AuthorsAgreement
    first_author: bool
    year: YearAgreement

    @property
    def strong(self) -> bool:
        """Whether the candidate is taken as the cited work (see the module docstring)."""
        if self.title is TitleAgreement.SAME:
            return self.authors is not AuthorsAgreement.DIFFERENT or self.distinct_title
        if self.title is TitleAgreement.NEAR:
            return self.first_author and self.year is not YearAgreement.DIFFERENT
        return False

    distinct_title: bool = False
    """The claimed title has at least `DISTINCT_TITLE_WORDS` words."""

    @property
    def rank(self) -> tuple[int, int, int, float]:
        """Sort key, larger is better: title, authors, year agreement, then the title score."""
        titles = {TitleAgreement.SAME: 3, TitleAgreement.NEAR: 2, TitleAgreement.DIFFERENT: 1}
        authors = {
            AuthorsAgreement.SAME: 3,
            AuthorsAgreement.OVERLAP: 2,
            AuthorsAgreement.UNKNOWN: 1,
            AuthorsAgreement.DIFFERENT: 0,
        }
        years = {
            YearAgreement.SAME: 3,
            YearAgreement.NEAR: 2,
            YearAgreement.UNKNOWN: 1,
            YearAgreement.DIFFERENT: 0,
        }
        return (
            titles.get(self.title, 0),
            authors[self.authors],
            years[self.year],
            self.title_score,
        )


def _named(authors: Sequence[str | None]) -> list[str]:
    return [a for a in authors if a and normalize_text(a) not in ET_AL_MARKERS]


def _authors(
    claimed: Sequence[str | None],
    candidate: Sequence[str | None],
    candidate_surnames: Sequence[str | None] | None,
) -> tuple[AuthorsAgreement, bool]:
    mine = [name_keys(a) for a in _named(claimed)]
    if candidate_surnames is not None:
        theirs = [register_name_keys(s) for s in candidate_surnames]
    else:
        theirs = [name_keys(a) for a in candidate]
    mine = [k for k in mine if k]
    theirs_nonempty = [k for k in theirs if k]
    if not mine or not theirs_nonempty:
        return AuthorsAgreement.UNKNOWN, False
    first = bool(mine[0] & theirs_nonempty[0])
    pool = list(theirs_nonempty)
    found = 0
    for keys in mine:
        hit = next((i for i, t in enumerate(pool) if keys & t), None)
        if hit is not None:
            found += 1
            pool.pop(hit)
    if found == len(mine) and first:
        return AuthorsAgreement.SAME, first
    if found:
        return AuthorsAgreement.OVERLAP, first
    return AuthorsAgreement.DIFFERENT, first


def _year(claimed: int | None, candidate: int | None) -> YearAgreement:
    if claimed is None or candidate is None:
        return YearAgreement.UNKNOWN
    if claimed == candidate:
        return YearAgreement.SAME
    if abs(claimed - candidate) <= YEAR_TOLERANCE:
        return YearAgreement.NEAR
    return YearAgreement.DIFFERENT


def agreement(
    title: str | None,
    authors: Sequence[str | None],
    year: int | None,
    candidate_title: str | None,
    candidate_authors: Sequence[str | None],
    candidate_year: int | None,
    *,
    candidate_surnames: Sequence[str | None] | None = None,
) -> Agreement:
    """How the claimed (title, authors, year) agree with one candidate record.

    `authors` and `candidate_authors` are names as written (`John Smith`, `Smith, J.`, `Smith J`);
    pass `candidate_surnames` instead when the index gives family names (Crossref `family`).
    Never raises on data: missing fields are `unknown`/`empty`.
    """
    title_agreement, score = compare_titles(title, candidate_title)
    who, first = _authors(authors or (), candidate_authors or (), candidate_surnames)
    distinct = len(title_words(title)) >= DISTINCT_TITLE_WORDS
    return Agreement(
        title=title_agreement,
        title_score=score,
        authors=who,
        first_author=first,
        year=_year(year, candidate_year),
        distinct_title=distinct,
    )
