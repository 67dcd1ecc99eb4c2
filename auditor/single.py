"""Check one reference: the library path behind `auditor check` and the server's `POST /check`.

`reference_table` builds the classified one-row `references` table of a reference given as
values (command line or JSON body); `check_tables` runs the stages of an audit on it
(`stages.audit_tables`, so a check gives the verdict an audit of the same reference gives), and
`check_reports` turns what they made into the field-by-field report. The caller chooses the
settings, the transport (or none) and, if it has them, the records.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.patches import record_keys
from auditor.settings import Settings
from auditor.stages import AuditTables, audit_tables
from auditor.transport.net import Net

__all__ = [
    "RECORD_FIELDS",
    "check_reports",
    "check_tables",
    "reference_rows",
    "reference_table",
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


async def check_tables(
    references: pa.Table,
    settings: Settings,
    net: Net | None,
    *,
    records: pa.Table | None = None,
) -> AuditTables:
    """The tables `auditor audit` makes of `references`, by the same stage order
    (`stages.audit_tables`; one reference has no duplicates). `records` given are the resolve
    stage's answer already made (a record file, the server's shared lookups)."""
    return await audit_tables(references, settings, net, duplicates=False, records=records)


def check_reports(references: pa.Table, made: AuditTables) -> list[dict[str, Any]]:
    """The report of every row of `references` from the tables `check_tables` made of them.

    Keys: `id` (as given), `id_type`, `identifier` (normalized), `verdict`, `reason`,
    `register`, `tier`, `retrieved_at`, `criteria_id`, `fields` (title, authors, year, each
    `{field, claimed, register, match}`, the title with its `score`), `updates` and `record` (the
    register record relied on, `{}` when none was); a row found by a title search also has
    `queried_by`, `searched` (indexes asked) and `nearest` (near candidates of a NOT FOUND).
    """
    by_key = _records_by_key(made.records)
    raws = references.column("id_raw").to_pylist()
    out = []
    for verdict, raw in zip(made.verdicts.to_pylist(), raws, strict=True):
        key = verdict["record_key"]
        report = _report(verdict, raw, by_key.get(key, {}) if key else {})
        if verdict.get("queried_by") == "title":
            report.update(
                queried_by="title",
                searched=verdict.get("searched") or [],
                nearest=verdict.get("nearest") or [],
            )
        out.append(report)
    return out
