"""The byte-level ASCII kernels agree with the scalar text rules on every ASCII string."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.compare.ascii import normalize_ascii, split_normalized
from auditor.text import normalize_text
from tests.properties import examples

# Every ASCII character, with the separators and punctuation over-represented.
ASCII = st.text(
    alphabet=st.sampled_from([chr(i) for i in range(128)] + list(" ,.\t-'\x1c\x1f") * 4),
    max_size=30,
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(ASCII, max_size=12), st.integers(0, 3))
def test_normalize_ascii_is_normalize_text(values: list[str], skip: int) -> None:
    arr = pa.array(["pad"] * skip + values, pa.string()).slice(skip)  # a non-zero array offset
    assert normalize_ascii(arr).to_pylist() == [normalize_text(v) for v in values]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(max_size=20), max_size=12), st.integers(0, 3))
def test_split_normalized_is_str_split(values: list[str], skip: int) -> None:
    normalized = [normalize_text(v) for v in values]
    arr = pa.array(["pad x"] * skip + normalized, pa.string()).slice(skip)
    entry, tokens = split_normalized(arr)
    want = [(i, tok) for i, v in enumerate(normalized) for tok in v.split(" ") if tok]
    assert list(zip(entry.tolist(), tokens.to_pylist(), strict=True)) == want
