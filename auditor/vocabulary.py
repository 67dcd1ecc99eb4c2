"""The closed vocabularies of a run: criteria ids, verdicts, row states, identifier types,
record statuses, tiers and update relations, and which register answers each identifier type.

Plain strings and `StrEnum`s with no Arrow in them, so the command line (its flags, choices and
help) can name them without importing pyarrow; `auditor.tables` re-exports every name beside the
schemas whose columns hold these values.
"""

from __future__ import annotations

from enum import StrEnum

#: The published criteria, implemented literally (rules, decisions and known issues of v1).
CRITERIA_V1 = "reference-resolution/v1"
#: Our criteria: v1's vocabulary with the rules v1 lacks (see `auditor criteria --id auditor/v2`).
CRITERIA_V2 = "auditor/v2"
#: Every criteria id `--criteria` accepts.
CRITERIA_IDS: tuple[str, ...] = (CRITERIA_V1, CRITERIA_V2)
#: The criteria `auditor audit` and `auditor check` apply unless told otherwise.
DEFAULT_CRITERIA = CRITERIA_V2


class Verdict(StrEnum):
    """The four verdicts of the criteria, spelled as the criteria spell them."""

    MATCHES = "RESOLVES-AND-MATCHES"
    DIFFERS = "RESOLVES-BUT-DIFFERS"
    DOES_NOT_RESOLVE = "DOES-NOT-RESOLVE"
    NOT_COVERED = "NOT COVERED"


class RowState(StrEnum):
    """The states that are not verdicts of the criteria and are never counted as one."""

    UNCHECKED = "UNCHECKED"
    INVALID = "INVALID"
    NOT_FOUND = "NOT FOUND"
    """A title search asked its indexes and none holds a work matching the reference (a
    finding; never DOES-NOT-RESOLVE, which is a register's "no such record" for an identifier)."""


#: Everything that may stand in the `verdict` column, verdicts first.
OUTCOMES: tuple[str, ...] = (*(v.value for v in Verdict), *(s.value for s in RowState))


class IdType(StrEnum):
    """Identifier types the criteria cover."""

    DOI = "doi"
    PMID = "pmid"
    ARXIV = "arxiv"


#: The `id_type` of the cached prefix → agency rows (`registers/agencies.py`): never a
#: reference's identifier type, so never joined to one (a snapshot export leaves them out).
PREFIX_ID_TYPE = "doi_prefix"


class RecordStatus(StrEnum):
    """What a register said about one identifier."""

    FOUND = "found"
    NOT_FOUND = "not_found"
    UNREACHABLE = "unreachable"
    NOT_COVERED = "not_covered"


class Tier(StrEnum):
    """Where a record came from, disclosed in every report."""

    SNAPSHOT = "snapshot"
    CACHE = "cache"
    LIVE = "live"


#: The register that answers each identifier type (named, for example, in `sources_tried` or a
#: failed lookup's row, when no record says which register answered).
REGISTER_FOR_ID_TYPE: dict[str, str] = {
    IdType.DOI: "crossref",
    IdType.PMID: "pubmed",
    IdType.ARXIV: "arxiv",
}


class UpdateRelation(StrEnum):
    """Which way an update points, seen from the record it was read from."""

    UPDATED_BY = "updated_by"
    """The cited work received the update (a retraction notice names it)."""
    UPDATE_TO = "update_to"
    """The record is itself the notice: it updates (retracts, corrects) another work."""
