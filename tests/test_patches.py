"""Verdict patches and their one `merge`."""

from __future__ import annotations

import pyarrow as pa
import pytest

from auditor import tables
from auditor.patches import empty_patch, merge, patch_from_rows, record_keys, relied_on


def _verdicts(n: int) -> pa.Table:
    rows = [
        {"row_id": i, "source_path": "x.bib", "verdict": "NOT COVERED", "criteria_id": "c"}
        for i in range(n)
    ]
    return tables.from_rows(rows, tables.VERDICTS)


def test_a_patch_sets_only_its_rows_and_columns() -> None:
    base = _verdicts(4)
    patch = patch_from_rows([{"row_id": 2, "verdict": "NOT FOUND", "reason": "r"}], ["verdict"])
    merged = merge(base, patch)
    assert merged["verdict"].to_pylist() == ["NOT COVERED"] * 2 + ["NOT FOUND", "NOT COVERED"]
    assert merged["reason"].to_pylist() == [None] * 4  # not a patch column: kept
    assert merged.schema == base.schema
    assert merged["row_id"].to_pylist() == [0, 1, 2, 3]


def test_later_patches_win_and_unknown_rows_change_nothing() -> None:
    base = _verdicts(3)
    first = patch_from_rows(
        [{"row_id": 0, "verdict": "A"}, {"row_id": 1, "verdict": "B"}], ["verdict"]
    )
    second = patch_from_rows(
        [{"row_id": 1, "verdict": "C"}, {"row_id": 9, "verdict": "D"}], ["verdict"]
    )
    assert merge(base, first, second)["verdict"].to_pylist() == ["A", "C", "NOT COVERED"]
    assert merge(base, empty_patch()).equals(base)


def test_rows_are_matched_by_row_id_not_position() -> None:
    base = _verdicts(3).take(pa.array([2, 0, 1]))
    patch = patch_from_rows([{"row_id": 0, "verdict": "X"}], ["verdict"])
    assert merge(base, patch)["verdict"].to_pylist() == ["NOT COVERED", "X", "NOT COVERED"]


def test_a_patch_column_the_verdicts_lack_is_an_error() -> None:
    with pytest.raises(KeyError):
        patch_from_rows([{"row_id": 0}], ["no_such_column"])


def _records(*rows: tuple[str, str, str]) -> pa.Table:
    return tables.from_rows(
        [{"register": r, "id_type": t, "identifier": i, "status": "found"} for r, t, i in rows],
        tables.RECORDS,
    )


def test_relied_on_names_the_register_s_record_else_the_identifier_s_first() -> None:
    records = _records(("datacite", "doi", "10.1/a"), ("crossref", "doi", "10.1/a"))
    verdicts = tables.from_rows(
        [
            {**v, "register": reg, "id_type": t, "identifier": i}
            for v, (reg, t, i) in zip(
                _verdicts(4).to_pylist(),
                [
                    ("crossref", "doi", "10.1/a"),  # its own register's record
                    ("doi", "doi", "10.1/a"),  # a register without a record: the first of the id
                    (None, "doi", "10.1/b"),  # no record of that identifier
                    (None, None, None),  # no identifier: no record
                ],
                strict=True,
            )
        ],
        tables.VERDICTS,
    )
    assert relied_on(records, verdicts).to_pylist() == [
        "crossref\x1fdoi\x1f10.1/a",
        "datacite\x1fdoi\x1f10.1/a",
        None,
        None,
    ]


def test_record_keys_are_null_when_a_part_is() -> None:
    keys = record_keys(pa.array(["a", None]), pa.array(["doi", "doi"]), pa.array(["1", "2"]))
    assert keys.to_pylist() == ["a\x1fdoi\x1f1", None]
