"""How the reports word reason codes and verdicts for people (codes stay in the data columns)."""

from __future__ import annotations

__all__ = ["VERDICT_HELP", "reason_text"]

#: One line per verdict or state, shown in the HTML legend and the console.
VERDICT_HELP: dict[str, str] = {
    "RESOLVES-AND-MATCHES": "The register holds the work and title, authors and year agree.",
    "RESOLVES-BUT-DIFFERS": "The register holds a record, but a cited field differs from it.",
    "DOES-NOT-RESOLVE": "The register answered that it holds no record for the identifier.",
    "NOT COVERED": "No covered register checks this entry (no identifier, or a closed leg).",
    "UNCHECKED": "The register could not be consulted; this is not a verdict. Re-run later.",
    "INVALID": "The entry itself cannot be checked as written; this is not a verdict.",
}

_REASONS: dict[str, str] = {
    "parse_error": "the entry could not be parsed",
    "missing_title": "the entry has no title",
    "type_contradiction": "the declared identifier type contradicts the identifier",
    "unsupported_type": "the identifier type is not covered",
    "unrecognized_id": "the identifier has no covered form",
    "no_identifier": "the entry has no DOI, PMID or arXiv id",
    "leg_closed": "this register's leg is closed by configuration",
    "not_found": "the register has no such record",
    "not_in_crossref": "Crossref has no such record",
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
}


def reason_text(code: str | None) -> str:
    """A short phrase for a reason code; unknown codes (e.g. waterfall outcomes) as given."""
    if not code:
        return ""
    if code.startswith("registered_with_"):
        return f"registered with {code.removeprefix('registered_with_').upper()}"
    return _REASONS.get(code, code)
