"""Stored ISTIC CSL answers: snapshot rows and record-cache rows of register `istic`.

A definitive content-negotiation answer (a parsed CSL record, or the register's 404 "no such DOI")
is kept as a `RECORDS` row (register `istic`, id_type `doi`, the lowercased DOI as identifier,
status `found`/`not_found`) so a warm re-run or an offline run with a snapshot decides the row
without asking again. Failures to look are never stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auditor.chinese.istic import CslRecord
from auditor.tables import RecordStatus, Tier

REGISTER = "istic"
API_VERSION = "csl-v1"


@dataclass(frozen=True)
class Stored:
    """A stored answer: the record (`None` = the register's 404) and where it came from."""

    record: CslRecord | None
    tier: Tier
    retrieved_at: str | None


def to_row(doi: str, record: CslRecord | None, retrieved_at: str) -> dict[str, Any]:
    """The `RECORDS` row of a definitive answer about `doi` (no tier: the store sets it)."""
    row: dict[str, Any] = {
        "register": REGISTER,
        "id_type": "doi",
        "identifier": doi.lower(),
        "agency": "ISTIC",
        "retrieved_at": retrieved_at,
    }
    if record is None:
        row["status"] = str(RecordStatus.NOT_FOUND)
        return row
    row.update(
        status=str(RecordStatus.FOUND),
        title=record.title,
        authors=list(record.authors),
        year=record.year,
        container_title=record.container_title,
        volume=record.volume,
        pages=record.page,
        doi=doi,
    )
    return row


def from_row(doi: str, row: dict[str, Any], tier: Tier) -> Stored | None:
    """The stored answer of `row` for `doi`; `None` when the row is not a definitive answer."""
    status = row.get("status")
    at = row.get("retrieved_at")
    if status == RecordStatus.NOT_FOUND:
        return Stored(None, tier, at)
    if status != RecordStatus.FOUND:
        return None
    year = row.get("year")
    record = CslRecord(
        doi=doi,
        title=row.get("title"),
        container_title=row.get("container_title"),
        volume=row.get("volume"),
        page=row.get("pages"),
        year=int(year) if isinstance(year, int) else None,
        authors=tuple(str(a) for a in row.get("authors") or ()),
    )
    return Stored(record, tier, at)
