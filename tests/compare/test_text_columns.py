"""Whole-column text rules agree with the scalar ones (`auditor.compare.text_columns`)."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.compare.text_columns import normalize_codes, normalize_column
from auditor.text import normalize_text
from tests.properties import examples

# Arrow strings are valid UTF-8, so lone surrogates cannot occur in a column.
UTF8_CHARS = st.characters(exclude_categories=("Cs",))
TRICKY = list("ΣσςAaÉé \u0301\u0327İ\x00-_',.ǅ宫Ⅻ²\u3000\t")
WORDS = st.sampled_from(["Müller", "MULLER", "muller", "naïve", "Naive", "van der Berg, A."])
TEXT = st.none() | WORDS | st.text(alphabet=st.sampled_from(TRICKY) | UTF8_CHARS, max_size=12)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(TEXT, max_size=15))
def test_normalize_column_is_normalize_text(values: list[str | None]) -> None:
    arr = pa.array(values, pa.string())
    assert normalize_column(arr).to_pylist() == [normalize_text(v) for v in values]
    codes, dictionary = normalize_codes(arr)
    assert [dictionary[int(c)].as_py() for c in codes] == [normalize_text(v) for v in values]
    # Equal normalized strings share one code.
    by_form: dict[str, int] = {}
    for value, code in zip(values, codes.tolist(), strict=True):
        assert by_form.setdefault(normalize_text(value), code) == code
