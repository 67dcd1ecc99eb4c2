"""Tests of verdict assembly (`auditor.compare.compare`): states, statuses, order and columns."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from auditor import tables
from auditor.compare import compare, field_columns


def _ref(i: int, **fields: Any) -> dict[str, Any]:
    base = {
        "row_id": i,
        "source_path": "t.bib",
        "source_line": i + 1,
        "key": f"k{i}",
        "id_type": "doi",
        "identifier": f"10.1/{i}",
        "title": "Attention is all you need",
        "authors": ["Vaswani, Ashish", "Shazeer, Noam"],
        "year": 2017,
    }
    return {**base, **fields}


def _rec(i: int, **fields: Any) -> dict[str, Any]:
    base = {
        "register": "crossref",
        "id_type": "doi",
        "identifier": f"10.1/{i}",
        "status": "found",
        "retrieved_at": "2026-11-30T00:00:00Z",
        "tier": "snapshot",
        "title": "Attention Is All You Need",
        "surnames": ["Vaswani", "Shazeer", "Parmar"],
        "year": 2017,
    }
    return {**base, **fields}


def _run(refs: list[dict[str, Any]], recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = compare(
        tables.from_rows(refs, tables.REFERENCES),
        tables.from_rows(recs, tables.RECORDS),
        tables.CRITERIA_V1,
    )
    assert out.schema.equals(tables.VERDICTS)
    return out.to_pylist()


def test_each_status_maps_to_its_outcome() -> None:
    refs = [_ref(i) for i in range(6)]
    recs = [
        _rec(0),
        _rec(1, year=2016),
        _rec(2, status="not_found", reason="not_found", title=None),
        _rec(3, status="unreachable", reason="timeout", title=None),
        _rec(4, status="not_covered", reason="registered_with_istic", title=None),
        # row 5 has no record at all
    ]
    rows = _run(refs, recs)
    assert [(r["verdict"], r["reason"]) for r in rows] == [
        ("RESOLVES-AND-MATCHES", None),
        ("RESOLVES-BUT-DIFFERS", "year_differs"),
        ("DOES-NOT-RESOLVE", "not_found"),
        ("UNCHECKED", "timeout"),
        ("NOT COVERED", "registered_with_istic"),
        ("UNCHECKED", "not_looked_up"),
    ]
    # A failure to look never carries register fields or a match.
    assert rows[3]["title_match"] is None and rows[3]["title_register"] is None
    assert rows[0]["register"] == "crossref" and rows[0]["tier"] == "snapshot"
    assert rows[2]["retrieved_at"] == "2026-11-30T00:00:00Z"
    assert all(r["criteria_id"] == "reference-resolution/v1" for r in rows)
    assert all(r["group_id"] is None for r in rows)


def test_pre_decided_states_are_kept() -> None:
    refs = [
        _ref(0, row_state="INVALID", row_reason="missing_title", title=None),
        _ref(1, row_state="NOT COVERED", row_reason="leg_closed"),
    ]
    rows = _run(refs, [_rec(0), _rec(1)])
    assert [(r["verdict"], r["reason"]) for r in rows] == [
        ("INVALID", "missing_title"),
        ("NOT COVERED", "leg_closed"),
    ]
    assert rows[1]["register"] is None and rows[1]["title_match"] is None


def test_reason_names_the_first_differing_field() -> None:
    refs = [
        _ref(0, title="A completely different paper"),
        _ref(1, authors=["Parmar, Niki", "Vaswani, A"]),
        _ref(2, title="?!"),
    ]
    rows = _run(refs, [_rec(0, year=1999), _rec(1, year=1999), _rec(2)])
    assert [r["reason"] for r in rows] == ["title_differs", "authors_differ", "title_empty"]
    assert rows[1]["title_match"] is True and rows[1]["authors_match"] is False
    assert rows[2]["title_score"] == 0.0


def test_fields_not_claimed_are_not_compared() -> None:
    rows = _run([_ref(0, authors=None, year=None)], [_rec(0, surnames=None, year=None)])
    (row,) = rows
    assert row["verdict"] == "RESOLVES-AND-MATCHES"
    assert row["authors_match"] is None and row["year_match"] is None
    assert row["title_match"] is True


def test_records_shared_by_several_references_and_input_order() -> None:
    refs = [_ref(5, identifier="10.1/x"), _ref(2, identifier="10.1/x", year=2000), _ref(9)]
    recs = [_rec(0, identifier="10.1/x"), _rec(1, identifier="10.1/x", year=1900)]
    rows = _run(refs, recs)
    assert [r["row_id"] for r in rows] == [5, 2, 9]
    # The first record of a repeated key is used.
    assert [r["verdict"] for r in rows] == [
        "RESOLVES-AND-MATCHES",
        "RESOLVES-BUT-DIFFERS",
        "UNCHECKED",
    ]


def test_same_identifier_under_another_type_does_not_join() -> None:
    rows = _run([_ref(0, id_type="pmid", identifier="10.1/0")], [_rec(0)])
    assert rows[0]["verdict"] == "UNCHECKED"


def test_empty_inputs() -> None:
    assert compare(tables.empty(tables.REFERENCES), tables.empty(tables.RECORDS)).num_rows == 0
    rows = _run([_ref(0, id_type=None, identifier=None)], [])
    assert rows[0]["verdict"] == "UNCHECKED"


def test_chunked_inputs() -> None:
    refs = tables.from_rows([_ref(0), _ref(1)], tables.REFERENCES)
    chunked = pa.concat_tables([refs.slice(0, 1), refs.slice(1, 1)])
    recs = tables.from_rows([_rec(0), _rec(1, title="Other")], tables.RECORDS)
    out = compare(
        chunked, pa.concat_tables([recs.slice(0, 1), recs.slice(1, 1)]), tables.CRITERIA_V1
    )
    assert out.column("verdict").to_pylist() == ["RESOLVES-AND-MATCHES", "RESOLVES-BUT-DIFFERS"]


def test_batches_of_rows_give_the_same_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    refs = [
        _ref(i, year=2017 if i % 3 else 2016, authors=[["Vaswani, A"], ["Lee, K"]][i % 2])
        for i in range(11)
    ]
    recs = [_rec(i) if i % 4 else _rec(i, status="not_found") for i in range(11)]
    whole = _run(refs, recs)
    # Batches of 3: runs of consecutive found rows are sliced, gapped ones are taken.
    monkeypatch.setattr(field_columns, "CHUNK_ROWS", 3)
    assert _run(refs, recs) == whole
    assert {r["verdict"] for r in whole} == {
        "RESOLVES-AND-MATCHES",
        "RESOLVES-BUT-DIFFERS",
        "DOES-NOT-RESOLVE",
    }
