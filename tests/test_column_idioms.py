"""Column kernels give what the Python expression gives, row by row, on any text."""

from __future__ import annotations

from urllib.parse import quote

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor import column_idioms
from tests.properties import examples

# Identifiers as they come: ASCII, Unicode digits and letters, every kind of whitespace, `/`.
TEXT = st.one_of(
    st.none(),
    st.text(st.sampled_from("aZ09/._-~ ()<>%é²١İ\u3000\x1c\x85\t\n"), max_size=8),
    st.text(max_size=6),
)


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(TEXT, max_size=12))
def test_strip_quote_digits_are_pythons(values: list[str | None]) -> None:
    array = pa.array(values, pa.string())
    stripped = [None if v is None else v.strip() for v in values]
    assert column_idioms.strip(array).to_pylist() == stripped
    assert column_idioms.quoted(pa.array(stripped, pa.string())).to_pylist() == [
        None if v is None else quote(v, safe="/") for v in stripped
    ]
    assert column_idioms.digits(array).to_pylist() == [bool(v) and v.isdigit() for v in values]


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), max_size=10))
def test_first_truthy_is_or(rows: list[tuple[str | None, str | None, str | None]]) -> None:
    a, b, c = (
        (pa.array(list(col), pa.string()) for col in zip(*rows, strict=True))
        if rows
        else (pa.array([], pa.string()),) * 3
    )
    assert column_idioms.first_truthy(a, b, c).to_pylist() == [x or y or z for x, y, z in rows]


LISTS = st.one_of(st.none(), st.lists(st.sampled_from(["a", "b", ""]), max_size=3))


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(st.tuples(LISTS, LISTS, st.booleans()), max_size=10))
def test_lists_concatenate_row_by_row_and_keep_where_told(
    rows: list[tuple[list[str] | None, list[str] | None, bool]],
) -> None:
    kind = pa.list_(pa.string())
    first = pa.array([r[0] for r in rows], kind)
    second = pa.array([r[1] for r in rows], kind)
    keep = pa.array([r[2] for r in rows], pa.bool_())
    assert column_idioms.concat_lists(first, second).to_pylist() == [
        (x or []) + (y or []) for x, y, _ in rows
    ]
    assert column_idioms.keep_lists(first, keep).to_pylist() == [
        x if k else None for x, _, k in rows
    ]
    # A slice keeps its own rows (offsets into the shared values).
    assert column_idioms.keep_lists(first[1:], keep[1:]).to_pylist() == [
        x if k else None for x, _, k in rows[1:]
    ]
    singles = pa.array([r[0][0] if r[0] else None for r in rows], pa.string())
    assert column_idioms.singletons(singles).to_pylist() == [
        [r[0][0]] if r[0] else [] for r in rows
    ]


@pytest.mark.parametrize("chars", [b"<&", b"=", b"ab"])
def test_holding_is_any_char_in_each_string(chars: bytes) -> None:
    values = ["a<b", None, "plain", "x & y", "", "é<ü", "日本&", "ab", "=1", "b"] * 7
    whole = pa.array(values)
    for column in (whole, whole.slice(5, 40), pa.chunked_array([whole.slice(0, 9), whole[9:]])):
        flat = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        want = [
            i
            for i, v in enumerate(flat.to_pylist())
            if v is not None and any(chr(c) in v for c in chars)
        ]
        assert column_idioms.holding(column, chars).tolist() == want


def test_holding_ignores_the_bytes_behind_a_null() -> None:
    base = pa.array(["<a", "b&"])
    validity = pa.py_buffer(bytes([0b10]))
    masked = pa.Array.from_buffers(pa.string(), 2, [validity, *base.buffers()[1:]])
    assert column_idioms.holding(masked, b"<&").tolist() == [1]
    assert column_idioms.holding(pa.nulls(3, pa.string()), b"<").tolist() == []
