"""Fuzzing the loaders (hypothesis): no exception escapes, every entry is a row, every failure
has a reason.

Records are generated with their delimiters intact and hostile bodies (stray tags, untagged
lines, braces, `#`, `%`, backslashes, quotes, control characters), so the number of entries is
known and can be checked against the rows. Whole files go through `load_files` as bytes, so
decoding is fuzzed too.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import tables
from auditor.errors import InputError
from auditor.load import LoadOutcome, load_files
from tests.properties import examples

_FAST = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
_NOISE = st.lists(
    st.sampled_from([*"AZaz09 -,;:#%$&_~\\\"'()[]=\t\u00e9\u0007", "  - ", "ER", "TY", "AU"]),
    max_size=20,
).map("".join)
_BRACE_FREE = st.lists(
    st.sampled_from([*"az09 -,;:#%$&_~\\\"'()[]=\t\u00e9@", "\\v c", "\\%", " and "]),
    max_size=20,
).map("".join)


def _no_quotes_or_commas(cell: str) -> str:
    return cell.replace('"', "").replace(",", "")


def _load(data: bytes, suffix: str) -> LoadOutcome | None:
    """The outcome, or `None` when the file holds no references (`load_files` refuses it)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            return load_files([str(path)])
        except InputError as exc:
            if not str(exc).startswith("no references in "):
                raise
            return None


def _check(outcome: LoadOutcome | None, expected_rows: int) -> None:
    if outcome is None:
        assert expected_rows == 0, "refused as empty, yet it holds references"
        return
    t = outcome.table
    assert t.schema == tables.REFERENCES
    assert t.num_rows == expected_rows
    for row in t.to_pylist():
        if row["parse_error"]:
            assert (row["row_state"], row["row_reason"]) == ("INVALID", "parse_error")
        if row["row_state"]:
            assert row["row_reason"], row
    assert all(p.message.strip() for p in outcome.problems)


@_FAST
@given(st.lists(st.lists(_NOISE, max_size=5), min_size=1, max_size=6), st.booleans())
def test_ris_every_record_is_a_row(bodies: list[list[str]], bom: bool) -> None:
    text = "".join(
        "TY  - JOUR\n"
        + "".join(f"{line}\n" for line in body if not line.startswith(("TY", "ER")))
        + "ER  - \n"
        for body in bodies
    )
    data = ("\ufeff" if bom else "").encode() + text.encode("utf-8")
    _check(_load(data, ".ris"), len(bodies))


def _tagged(body: list[str], indent: str) -> str:
    """Noise lines, each either tagged-looking or a continuation (never blank, never a start)."""
    return "".join(f"{indent}{line.strip()}\n" for line in body if line.strip())


@_FAST
@given(st.lists(st.lists(_NOISE, max_size=5), min_size=1, max_size=6))
def test_web_of_science_every_record_is_a_row(bodies: list[list[str]]) -> None:
    text = "FN Clarivate Analytics Web of Science\nVR 1.0\n" + "".join(
        f"PT J\nTI Title {i}\n" + _tagged(body, "   ") + "ER\n\n" for i, body in enumerate(bodies)
    )
    _check(_load(text.encode("utf-8") + b"EF\n", ".txt"), len(bodies))


@_FAST
@given(st.lists(st.lists(_NOISE, max_size=5), min_size=1, max_size=6))
def test_medline_every_record_is_a_row(bodies: list[list[str]]) -> None:
    text = "".join(
        f"\nPMID- {i + 1}\nTI  - Title\n" + _tagged(body, "      ") for i, body in enumerate(bodies)
    )
    _check(_load(text.encode("utf-8"), ".nbib"), len(bodies))


@_FAST
@given(st.lists(st.lists(_NOISE, max_size=5), min_size=1, max_size=6))
def test_endnote_every_record_is_a_row(bodies: list[list[str]]) -> None:
    text = "".join(
        "%0 Journal Article\n%T Title\n"
        + _tagged([f"%{b}" for b in body if not b.strip().startswith("0")], "")
        + "\n"
        for body in bodies
    )
    _check(_load(text.encode("utf-8"), ".enw"), len(bodies))


@_FAST
@given(st.lists(st.tuples(_BRACE_FREE, _BRACE_FREE), min_size=1, max_size=6))
def test_bibtex_every_entry_is_a_row(fields: list[tuple[str, str]]) -> None:
    text = "".join(
        f"@article{{k{i},\n  title = {{{title.replace('@', '')}}},\n"
        f"  author = {{{author.replace('@', '')}}}\n}}\n"
        for i, (title, author) in enumerate(fields)
    )
    _check(_load(text.encode("utf-8"), ".bib"), len(fields))


@_FAST
@given(st.lists(st.lists(_BRACE_FREE.map(_no_quotes_or_commas), max_size=4), max_size=6))
def test_csv_every_record_is_a_row(records: list[list[str]]) -> None:
    lines = [",".join(cells) for cells in records]
    text = "title,doi,authors\n" + "".join(f"{line}\n" for line in lines)
    expected = sum(1 for cells in records if any(c.strip() for c in cells))
    _check(_load(text.encode("utf-8"), ".csv"), expected)


@_FAST
@given(st.lists(_NOISE.map(lambda s: s.replace("\n", " ")), min_size=1, max_size=6), st.booleans())
def test_wos_tab_every_line_is_a_row(lines: list[str], utf16: bool) -> None:
    header = "PT\tAU\tTI\tSO\tPY\tDI\tUT\t\n"
    body = "".join(f"J\t{line}\tT{i}\n" for i, line in enumerate(lines))
    text = header + body
    data = b"\xff\xfe" + text.encode("utf-16-le") if utf16 else text.encode("utf-8")
    _check(_load(data, ".txt"), len(lines))


_JSON_NOISE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _NOISE,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_NOISE, inner, max_size=3),
    max_leaves=8,
)
_CSL_KEYS = st.sampled_from(["title", "author", "issued", "DOI", "URL", "note", "page", "number"])


@_FAST
@given(st.lists(st.dictionaries(_CSL_KEYS, _JSON_NOISE, max_size=6), min_size=1, max_size=6))
def test_csl_json_every_item_is_a_row(items: list[dict[str, object]]) -> None:
    import json

    data = json.dumps([{"type": "book", **item} for item in items], indent=2).encode()
    _check(_load(data, ".json"), len(items))


@_FAST
@given(st.lists(st.lists(_NOISE, max_size=4), min_size=1, max_size=6))
def test_endnote_xml_every_record_is_a_row(bodies: list[list[str]]) -> None:
    from xml.sax.saxutils import escape

    records = "".join(
        "<record><titles><title><style>"
        + escape(" ".join(body))
        + "</style></title></titles><notes>"
        + "".join(f"<style>{escape(line)}</style>" for line in body)
        + "</notes></record>"
        for body in bodies
    )
    text = f'<?xml version="1.0"?><xml><records>{records}</records></xml>'
    _check(_load(text.encode("utf-8"), ".xml"), len(bodies))


@_FAST
@given(st.binary(max_size=300), st.sampled_from(["utf-8", "utf-16", "utf-32", "latin-1"]))
@pytest.mark.parametrize(
    "suffix", [".bib", ".ris", ".csv", ".txt", ".nbib", ".enw", ".ciw", ".json", ".xml"]
)
def test_any_bytes_give_rows_or_a_named_error(suffix: str, junk: bytes, codec: str) -> None:
    text = "@article{a, title={Café}}\nTY  - JOUR\nTI  - Café\nER  - \nPT J\nPMID- 1\n%0 X\n"
    data = text.encode(codec, "replace") + junk
    try:
        outcome = _load(data, suffix)
    except InputError as exc:
        assert "fuzz" in str(exc)  # the message names the file
        return
    _check(outcome, outcome.table.num_rows if outcome else 0)
