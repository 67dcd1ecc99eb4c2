"""The table stages a request passes through, run for many requests at once (`Coalescer`).

`classify_many` classifies the references of every request that arrived in one loop turn as one
table; `compare_many` runs every request whose record is ready through the stages of an audit as
one table (`auditor.single.check_tables`, so `stages.audit_tables`, on the records the shared
lookups resolved), under the settings the reference-check contract fixes (`contract_settings`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.settings import Settings
from auditor.single import check_reports, check_tables

__all__ = ["classify_many", "compare_many", "contract_settings"]

#: (classified one-row references, record row, criteria id).
Pair = tuple[pa.Table, dict[str, Any], str]


def classify_many(rows: Sequence[dict[str, Any]], closed: frozenset[str]) -> list[pa.Table]:
    """One classified one-row `references` table per `references` row dict."""
    table = classify(tables.from_rows(list(rows), tables.REFERENCES), closed_legs=closed)
    return [table.slice(i, 1) for i in range(table.num_rows)]


def _groups(pairs: Sequence[Pair]) -> list[list[int]]:
    """Indexes of `pairs` in groups of one criteria where no identifier has two records.

    Two requests for one identifier normally share one record; when they do not (one answered
    from the cache, one live), each must be compared with its own.
    """
    groups: list[tuple[list[int], dict[tuple[str, str], dict[str, Any]], str]] = []
    for i, (_, record, criteria) in enumerate(pairs):
        key = (record["id_type"], record["identifier"])
        for members, seen, group_criteria in groups:
            if group_criteria == criteria and seen.get(key, record) == record:
                members.append(i)
                seen[key] = record
                break
        else:
            groups.append(([i], {key: record}, criteria))
    return [members for members, _, _ in groups]


def contract_settings(settings: Settings, criteria: str) -> Settings:
    """`settings` as `spec/reference-check-service.json` fixes them for one criteria: each
    identifier type is decided by its one register (Crossref, PubMed, arXiv), so the Chinese
    waterfall and the title search (which ask others) are off, and no worker processes."""
    return dataclasses.replace(
        settings,
        criteria=criteria,
        chinese_waterfall=False,
        search_unresolved=False,
        title_workers=False,
    )


async def compare_many(pairs: Sequence[Pair], settings: Settings) -> list[dict[str, Any]]:
    """The `check_reports` report of every `(one-row references, record row, criteria)` triple,
    by the stages of an audit under `contract_settings` (no register is asked: the records are
    given)."""
    out: list[dict[str, Any] | None] = [None] * len(pairs)
    for members in _groups(pairs):
        references = pa.concat_tables([pairs[i][0] for i in members])
        # Each request's reference is row 0 of its own table: one row id each, for the patches.
        row_ids = pa.array(range(references.num_rows), pa.int64())
        at = references.schema.get_field_index("row_id")
        references = references.set_column(at, references.schema.field(at), row_ids)
        records = tables.from_rows([pairs[i][1] for i in members], tables.RECORDS)
        chosen = contract_settings(settings, pairs[members[0]][2])
        made = await check_tables(references, chosen, None, records=records)
        for i, report in zip(members, check_reports(references, made), strict=True):
            out[i] = report
    return [r for r in out if r is not None]
