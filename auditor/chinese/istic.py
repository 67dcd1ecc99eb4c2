"""ISTIC: the title rule over a CSL-JSON record fetched by content negotiation.

The record comes from the content-negotiation register (`registers/csl.py`), which follows the
resolver's redirects under the redirect policy and checks the CSL shape strictly; this module holds
the protocol's decision: whether the cited Han title matches the register's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from auditor.text import han_titles_equal


class TitleCheck(StrEnum):
    """`doi_lookup_with_title_check`'s closed set (the protocol's DoiTitleLookupOutcome)."""

    MATCH = "MATCH"
    MISMATCH = "MISMATCH"
    NOT_FOUND = "NOT_FOUND"
    UNVERIFIABLE = "UNVERIFIABLE"


@dataclass(frozen=True)
class CslRecord:
    """The fields of a CSL-JSON record the waterfall uses; authors are display-only."""

    doi: str
    title: str | None
    container_title: str | None
    volume: str | None
    page: str | None
    year: int | None
    authors: tuple[str, ...]


def check_title(cited: str | None, record: CslRecord | None) -> TitleCheck:
    """MATCH, MISMATCH (Han titles differ), NOT_FOUND or UNVERIFIABLE (missing, cross-script)."""
    if record is None:
        return TitleCheck.NOT_FOUND
    equal = han_titles_equal(cited, record.title)
    if equal is None:
        return TitleCheck.UNVERIFIABLE
    return TitleCheck.MATCH if equal else TitleCheck.MISMATCH
