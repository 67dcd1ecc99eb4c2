"""Comparing references with the records a title search chose, position by position."""

from __future__ import annotations

import pytest

from auditor import tables
from auditor.compare.found import compare_found


def _reference(row_id: int, title: str) -> dict[str, object]:
    return {
        "row_id": row_id,
        "source_path": "x.bib",
        "title": title,
        "authors": ["Smith, J."],
        "year": 2020,
        "row_state": "NOT COVERED",
        "row_reason": "no_identifier",
    }


def _record(identifier: str, title: str) -> dict[str, object]:
    return {
        "register": "crossref",
        "id_type": "doi",
        "identifier": identifier,
        "status": "found",
        "title": title,
        "surnames": ["Smith"],
        "year": 2020,
    }


def test_each_row_meets_the_record_at_its_position_and_keeps_its_identity() -> None:
    refs = tables.from_rows(
        [_reference(0, "Mice in mazes"), _reference(1, "Rats in boxes")], tables.REFERENCES
    )
    # Both records share an identifier: a join by identifier would give both rows the first.
    records = tables.from_rows(
        [_record("10.1/same", "Mice in mazes"), _record("10.1/same", "Something else")],
        tables.RECORDS,
    )
    got = compare_found(refs, records, tables.CRITERIA_V2).to_pylist()
    assert [g["verdict"] for g in got] == ["RESOLVES-AND-MATCHES", "RESOLVES-BUT-DIFFERS"]
    assert [g["queried_by"] for g in got] == ["title", "title"]
    assert [g["identifier"] for g in got] == [None, None]  # the caller names the work found
    assert [g["record_key"] for g in got] == ["crossref\x1fdoi\x1f10.1/same"] * 2


def test_one_record_per_reference_is_required() -> None:
    refs = tables.from_rows([_reference(0, "Mice in mazes")], tables.REFERENCES)
    with pytest.raises(ValueError, match="one record per reference"):
        compare_found(refs, tables.empty(tables.RECORDS), tables.CRITERIA_V2)
