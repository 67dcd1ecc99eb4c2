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


def compare_many(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """The `check_report` of every `(one-row references, record row, criteria)` triple."""
    out: list[dict[str, Any] | None] = [None] * len(pairs)
    for members in _groups(pairs):
        references = pa.concat_tables([pairs[i][0] for i in members])
        records = tables.from_rows([pairs[i][1] for i in members], tables.RECORDS)
        criteria = pairs[members[0]][2]
        reports = check_reports(references, records, criteria)
        for i, report in zip(members, reports, strict=True):
            out[i] = report
    return [r for r in out if r is not None]
