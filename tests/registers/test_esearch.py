"""ESearch: a count and ids, checked for internal consistency."""

from __future__ import annotations

import json

import pytest

from auditor.errors import MalformedBody, RegisterError
from auditor.registers.esearch import parse_esearch

from .conftest import response


def _reply(result: object, status: int = 200):
    return response(json.dumps({"esearchresult": result}).encode(), status=status)


def test_count_and_ids():
    assert parse_esearch(_reply({"count": "2", "idlist": ["1", "2"]}), 20) == (2, ["1", "2"])
    assert parse_esearch(_reply({"count": "57", "idlist": []}), 0) == (57, [])


@pytest.mark.parametrize(
    "result",
    [
        {"count": 2, "idlist": ["1", "2"]},
        {"count": "2", "idlist": ["1"]},
        {"count": "2", "idlist": ["1", "1"]},
        {"count": "1", "idlist": ["abc"]},
        {"ERROR": "Invalid query"},
    ],
)
def test_an_inconsistent_answer_is_a_failure_to_look(result):
    with pytest.raises(MalformedBody):
        parse_esearch(_reply(result), 20)


def test_an_error_status_is_a_failure_to_look():
    with pytest.raises(RegisterError):
        parse_esearch(_reply({"count": "0", "idlist": []}, status=400), 20)
