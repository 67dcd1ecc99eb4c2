"""The field rules of auditor/v2, one row at a time (see `criteria_v2.json` for the reasons).

Each rule is a pure function of one row's claimed and register values and returns the field's
decision: whether it was compared, whether it matches, and the named finding (a reason code)
when it does not. `auditor.compare.v2columns` applies them over whole columns, each distinct
input once, after cheap vectorized checks have settled the rows whose values are plainly equal;
the tests check that the column form and these functions agree row for row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from auditor.compare.agreement import DISTINCT_TITLE_WORDS, YEAR_TOLERANCE
from auditor.compare.noise import is_placeholder_name, venue_holds_citation
from auditor.compare.text_columns import ET_AL_MARKERS
from auditor.compare.titles import NEAR_MISS_MAX_WORDS, TitleAgreement, compare_titles
from auditor.compare.venues import JOURNAL_IDS, is_preprint_venue, venue_agrees, venue_ids
from auditor.errors import Reason
from auditor.names import name_keys, register_name_keys
from auditor.text import normalize_text

__all__ = [
    "ARXIV_LATER_TOLERANCE",
    "REGISTER_TRUNCATION_MIN",
    "SEARCH_ID_TYPE",
    "Field",
    "authors_rule",
    "journal_ref_rule",
    "parameters",
    "title_rule",
    "venue_rule",
    "year_rule",
]

#: A register list of at least this many authors whose every author the citation names in
#: order may be the register's truncation: claimed authors after its end are not a finding.
REGISTER_TRUNCATION_MIN = 10
#: An arXiv record's dates are its versions; a citation may give the year of the published
#: version, up to this many years after the latest arXiv version.
ARXIV_LATER_TOLERANCE = 3
#: The `id_type` the title-search stage gives a row it resolved by a search hit.
SEARCH_ID_TYPE = "title_search"


# Placeholder names a citation generator writes when it has no author (normalized forms).
def parameters() -> dict[str, Any]:
    """The thresholds and tolerances auditor/v2 applies, as its document must name them."""
    return {
        "title_near_miss_max_words": NEAR_MISS_MAX_WORDS,
        "year_tolerance": YEAR_TOLERANCE,
        "arxiv_later_tolerance": ARXIV_LATER_TOLERANCE,
        "register_truncation_min": REGISTER_TRUNCATION_MIN,
        "distinct_title_words": DISTINCT_TITLE_WORDS,
    }


@dataclass(frozen=True)
class Field:
    """One field's decision for one row."""

    compared: bool
    match: bool | None
    """Null when not compared."""
    finding: str | None = None
    """The reason code when the field differs."""
    score: float | None = None


_NOT = Field(False, None)


def title_rule(claimed: str | None, register: str | None) -> Field:
    """Same title (case, punctuation, markup, hyphenation, trailing subtitle, spelling aside),
    else a near miss (at most two words apart) or a different title. No claimed title at all
    (`None`: a citation by identifier alone, decision `cited_by_identifier`) is not compared."""
    if claimed is None:
        return _NOT
    agreement, score = compare_titles(claimed, register)
    if agreement is TitleAgreement.EMPTY:
        has_either = bool(normalize_text(claimed) or normalize_text(register))
        return Field(True, False, Reason.TITLE_EMPTY, 0.0 if has_either else None)
    if agreement is TitleAgreement.SAME:
        return Field(True, True, None, score)
    if agreement is TitleAgreement.NEAR:
        return Field(True, False, Reason.TITLE_NEAR_MISS, score)
    return Field(True, False, Reason.TITLE_DIFFERS, score)


def _is_placeholder(name: str) -> bool:
    return is_placeholder_name(name)


def _match_positions(mine: list[frozenset[str]], theirs: list[frozenset[str]]) -> list[int | None]:
    """For each claimed author, the register position it names (each used once), or `None`.

    Same position first, then the first unused position: so a reordered list is seen as one.
    """
    used: set[int] = set()
    out: list[int | None] = [None] * len(mine)
    for i, keys in enumerate(mine):
        if i < len(theirs) and keys & theirs[i]:
            out[i] = i
            used.add(i)
    for i, keys in enumerate(mine):
        if out[i] is None:
            j = next((j for j, t in enumerate(theirs) if j not in used and keys & t), None)
            if j is not None:
                out[i] = j
                used.add(j)
    return out


def authors_rule(
    claimed: Sequence[str | None] | None,
    et_al: bool | None,
    register_surnames: Sequence[str | None] | None,
) -> Field:
    """The claimed list against the register's whole list (name forms never differ alone).

    Findings, first that applies: a placeholder name (`authors_placeholder`, also `et al.` as the
    only author); a first author the register does not have first (`authors_first_differs`); a
    claimed author the register lacks (`authors_not_in_register`); the register's authors in
    another order (`authors_reordered`); fewer authors than the register without `and others`
    (`authors_truncated`); with `and others`, a register author skipped between two named ones
    (`authors_middle_missing`). A register without named authors cannot contradict: not compared.
    """
    entries = [a for a in (claimed or []) if a and a.strip()]
    named = [a for a in entries if normalize_text(a) not in ET_AL_MARKERS]
    marked = bool(et_al) or len(named) < len(entries)
    theirs = [k for k in (register_name_keys(s) for s in (register_surnames or [])) if k]
    if not named and not marked:
        return _NOT
    if not theirs:
        return _NOT
    mine = [name_keys(a) for a in named]
    # A placeholder is a name no register author has (a real author may be called Doe).
    if not named or any(
        _is_placeholder(a) and not any(k & t for t in theirs)
        for a, k in zip(named, mine, strict=True)
    ):
        return Field(True, False, Reason.AUTHORS_PLACEHOLDER)
    where = _match_positions(mine, theirs)
    truncation = len(theirs) >= REGISTER_TRUNCATION_MIN and all(
        where[i] == i for i in range(len(theirs)) if i < len(where)
    )
    missing = [i for i, w in enumerate(where) if w is None]
    if truncation:
        missing = [i for i in missing if i < len(theirs)]
    if where[0] is None or (where[0] != 0 and missing):
        return Field(True, False, Reason.AUTHORS_FIRST_DIFFERS)
    if missing:
        return Field(True, False, Reason.AUTHORS_NOT_IN_REGISTER)
    return _order_rule([w for w in where if w is not None], len(theirs), marked)


def _order_rule(order: list[int], register_count: int, marked: bool) -> Field:
    """The findings of a list whose every claimed author is the register's: `order` holds the
    register position of each, `marked` whether the list says `and others`."""
    if order != sorted(order):
        return Field(True, False, Reason.AUTHORS_REORDERED)
    # Cutting a list after its first authors is how citations (and some registers) shorten
    # lists; a list that drops authors from inside it is not that.
    gapped = order != list(range(len(order)))
    if len(order) < register_count and not marked and gapped:
        return Field(True, False, Reason.AUTHORS_TRUNCATED)
    # `and others` stands for the authors after the last one named, not for one between two.
    if marked and gapped:
        return Field(True, False, Reason.AUTHORS_MIDDLE_MISSING)
    return Field(True, True)


def year_rule(
    claimed: int | None,
    register_years: Sequence[int | None],
    current_year: int,
    *,
    arxiv: bool = False,
) -> Field:
    """A year after the current one the register does not hold is `year_future`; a year off
    from every date the register holds by more than `YEAR_TOLERANCE` is `year_differs` (for an
    arXiv record, whose dates are its versions: earlier than the first version by more than the
    tolerance, or later than the latest by more than `ARXIV_LATER_TOLERANCE`)."""
    if claimed is None:
        return _NOT
    years = sorted({y for y in register_years if y is not None})
    if claimed > current_year and claimed not in years:
        return Field(True, False, Reason.YEAR_FUTURE)
    if not years:
        return _NOT
    if arxiv:
        ok = years[0] - YEAR_TOLERANCE <= claimed <= years[-1] + ARXIV_LATER_TOLERANCE
        return Field(True, ok, None if ok else Reason.ARXIV_YEAR_CONTRADICTED)
    ok = any(abs(claimed - y) <= YEAR_TOLERANCE for y in years)
    return Field(True, ok, None if ok else Reason.YEAR_DIFFERS)


_ARXIV_VERSION = re.compile(r"v(\d+)\s*$", re.IGNORECASE)


def arxiv_version_rule(cited_id: str | None, latest_version: int | None) -> Field:
    """A cited arXiv version the register's history does not have (`v5` of a 2-version paper)."""
    if not cited_id or latest_version is None:
        return _NOT
    match = _ARXIV_VERSION.search(cited_id)
    if match is None:
        return _NOT
    ok = int(match.group(1)) <= latest_version
    return Field(True, ok, None if ok else Reason.ARXIV_VERSION_UNKNOWN)


def venue_rule(
    claimed: str | None,
    register: str | None,
    *,
    register_is_preprint: bool,
    by_title: bool,
) -> Field:
    """The claimed journal/booktitle against the register's venue.

    A claimed preprint venue is not compared (citing the preprint of a published work is not
    wrong). A reference found by title search whose only record is a preprint, but which claims
    a journal or proceedings, is `preprint_as_published`. A record found by identifier that is a
    preprint is not compared: the arXiv record may not name the published version. Otherwise a
    venue the register's does not agree with is `venue_differs`; a register without a venue
    cannot contradict. A claimed venue that holds a whole citation (`venue_holds_citation`) is
    `venue_is_citation`, whatever the register says.
    """
    if not claimed or not claimed.strip():
        return _NOT
    if venue_holds_citation(claimed):  # a generated entry's whole citation is no venue (#25)
        return Field(True, False, Reason.VENUE_IS_CITATION)
    if is_preprint_venue(claimed):
        return _NOT
    if register_is_preprint or is_preprint_venue(register):
        if by_title:
            return Field(True, False, Reason.PREPRINT_AS_PUBLISHED)
        return _NOT
    agrees = venue_agrees(claimed, register)
    if agrees is None:
        return _NOT
    return Field(True, agrees, None if agrees else Reason.VENUE_DIFFERS)


#: Words by which an arXiv `journal_ref` names no settled venue of the work: a workshop, a
#: submission, another version, an abstract; such a note says nothing against a citation.
_UNSETTLED_REF = re.compile(
    r"\b(workshops?|submitted|under review|in review|extended|abstracts?|versions?|companion|"
    r"satellite|tutorials?|preprint|poster session|pages?|pp|figures?|tables?|comments?)\b",
    re.IGNORECASE,
)


def journal_ref_rule(claimed: str | None, journal_ref: str | None) -> Field:
    """The claimed journal/booktitle against an arXiv record's `journal_ref` (the authors' own
    note of where the work appeared).

    Compared only when the citation names a venue that is not a preprint server and the record
    has a `journal_ref` that names a settled venue: none (a preprint later published is common),
    a workshop, a submission, another version or a page count is no evidence. Two known venues
    are compared by identity, but a journal against a conference (or the reverse) is not: the
    arXiv id of a conference paper often carries on to its extended journal version. A known
    venue against a string the venue table does not know is not compared (`PMLR 97` is ICML's
    series); two unknown strings are compared by `venue_agrees`.
    """
    if not claimed or not claimed.strip() or is_preprint_venue(claimed):
        return _NOT
    if not journal_ref or is_preprint_venue(journal_ref) or _UNSETTLED_REF.search(journal_ref):
        return _NOT
    ids_c, ids_r = venue_ids(claimed), venue_ids(journal_ref)
    if bool(ids_c) != bool(ids_r):
        # A known venue against a string the table does not know (`PMLR 97:1-10` for ICML): a
        # note in the authors' own words cannot contradict it.
        return _NOT
    if ids_c and bool(ids_c & JOURNAL_IDS) != bool(ids_r & JOURNAL_IDS):
        return _NOT
    agrees = venue_agrees(claimed, journal_ref)
    if agrees is None:
        return _NOT
    return Field(True, agrees, None if agrees else Reason.VENUE_DIFFERS)


def is_preprint_record(register: str | None, work_type: str | None, venue: str | None) -> bool:
    """An arXiv record, a Crossref `posted-content` (preprint) record, or a preprint venue."""
    return (
        register == "arxiv"
        or (work_type or "").lower() in {"posted-content", "preprint"}
        or is_preprint_venue(venue)
    )
