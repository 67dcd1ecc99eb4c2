"""The exception tree and the closed set of reason codes.

```
AuditorError                 root of everything this package raises on purpose
├── RegisterError            one register call could not give an answer (→ UNCHECKED)
│   ├── Unreachable          timeout, connection reset, 5xx after retries, offline
│   ├── RateLimited          429 that outlived its retries
│   ├── MalformedBody        non-JSON, truncated XML, wrong echo, wrong shape, too large
│   └── UnsafeRedirect       a hop the redirect policy forbids
├── InputError               a bibliography file cannot be read at all
└── ConfigError              settings, flags or a pipeline file are wrong
```

Exceptions live inside one unit of work; a stage catches `AuditorError` at its boundary and
writes a row with a `Reason` instead. Only `InputError` and `ConfigError` reach `cli.py`.
"""

from __future__ import annotations

from enum import StrEnum


class AuditorError(Exception):
    """Root of every exception the auditor raises on purpose."""


class RegisterError(AuditorError):
    """A register call gave no usable answer; the row becomes `UNCHECKED` with `reason`."""

    def __init__(self, message: str, reason: Reason) -> None:
        super().__init__(message)
        self.reason = reason
        """The closed reason code that the row carries into the reports."""


class Unreachable(RegisterError):
    """Timeout, reset, refused connection, 5xx after retries, or `--offline` with a miss."""


class RateLimited(RegisterError):
    """The register kept answering 429 after every retry."""


class MalformedBody(RegisterError):
    """The body is not the shape the register documents (or echoes another identifier)."""


class UnsafeRedirect(RegisterError):
    """A redirect hop or a final URL that the redirect policy forbids."""


class InputError(AuditorError):
    """A bibliography or bundle file cannot be read at all (missing, undecodable)."""


class ConfigError(AuditorError):
    """Flags, environment, config file or pipeline profile are inconsistent or invalid."""


class Reason(StrEnum):
    """Closed set of reason codes carried by rows; the reports word them for people."""

    # input and classification
    PARSE_ERROR = "parse_error"
    MISSING_TITLE = "missing_title"
    TYPE_CONTRADICTION = "type_contradiction"
    UNSUPPORTED_TYPE = "unsupported_type"
    UNRECOGNIZED_ID = "unrecognized_id"
    NO_IDENTIFIER = "no_identifier"
    MISSING_ENTRY = "missing_entry"
    LEG_CLOSED = "leg_closed"
    NOT_INDEXED_TYPE = "not_indexed_type"
    UNSURE_REFERENCE = "unsure_reference"  # a document's string, its parts unmarked, not found
    # a document's row whose flag would rest only on fields read weakly (`auditor.unreadable`)
    UNREADABLE_REFERENCE = "unreadable_reference"
    # register answers
    NOT_FOUND = "not_found"
    NOT_IN_CROSSREF = "not_in_crossref"
    NOT_IN_DATACITE = "not_in_datacite"
    NOT_IN_OPENALEX = "not_in_openalex"
    NO_CSL = "no_csl"  # the agency serves no CSL-JSON for the DOI (a landing page, 406)
    REGISTERED_WITH_DATACITE = "registered_with_datacite"
    REGISTERED_WITH_ISTIC = "registered_with_istic"
    REGISTERED_WITH_CNKI = "registered_with_cnki"
    REGISTERED_WITH_MEDRA = "registered_with_medra"
    REGISTERED_WITH_JALC = "registered_with_jalc"
    REGISTERED_WITH_KISTI = "registered_with_kisti"
    REGISTERED_WITH_OP = "registered_with_op"
    REGISTERED_WITH_OTHER = "registered_with_other"
    # failures to look: never a verdict
    TIMEOUT = "timeout"
    CONNECTION_ERROR = "connection_error"
    HTTP_5XX = "http_5xx"
    HTTP_4XX = "http_4xx"
    RATE_LIMITED = "rate_limited"
    MALFORMED_BODY = "malformed_body"
    WRONG_ECHO = "wrong_echo"
    BODY_TOO_LARGE = "body_too_large"
    UNSAFE_REDIRECT = "unsafe_redirect"
    OFFLINE = "offline"
    NCBI_EMAIL_MISSING = "ncbi_email_missing"
    # comparison (reference-resolution/v1): why a found record did not match or was not compared
    NOT_LOOKED_UP = "not_looked_up"
    NO_INDEX_MATCH = "no_index_match"
    TITLE_DIFFERS = "title_differs"
    TITLE_EMPTY = "title_empty"
    AUTHORS_DIFFER = "authors_differ"
    YEAR_DIFFERS = "year_differs"
    # auditor/v2's named rules (criteria_v2.json)
    TITLE_NEAR_MISS = "title_near_miss"
    AUTHORS_PLACEHOLDER = "authors_placeholder"
    AUTHORS_FIRST_DIFFERS = "authors_first_differs"
    AUTHORS_NOT_IN_REGISTER = "authors_not_in_register"
    AUTHORS_REORDERED = "authors_reordered"
    AUTHORS_TRUNCATED = "authors_truncated"
    AUTHORS_MIDDLE_MISSING = "authors_middle_missing"
    VENUE_DIFFERS = "venue_differs"
    VENUE_IS_CITATION = "venue_is_citation"
    PREPRINT_AS_PUBLISHED = "preprint_as_published"
    YEAR_FUTURE = "year_future"
    ARXIV_YEAR_CONTRADICTED = "arxiv_year_contradicted"
    ARXIV_VERSION_UNKNOWN = "arxiv_version_unknown"
    # checklist
    DUPLICATE_REFERENCE = "duplicate_reference"
    # updates to the cited work, read from its record (auditor.registers.updates)
    WORK_RETRACTED = "work_retracted"
    WORK_UNDER_CONCERN = "work_under_concern"
    WORK_CORRECTED = "work_corrected"
    CITED_UPDATE_NOTICE = "cited_update_notice"


def registered_with(agency: str) -> Reason:
    """Map a DOI registration agency name (as doiRA spells it) to its `registered_with_*` code."""
    try:
        return Reason(f"registered_with_{agency.strip().lower()}")
    except ValueError:
        return Reason.REGISTERED_WITH_OTHER
