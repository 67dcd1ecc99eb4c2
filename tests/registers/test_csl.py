"""Content negotiation: strict CSL-JSON shapes, the resolver's 404, failures to look."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody, Reason, RegisterError
from auditor.registers.csl import MAX_BYTES, parse_csl_reply

from .conftest import response

DOI = "10.5555/cma.j.cn112137-20231008-00670"
GOOD = {
    "DOI": DOI,
    "title": ["宫颈腺癌中ProEXC和PRMT5的表达及其临床意义"],
    "container-title": "中华医学杂志",
    "volume": 103,
    "page": "3967-3971",
    "issued": {"date-parts": [[2023, 12]]},
    "author": [{"family": "崔", "given": "红霞"}],
}


def _reply(body: object, status: int = 200):
    return response(json.dumps(body).encode(), status=status)


def test_a_good_record_is_a_found_row():
    row = parse_csl_reply(DOI, _reply(GOOD))
    assert (row["register"], row["status"]) == ("csl", "found")
    assert row["title"] == GOOD["title"][0] and row["year"] == 2023
    assert (row["volume"], row["pages"], row["authors"]) == ("103", "3967-3971", ["崔 红霞"])


def test_the_resolvers_404_is_not_found_and_other_statuses_are_failures():
    assert parse_csl_reply(DOI, response(b"<html>DOI Not Found</html>", 404))["status"] == (
        "not_found"
    )
    with pytest.raises(RegisterError):
        parse_csl_reply(DOI, response(b"", 403))


@pytest.mark.parametrize(
    "change",
    [
        {"title": ["a", "b"]},
        {"title": {"zh": "x"}},
        {"issued": {"date-parts": [["２０２３"]]}},
        {"issued": {"date-parts": [[True]]}},
        {"author": "x"},
        {"volume": 1.5},
        {"DOI": "10.5555/another"},
    ],
)
def test_a_doubtful_record_is_a_failure_to_look(change):
    with pytest.raises(MalformedBody):
        parse_csl_reply(DOI, _reply({**GOOD, **change}))


def test_an_oversized_body_is_refused_before_decoding():
    with pytest.raises(MalformedBody) as info:
        parse_csl_reply(DOI, response(b" " * (MAX_BYTES + 1)))
    assert info.value.reason is Reason.BODY_TOO_LARGE
