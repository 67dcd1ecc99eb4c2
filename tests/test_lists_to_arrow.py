"""`to_array`: the same Arrow arrays as `pa.array`, built without importing pandas."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.lists_to_arrow import to_array
from tests.properties import examples

_TEXT = st.one_of(st.none(), st.text(alphabet=st.characters(exclude_categories=["Cs"])))


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(_TEXT, max_size=8),
    st.lists(st.one_of(st.none(), st.lists(st.text(max_size=5), max_size=3)), max_size=8),
    st.lists(st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1)), max_size=8),
    st.lists(st.one_of(st.none(), st.booleans()), max_size=8),
)
def test_same_as_pa_array(
    texts: list[str | None],
    lists: list[list[str] | None],
    ints: list[int | None],
    bools: list[bool | None],
) -> None:
    cases = [
        (texts, pa.string()),
        (lists, pa.list_(pa.string())),
        (ints, pa.int32()),
        (ints, pa.int64()),
        (bools, pa.bool_()),
    ]
    for values, type_ in cases:
        built = to_array(values, type_)
        built.validate(full=True)
        assert built.equals(pa.array(values, type=type_))


def test_float_structs_same_as_pa_array() -> None:
    type_ = pa.struct([pa.field("title", pa.float32()), pa.field("year", pa.float32())])
    values = [None, {"title": 0.5}, {"title": 0.25, "year": 1.0}, {}]
    built = to_array(values, type_)
    built.validate(full=True)
    assert built.equals(pa.array(values, type=type_))


def test_lone_surrogate_becomes_a_question_mark() -> None:
    assert to_array(["a\ud800b"], pa.string()).to_pylist() == ["a?b"]


def test_auditor_load_imports_no_comparison_stack(tmp_path) -> None:
    bib = tmp_path / "a.bib"
    bib.write_text("@article{k, title={T}, doi={10.1000/x}}\n")
    code = (
        "import sys; sys.argv = ['auditor', 'load', sys.argv[1]]\n"
        "from auditor.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pandas', 'aiohttp', 'duckdb', 'jinja2', 'pyarrow.parquet')"
        " if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(bib)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"
