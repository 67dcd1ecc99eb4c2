"""The bounded JSON decoder: hostile bodies become `MalformedBody`, never a Python error."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditor.errors import MalformedBody, Reason
from auditor.transport.safejson import MAX_DEPTH, loads


def test_plain_json_round_trips():
    assert loads(b'{"a": [1, 2.5, "x", null, true, {"b": []}]}', "t") == {
        "a": [1, 2.5, "x", None, True, {"b": []}]
    }


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 100_000])
def test_deep_nesting_is_malformed_not_recursion(depth):
    for body in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth):
        with pytest.raises(MalformedBody) as info:
            loads(body, "deep")
        assert info.value.reason is Reason.MALFORMED_BODY


def test_depth_limit_is_exact_and_ignores_brackets_in_strings():
    assert loads(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, "t") is not None
    text = b'{"t": "' + b"[" * 500 + b'\\"{"}'
    assert loads(text, "t") == {"t": "[" * 500 + '"{'}


@pytest.mark.parametrize(
    "body",
    [b"NaN", b"[Infinity]", b"-Infinity", b"\xff\xfe{}", b"<html>", b"", b"1" * 5000, b'{"a":'],
)
def test_not_plain_json_is_malformed(body):
    with pytest.raises(MalformedBody):
        loads(body, "t")


def test_size_cap():
    with pytest.raises(MalformedBody) as info:
        loads(b"[" + b"1," * 100 + b"1]", "t", max_bytes=50)
    assert info.value.reason is Reason.BODY_TOO_LARGE


def test_lone_surrogates_are_replaced_pairs_kept():
    value = loads(b'{"t\\udc00": ["\\ud800 x", "\\ud83d\\ude00"]}', "t")
    assert value == {"t\ufffd": ["\ufffd x", "\U0001f600"]}
    "".join(value["t\ufffd"]).encode("utf-8")  # valid Unicode throughout


@given(st.binary(max_size=200))
def test_any_bytes_decode_or_raise_malformed(data):
    with contextlib.suppress(MalformedBody):
        loads(data, "fuzz")
