"""The table stages a request passes through, run for many requests at once (`Coalescer`).

`classify_many` classifies the references of every request that arrived in one loop turn as one
table; `compare_many` compares every request whose record is ready as one table, through
`auditor.single.check_reports`, the comparison `auditor check` and `auditor audit` use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.single import check_reports

__all__ = ["classify_many", "compare_many"]

Pair = tuple[pa.Table, dict[str, Any]]


def classify_many(rows: Sequence[dict[str, Any]], closed: frozenset[str]) -> list[pa.Table]:
    """One classified one-row `references` table per `references` row dict."""
    table = classify(tables.from_rows(list(rows), tables.REFERENCES), closed_legs=closed)
    return [table.slice(i, 1) for i in range(table.num_rows)]


def _groups(pairs: Sequence[Pair]) -> list[list[int]]:
    """Indexes of `pairs` in groups where no identifier has two different records.

    Two requests for one identifier normally share one record; when they do not (one answered
    from the cache, one live), each must be compared with its own.
    """
    groups: list[tuple[list[int], dict[tuple[str, str], dict[str, Any]]]] = []
    for i, (_, record) in enumerate(pairs):
        key = (record["id_type"], record["identifier"])
        for members, seen in groups:
            if seen.get(key, record) == record:
                members.append(i)
                seen[key] = record
                break
        else:
            groups.append(([i], {key: record}))
    return [members for members, _ in groups]


def compare_many(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """The `check_report` of every `(one-row references, record row)` pair."""
    out: list[dict[str, Any] | None] = [None] * len(pairs)
    for members in _groups(pairs):
        references = pa.concat_tables([pairs[i][0] for i in members])
        records = tables.from_rows([pairs[i][1] for i in members], tables.RECORDS)
        for i, report in zip(members, check_reports(references, records), strict=True):
            out[i] = report
    return [r for r in out if r is not None]
