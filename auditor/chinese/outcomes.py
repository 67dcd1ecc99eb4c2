"""The closed outcome set of the Chinese waterfall and what each outcome means downstream.

One `Outcome` per gated row: its `status` / `queried_by` (the protocol's three-state vocabulary),
its contribution (true / false / unresolvable / excluded), the verdict it maps to in our vocabulary
and the checklist priority. A failure to look is not an outcome: it is `UNCHECKED` with a `Reason`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import quote

import pyarrow as pa

from auditor.tables import Verdict


class Outcome(StrEnum):
    """Closed reason-code set of `spec/chinese-literature-cases.md`, spelled as there."""

    DOI_TITLE_VERIFIED = "DOI_TITLE_VERIFIED"
    PUBMED_COORDINATE_VERIFIED = "PUBMED_COORDINATE_VERIFIED"
    DOI_REFUTED = "DOI_REFUTED"
    DOI_TITLE_MISMATCH = "DOI_TITLE_MISMATCH"
    PUBMED_INDEXED_BUT_COORDINATE_MISS = "PUBMED_INDEXED_BUT_COORDINATE_MISS"
    PUBMED_COORDINATE_AMBIGUOUS = "PUBMED_COORDINATE_AMBIGUOUS"
    DOI_EXISTS_TITLE_UNVERIFIABLE = "DOI_EXISTS_TITLE_UNVERIFIABLE"
    DOI_RA_UNRESOLVED = "DOI_RA_UNRESOLVED"
    PUBMED_COORDINATE_CANDIDATE_UNVERIFIED = "PUBMED_COORDINATE_CANDIDATE_UNVERIFIED"
    INSUFFICIENT_PUBMED_COORDINATES = "INSUFFICIENT_PUBMED_COORDINATES"
    JOURNAL_NOT_INDEXED = "JOURNAL_NOT_INDEXED"
    NO_ISSN_MAPPING = "NO_ISSN_MAPPING"
    DOI_RA_OUT_OF_SCOPE = "DOI_RA_OUT_OF_SCOPE"
    NOT_CHINESE_LITERATURE = "NOT_CHINESE_LITERATURE"


class Status(StrEnum):
    """The protocol's three states, plus `unchecked` for a failure to look (never a verdict)."""

    MATCHED = "matched"
    UNMATCHED = "unmatched"
    SKIPPED = "skipped"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class OutcomeInfo:
    """The fixed consequences of one outcome (one row of the cases document's table)."""

    status: Status
    queried_by: str | None
    """`id`, `title` (the coordinate query borrows it, as the protocol says) or `None`."""
    contribution: str
    """`true`, `false`, `unresolvable` or `excluded`."""
    priority: str | None
    """`P0` … `P3`, or `None` when no checklist item is due."""


#: `RowOutcome.give_up` reasons that leave a row NOT COVERED rather than UNCHECKED.
NOT_COVERED_REASONS: frozenset[str | None] = frozenset({"leg_closed", "not_indexed_type"})

_M, _U, _S = Status.MATCHED, Status.UNMATCHED, Status.SKIPPED

INFO: dict[Outcome, OutcomeInfo] = {
    Outcome.DOI_TITLE_VERIFIED: OutcomeInfo(_M, "id", "true", None),
    Outcome.PUBMED_COORDINATE_VERIFIED: OutcomeInfo(_M, "title", "true", None),
    Outcome.DOI_REFUTED: OutcomeInfo(_U, "id", "false", "P0"),
    Outcome.DOI_TITLE_MISMATCH: OutcomeInfo(_U, "id", "false", "P0"),
    Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS: OutcomeInfo(_U, "title", "unresolvable", "P1"),
    Outcome.PUBMED_COORDINATE_AMBIGUOUS: OutcomeInfo(_U, "title", "unresolvable", "P1"),
    Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE: OutcomeInfo(_U, "title", "unresolvable", "P2"),
    Outcome.DOI_RA_UNRESOLVED: OutcomeInfo(_S, None, "excluded", "P2"),
    Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED: OutcomeInfo(_U, "title", "unresolvable", "P2"),
    Outcome.INSUFFICIENT_PUBMED_COORDINATES: OutcomeInfo(_S, None, "excluded", "P3"),
    Outcome.JOURNAL_NOT_INDEXED: OutcomeInfo(_S, None, "excluded", "P3"),
    Outcome.NO_ISSN_MAPPING: OutcomeInfo(_S, None, "excluded", "P3"),
    Outcome.DOI_RA_OUT_OF_SCOPE: OutcomeInfo(_S, None, "excluded", "P3"),
    Outcome.NOT_CHINESE_LITERATURE: OutcomeInfo(_S, None, "excluded", None),
}


def verdict_for(outcome: Outcome) -> str:
    """The verdict an outcome maps to: true → matches, mismatch → differs, refuted → does not
    resolve, everything else NOT COVERED (a coordinate miss is never DOES-NOT-RESOLVE)."""
    if INFO[outcome].contribution == "true":
        return Verdict.MATCHES.value
    if outcome is Outcome.DOI_TITLE_MISMATCH:
        return Verdict.DIFFERS.value
    if outcome is Outcome.DOI_REFUTED:
        return Verdict.DOES_NOT_RESOLVE.value
    return Verdict.NOT_COVERED.value


#: What each item asks the person to do, by outcome; P1–P3 never suggest fabrication.
_ASK: dict[Outcome, str] = {
    Outcome.DOI_REFUTED: "The DOI does not exist in the DOI system (content negotiation and the "
    "Handle system both say absent): possibly fabricated. Confirm by opening the DOI link.",
    Outcome.DOI_TITLE_MISMATCH: "The DOI exists but its registered Chinese title differs from the "
    "cited one: possibly a chimeric or fabricated citation. Compare the titles.",
    Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS: "The journal is indexed in PubMed but no record "
    "has the cited volume and first page (or author and year). Pending human check: verify the "
    "coordinates in the journal's own table of contents.",
    Outcome.PUBMED_COORDINATE_AMBIGUOUS: "Several PubMed records share the cited coordinates; "
    "none was picked. Pending human check: identify the cited article.",
    Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE: "The DOI exists, but no machine-readable title "
    "comparable with the cited one was obtainable. Pending human check: open the DOI link and "
    "compare the title.",
    Outcome.DOI_RA_UNRESOLVED: "The DOI system gave no registration agency for this DOI prefix. "
    "Pending human check: open the DOI link.",
    Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED: "One PubMed record has the cited coordinates, "
    "but its Chinese title could not be confirmed. Pending human check: compare the candidate.",
    Outcome.INSUFFICIENT_PUBMED_COORDINATES: "No usable volume and first page, or first author "
    "and year, to look the article up. Pending human check.",
    Outcome.JOURNAL_NOT_INDEXED: "The journal has no PubMed records, so no open index could "
    "check this reference. Pending human check.",
    Outcome.NO_ISSN_MAPPING: "The journal is not in the journal bridge table (a gap in our table, "
    "not evidence about the reference). Pending human check.",
    Outcome.DOI_RA_OUT_OF_SCOPE: "The DOI is registered with an agency outside this waterfall "
    "(its own register covers it). Pending human check if that register did not confirm it.",
}


def item_text(outcome: Outcome) -> str:
    """The checklist wording for `outcome`: fabrication wording only at P0."""
    return _ASK[outcome]


@dataclass
class RowOutcome:
    """What the waterfall concluded for one gated row (or why it could not look)."""

    row_id: int
    outcome: Outcome | None = None
    """`None` while undecided and when the row is `UNCHECKED`."""
    unchecked: str | None = None
    """A `Reason` code (or `ncbi_email_missing`) when a failure to look stopped the row."""
    message: str | None = None
    agency: str | None = None
    doi: str | None = None
    candidate_pmid: str | None = None
    candidate_doi: str | None = None
    register_title: str | None = None
    attempts: list[str] = field(default_factory=list)
    """One line per request made on this row's behalf, in order."""
    links: list[str] = field(default_factory=list)
    stored_tier: str | None = None
    """`snapshot`/`cache` when the outcome rests on a stored answer and no live request."""
    stored_at: str | None = None
    """The as-of time of that stored answer."""

    def decide(self, outcome: Outcome) -> None:
        """Record the outcome, unless an earlier step already decided or gave up."""
        if self.outcome is None and self.unchecked is None:
            self.outcome = outcome

    def give_up(self, reason: str, message: str) -> None:
        """Mark the row `UNCHECKED` (a failure to look) unless already decided."""
        if self.outcome is None and self.unchecked is None:
            self.unchecked, self.message = reason, message

    @property
    def not_covered(self) -> bool:
        """Stopped for a cause that is no failure to look (the user closed the leg, or the work
        is of a type no index holds): NOT COVERED with that reason, not UNCHECKED."""
        return self.outcome is None and self.unchecked in NOT_COVERED_REASONS

    @property
    def open(self) -> bool:
        """Neither decided nor given up."""
        return self.outcome is None and self.unchecked is None


OUTCOMES = pa.schema(
    [
        pa.field("row_id", pa.int64(), nullable=False),
        pa.field("key", pa.string()),
        pa.field("status", pa.string(), nullable=False),  # see `Status`
        pa.field("reason_code", pa.string(), nullable=False),  # `Outcome` or a `Reason` code
        pa.field("queried_by", pa.string()),  # id | title | null
        pa.field("contribution", pa.string()),  # true | false | unresolvable | excluded | null
        pa.field("verdict", pa.string(), nullable=False),  # what the verdicts table now says
        pa.field("priority", pa.string()),
        pa.field("agency", pa.string()),  # DOI registration agency of the cited DOI
        pa.field("doi", pa.string()),
        pa.field("candidate_pmid", pa.string()),
        pa.field("candidate_doi", pa.string()),
        pa.field("register_title", pa.string()),  # the CSL title compared, when one was obtained
        pa.field("attempts", pa.list_(pa.string())),
        pa.field("message", pa.string()),
    ]
)
"""Schema of `WaterfallResult.outcomes`: one row per row the Stage 0 gate admitted."""


def outcome_row(row: RowOutcome, key: str | None) -> dict[str, Any]:
    """The `OUTCOMES` row of `row`."""
    if row.not_covered:
        status, code, qb, contribution, priority = (
            Status.SKIPPED.value,
            row.unchecked or "",
            None,
            "excluded",
            None,
        )
        verdict = Verdict.NOT_COVERED.value
    elif row.outcome is None:
        status, code, qb, contribution, priority = (
            Status.UNCHECKED.value,
            row.unchecked or "unchecked",
            None,
            None,
            None,
        )
        verdict = "UNCHECKED"
    else:
        info = INFO[row.outcome]
        status, code, qb = info.status.value, row.outcome.value, info.queried_by
        contribution, priority, verdict = info.contribution, info.priority, verdict_for(row.outcome)
    return {
        "row_id": row.row_id,
        "key": key,
        "status": status,
        "reason_code": code,
        "queried_by": qb,
        "contribution": contribution,
        "verdict": verdict,
        "priority": priority,
        "agency": row.agency,
        "doi": row.doi,
        "candidate_pmid": row.candidate_pmid,
        "candidate_doi": row.candidate_doi,
        "register_title": row.register_title,
        "attempts": list(row.attempts),
        "message": row.message,
    }


def doi_link(doi: str) -> str:
    """The public doi.org page of `doi`, percent-encoded."""
    return "https://doi.org/" + quote(doi, safe="/:;()-._")


def pubmed_link(pmid: str) -> str:
    """The public PubMed page of `pmid`."""
    return f"https://pubmed.ncbi.nlm.nih.gov/{quote(pmid, safe='')}/"


def pubmed_search_link(term: str) -> str:
    """A public PubMed search for `term`."""
    return "https://pubmed.ncbi.nlm.nih.gov/?term=" + quote(term, safe="")


def nlm_catalog_link(nlm_id: str) -> str:
    """The public NLM Catalog record of a journal."""
    return f"https://www.ncbi.nlm.nih.gov/nlmcatalog/{quote(nlm_id, safe='')}"
