"""`check_row`: a record row that Arrow or the comparison would trip on is a failure to look."""

from __future__ import annotations

import pytest

from auditor.errors import MalformedBody, Reason
from auditor.record_check import INT32_MAX, check_row, is_valid
from auditor.registers.records import row
from auditor.tables import RECORDS, RecordStatus, from_rows

GOOD = {
    "register": "crossref",
    "id_type": "doi",
    "identifier": "10.1/a",
    "status": "found",
    "title": "T",
    "authors": ["A B"],
    "surnames": ["B"],
    "year": 2020,
}


def test_good_row_passes_and_builds_a_table():
    check_row(GOOD)
    assert from_rows([GOOD], RECORDS).num_rows == 1


@pytest.mark.parametrize(
    "change",
    [
        {"year": INT32_MAX + 1},
        {"year": -(2**40)},
        {"year": "2020"},
        {"year": True},
        {"title": "bad \ud800"},
        {"title": ["T"]},
        {"title": 5},
        {"authors": "A B"},
        {"authors": ["ok", None]},
        {"surnames": ["\udfff"]},
        {"status": "maybe"},
        {"identifier": None},
        {"extra": 1},
    ],
)
def test_bad_rows_are_malformed(change):
    bad = {**GOOD, **change}
    with pytest.raises(MalformedBody) as info:
        check_row(bad)
    assert info.value.reason is Reason.MALFORMED_BODY
    assert not is_valid(bad)


def test_row_builder_checks_what_registers_build():
    with pytest.raises(MalformedBody):
        row("crossref", "doi", "10.1/a", RecordStatus.FOUND, year=2**33)
    assert not is_valid("not a dict")
