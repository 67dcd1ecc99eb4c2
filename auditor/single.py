"""Check one reference: the library path behind `auditor check` and the server's `POST /check`.

`reference_table` builds the classified one-row `references` table of a reference given as
values (command line or JSON body); `check_report` turns it and the `records` the resolve stage
found into the field-by-field report, through the same `auditor.compare.compare` an audit uses.
Nothing here talks to the network: the caller chooses where records come from.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.compare import compare
from auditor.patches import record_keys

__all__ = [
    "RECORD_FIELDS",
    "check_report",
    "check_reports",
    "reference_rows",
    "reference_table",
    "title_search_report",
]

#: Columns of the register record relied on that a report shows (identity and content).
RECORD_FIELDS: tuple[str, ...] = (
    "register",
    "status",
    "reason",
    "retrieved_at",
    "tier",
    "title",
    "authors",
    "surnames",
    "year",
    "container_title",
    "volume",
    "issue",
    "pages",
    "doi",
    "language",
    "agency",
    "body_digest",
)


def reference_rows(
    ident: str,
    id_type: str | None,
    title: str | None,
    authors: list[str],
    year: int | None,
    *,
    source: str = "<command line>",
    venue: str | None = None,
) -> dict[str, Any]:
    """The `references` row (before classify) of one reference given as values.

    The authors given are the ones to check, not a claim of the whole list: a reference given
    field by field (`auditor check --author A`) is marked `authors_et_al`, so under auditor/v2
    naming fewer authors than the register is not a finding (their identity and order still are).
    """
    return {
        "row_id": 0,
        "source_path": source,
        "id_raw": ident,
        "declared_type": id_type,
        "title": title,
        "authors": authors or None,
        "authors_et_al": bool(authors),
        "year": year,
        "container_title": venue,
    }


def reference_table(
    ident: str,
    id_type: str | None,
    title: str | None,
    authors: list[str],
    year: int | None,
    *,
    source: str = "<command line>",
    closed_legs: frozenset[str] = frozenset(),
    venue: str | None = None,
) -> pa.Table:
    """A classified one-row `references` table for one reference given as values."""
    row = reference_rows(ident, id_type, title, authors, year, source=source, venue=venue)
    return classify(tables.from_rows([row], tables.REFERENCES), closed_legs=closed_legs)


def _records_by_key(records: pa.Table) -> dict[str, dict[str, Any]]:
    """The shown columns of each record by its `record_key`, the first of a key winning (the one
    a verdict's `record_key` names)."""
    keys = record_keys(records["register"], records["id_type"], records["identifier"]).to_pylist()
    out: dict[str, dict[str, Any]] = {}
    for key, record in zip(keys, records.select(list(RECORD_FIELDS)).to_pylist(), strict=True):
        if key is not None:
            out.setdefault(key, record)
    return out


def _report(verdict: dict[str, Any], id_raw: str | None, record: dict[str, Any]) -> dict[str, Any]:
    fields = [
        {
            "field": "title",
            "claimed": verdict["title_claimed"],
            "register": verdict["title_register"],
            "match": verdict["title_match"],
            "score": verdict["title_score"],
        },
        {
            "field": "authors",
            "claimed": verdict["authors_claimed"],
            "register": verdict["authors_register"],
            "match": verdict["authors_match"],
        },
        {
            "field": "year",
            "claimed": verdict["year_claimed"],
            "register": verdict["year_register"],
            "match": verdict["year_match"],
        },
    ]
    keys = ("verdict", "reason", "register", "tier", "retrieved_at", "criteria_id")
    extra: dict[str, Any] = {}
    if verdict["criteria_id"] == tables.CRITERIA_V2:
        # auditor/v2 also compares the venue and names every rule that differs.
        fields.append(
            {
                "field": "venue",
                "claimed": verdict["venue_claimed"],
                "register": verdict["venue_register"],
                "match": verdict["venue_match"],
            }
        )
        extra["findings"] = verdict["findings"]
    return {
        "id": id_raw,
        "id_type": verdict["id_type"],
        "identifier": verdict["identifier"],
        **{k: verdict[k] for k in keys},
        **extra,
        "fields": fields,
        # Retractions, corrections … of the record relied on (see `tables.UPDATE`).
        "updates": list(verdict.get("updates") or []),
        "record": record,
    }


def check_reports(
    references: pa.Table, records: pa.Table, criteria: str = tables.DEFAULT_CRITERIA
) -> list[dict[str, Any]]:
    """`check_report` for every row of `references` at once (one vectorized comparison)."""
    verdicts = compare(references, records, criteria).to_pylist()
    raws = references.column("id_raw").to_pylist()
    by_key = _records_by_key(records)
    return [
        _report(v, raw, by_key.get(v["record_key"], {}) if v["record_key"] else {})
        for v, raw in zip(verdicts, raws, strict=True)
    ]


def check_report(
    references: pa.Table, records: pa.Table, criteria: str = tables.DEFAULT_CRITERIA
) -> dict[str, Any]:
    """Compare the one-row `references` with `records` under `criteria`; the report as a
    JSON-ready dict.

    Keys: `id` (as given), `id_type`, `identifier` (normalized), `verdict`, `reason`,
    `register`, `tier`, `retrieved_at`, `criteria_id`, `fields` (title, authors, year, each
    `{field, claimed, register, match}`, the title with its `score`) and `record` (the register
    record relied on, `{}` when none was).
    """
    return check_reports(references.slice(0, 1), records, criteria)[0]


def title_search_report(verdict: dict[str, Any], records: pa.Table) -> dict[str, Any]:
    """The report of a row settled by the title search: `check_report`'s keys plus
    `queried_by`, `searched` (indexes asked) and `nearest` (near candidates of a NOT FOUND)."""
    key = verdict.get("record_key")
    record = _records_by_key(records).get(key, {}) if key else {}
    report = _report(verdict, None, record)
    report.update(
        queried_by=verdict.get("queried_by"),
        searched=verdict.get("searched") or [],
        nearest=verdict.get("nearest") or [],
    )
    return report
