"""How the reports word reason codes and verdicts for people (codes stay in the data columns)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["VERDICT_HELP", "reason_text", "update_text"]

#: One line per verdict or state, shown in the HTML legend and the console.
VERDICT_HELP: dict[str, str] = {
    "RESOLVES-AND-MATCHES": "The register holds the work and title, authors and year agree.",
    "RESOLVES-BUT-DIFFERS": "The register holds a record, but a cited field differs from it.",
    "DOES-NOT-RESOLVE": "The register answered that it holds no record for the identifier.",
    "NOT COVERED": "No covered register checks this entry (no identifier, or a closed leg).",
    "UNCHECKED": "The register could not be consulted; this is not a verdict. Re-run later.",
    "INVALID": "The entry itself cannot be checked as written; this is not a verdict.",
    "NOT FOUND": "A title search asked the indexes and none holds a work matching the entry.",
}

_REASONS: dict[str, str] = {
    "parse_error": "the entry could not be parsed",
    "missing_title": "the entry has no title",
    "missing_entry": "cited in the manuscript, but no bibliography holds this key",
    "type_contradiction": "the declared identifier type contradicts the identifier",
    "unsupported_type": "the identifier type is not covered",
    "unrecognized_id": "the identifier has no covered form",
    "no_identifier": "the entry has no DOI, PMID or arXiv id",
    "leg_closed": "this register's leg is closed by configuration",
    "not_indexed_type": "a kind of work (book, thesis, report, web page, …) no index holds",
    "unsure_reference": "a reference string whose title and authors could not be told apart, "
    "and no search hit whose title, first author and year are in it",
    "unreadable_reference": "the printed reference could not be read reliably enough to judge "
    "it: the fields that differ were guessed from its layout",
    "no_index_match": "no index asked holds a work matching the title, authors and year",
    "not_found": "the register has no such record",
    "not_in_crossref": "Crossref has no such record",
    "not_in_datacite": "DataCite has no such record",
    "not_in_openalex": "OpenAlex has no such record",
    "no_csl": "the agency serves no CSL-JSON metadata for it",
    "timeout": "the register timed out",
    "connection_error": "the register could not be reached",
    "http_5xx": "the register answered with a server error",
    "http_4xx": "the register refused the request",
    "rate_limited": "the register kept rate-limiting the requests",
    "malformed_body": "the register's answer was malformed",
    "wrong_echo": "the register answered about another identifier",
    "body_too_large": "the register's answer was too large",
    "unsafe_redirect": "a redirect was refused by the safety policy",
    "offline": "offline, and no snapshot or cached record",
    "ncbi_email_missing": "no NCBI contact email is configured",
    "not_looked_up": "the identifier was not looked up",
    "title_differs": "the title differs",
    "title_empty": "a title is empty",
    "authors_differ": "the authors differ",
    "year_differs": "the year differs",
    "title_near_miss": "the title is one or two words off the register's",
    "authors_placeholder": "an author is a placeholder name",
    "authors_first_differs": "the first author differs",
    "authors_not_in_register": "a cited author is not among the register's",
    "authors_reordered": "the authors are in another order",
    "authors_truncated": "the author list is cut without 'and others'",
    "authors_middle_missing": "the author list skips an author before its 'and others'",
    "venue_differs": "the journal or proceedings differs",
    "venue_is_citation": "the journal or proceedings field holds a whole citation",
    "preprint_as_published": "cited as published, found only as a preprint",
    "year_future": "the year is in the future",
    "arxiv_year_contradicted": "the year contradicts the arXiv version history",
    "arxiv_version_unknown": "the cited arXiv version does not exist",
    "duplicate_reference": "the same work is cited under another key",
    "work_retracted": "the cited work was retracted, withdrawn or removed",
    "work_under_concern": "the cited work carries an expression of concern or partial retraction",
    "work_corrected": "the cited work was corrected or superseded",
    "cited_update_notice": "the identifier is a retraction or correction notice, not the work",
    # Chinese waterfall outcomes (spec/chinese-literature-cases.md)
    "DOI_TITLE_VERIFIED": "the DOI's registered title matches",
    "PUBMED_COORDINATE_VERIFIED": "found in PubMed by journal, volume and page",
    "DOI_REFUTED": "the DOI system and Handle both report no such DOI",
    "DOI_TITLE_MISMATCH": "the DOI's registered Chinese title differs",
    "PUBMED_INDEXED_BUT_COORDINATE_MISS": "indexed journal, no PubMed article at these coordinates",
    "PUBMED_COORDINATE_AMBIGUOUS": "several PubMed articles at these coordinates",
    "DOI_EXISTS_TITLE_UNVERIFIABLE": "the DOI exists; its title could not be compared",
    "DOI_RA_UNRESOLVED": "the DOI's registration agency is unknown",
    "PUBMED_COORDINATE_CANDIDATE_UNVERIFIED": "a PubMed candidate could not be confirmed",
    "INSUFFICIENT_PUBMED_COORDINATES": "too few journal coordinates to search PubMed",
    "JOURNAL_NOT_INDEXED": "the journal is not indexed in PubMed",
    "NO_ISSN_MAPPING": "the journal is not in the journal bridge",
    "DOI_RA_OUT_OF_SCOPE": "the DOI's agency is checked by another leg",
}


def reason_text(code: str | None) -> str:
    """A short phrase for a reason code; unknown codes (e.g. waterfall outcomes) as given."""
    if not code:
        return ""
    if code.startswith("registered_with_"):
        agency = code.removeprefix("registered_with_").upper()
        # Reached only when the agency's metadata could not be read for comparison.
        return f"registered with {agency}, which serves no metadata to compare"
    return _REASONS.get(code, code)


def update_text(update: Mapping[str, Any]) -> str:
    """One update as a short line: `retraction 2020-01-30 doi:10.x/y (publisher)`.

    `update_to` entries (the record is itself the notice) read `notice of: …`.
    """
    kind = str(update.get("type") or "update")
    parts = [f"notice of {kind}" if update.get("relation") == "update_to" else kind]
    if update.get("date"):
        parts.append(str(update["date"]))
    if update.get("doi"):
        parts.append(f"doi:{update['doi']}")
    if update.get("pmid"):
        parts.append(f"pmid:{update['pmid']}")
    if update.get("source"):
        parts.append(f"({update['source']})")
    return " ".join(parts)
