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

__all__ = ["RECORD_FIELDS", "check_report", "reference_table"]

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


def reference_table(
    ident: str,
    id_type: str | None,
    title: str | None,
    authors: list[str],
    year: int | None,
    *,
    source: str = "<command line>",
    closed_legs: frozenset[str] = frozenset(),
) -> pa.Table:
    """A classified one-row `references` table for one reference given as values."""
    row = {
        "row_id": 0,
        "source_path": source,
        "id_raw": ident,
        "declared_type": id_type,
        "title": title,
        "authors": authors or None,
        "year": year,
    }
    return classify(tables.from_rows([row], tables.REFERENCES), closed_legs=closed_legs)


def _record_relied_on(records: pa.Table, id_type: str | None, ident: str | None) -> dict[str, Any]:
    if not id_type or not ident or records.num_rows == 0:
        return {}
    for record in records.to_pylist():
        if record["id_type"] == id_type and record["identifier"] == ident:
            return {k: record.get(k) for k in RECORD_FIELDS}
    return {}


def check_report(
    references: pa.Table, records: pa.Table, criteria: str = tables.DEFAULT_CRITERIA
) -> dict[str, Any]:
    """Compare the one-row `references` with `records`; the report as a JSON-ready dict.

    Keys: `id` (as given), `id_type`, `identifier` (normalized), `verdict`, `reason`,
    `register`, `tier`, `retrieved_at`, `criteria_id`, `fields` (title, authors, year, each
    `{field, claimed, register, match}`, the title with its `score`) and `record` (the register
    record relied on, `{}` when none was).
    """
    verdict = compare(references, records, criteria).to_pylist()[0]
    ref = references.to_pylist()[0]
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
    return {
        "id": ref["id_raw"],
        "id_type": verdict["id_type"],
        "identifier": verdict["identifier"],
        **{k: verdict[k] for k in keys},
        "fields": fields,
        "record": _record_relied_on(records, verdict["id_type"], verdict["identifier"]),
    }
