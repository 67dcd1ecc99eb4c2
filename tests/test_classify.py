"""The classify stage: the criteria's input_contract, primary choice, closed legs, idempotence."""

from __future__ import annotations

from typing import Any

import pytest

from auditor import tables
from auditor.classify import classify, normalize_identifier


@pytest.mark.parametrize(
    ("raw", "declared", "expected"),
    [
        ("12345", None, ("pmid", "12345", None)),
        ("0012345", None, ("pmid", "0012345", None)),  # kept as given, no padding changes
        ("PMID: 12345", None, ("pmid", "12345", None)),
        ("10.1000/ABC.def", None, ("doi", "10.1000/abc.def", None)),
        ("https://doi.org/10.1000/X", None, ("doi", "10.1000/x", None)),
        ("http://dx.doi.org/10.1000/X", None, ("doi", "10.1000/x", None)),
        ("doi:10.1000/X", "doi", ("doi", "10.1000/x", None)),
        ("https://doi.org/10.1000%2FX", None, ("doi", "10.1000/x", None)),
        ("arXiv:2101.00001v3", None, ("arxiv", "2101.00001", None)),
        ("2101.0001", None, ("arxiv", "2101.0001", None)),
        ("math.GT/0309136", None, ("arxiv", "math.GT/0309136", None)),
        ("hep-th/9901001v2", "arxiv", ("arxiv", "hep-th/9901001", None)),
        ("https://arxiv.org/abs/1706.03762v5", None, ("arxiv", "1706.03762", None)),
        ("10.48550/arXiv.1706.03762", "doi", ("arxiv", "1706.03762", None)),
        ("2113.00001", None, (None, None, "unrecognized_id")),  # month 13
        ("2100.00001", None, (None, None, "unrecognized_id")),  # month 00
        ("10.12/short-prefix", None, (None, None, "unrecognized_id")),
        ("12345", "doi", (None, None, "type_contradiction")),
        ("10.1000/x", "pmid", (None, None, "type_contradiction")),
        ("2101.00001", "pmid", (None, None, "type_contradiction")),
        ("978-3-16-148410-0", "isbn", (None, None, "unsupported_type")),
        ("https://example.org", "url", (None, None, "unsupported_type")),
        ("", None, (None, None, "no_identifier")),
        ("   ", "doi", (None, None, "no_identifier")),
    ],
)
def test_normalize_identifier(raw: str, declared: str | None, expected: tuple) -> None:
    assert normalize_identifier(raw, declared) == expected


def _table(*rows: dict[str, Any]) -> Any:
    full = []
    for i, row in enumerate(rows):
        base: dict[str, Any] = {"row_id": i, "source_path": "x.csv", "title": "A title"}
        base.update(row)
        full.append(base)
    return tables.from_rows(full, tables.REFERENCES)


def _out(table: Any, *cols: str) -> list[tuple[Any, ...]]:
    data = table.select(list(cols)).to_pylist()
    return [tuple(r[c] for c in cols) for r in data]


def test_primary_identifier_doi_then_pmid_then_arxiv() -> None:
    t = classify(
        _table(
            {"doi": "10.1000/A", "pmid": "123", "arxiv": "2101.00001"},
            {"pmid": "123", "arxiv": "2101.00001v2"},
            {"arxiv": "2101.00001v2"},
        )
    )
    assert _out(t, "id_type", "identifier", "id_raw") == [
        ("doi", "10.1000/a", "10.1000/A"),
        ("pmid", "123", "123"),
        ("arxiv", "2101.00001", "2101.00001v2"),
    ]
    assert _out(t, "doi", "pmid", "arxiv")[0] == ("10.1000/a", "123", "2101.00001")


def test_closed_legs_skip_to_the_next_open_candidate() -> None:
    t = _table({"doi": "10.1000/A", "pmid": "123"}, {"doi": "10.1000/B"})
    out = classify(t, closed_legs=frozenset({"doi"}))
    assert _out(out, "id_type", "identifier", "row_state", "row_reason") == [
        ("pmid", "123", None, None),
        ("doi", "10.1000/b", "NOT COVERED", "leg_closed"),
    ]


def test_state_precedence() -> None:
    t = classify(
        _table(
            {"parse_error": "bad", "title": None},
            {"id_raw": "123", "declared_type": "doi", "title": None},
            {"title": "  ", "doi": "10.1000/x"},
            {"id_raw": "x", "declared_type": "issn"},
            {"id_raw": "not an id"},
            {"doi": "n/a"},
            {},
        )
    )
    assert _out(t, "row_state", "row_reason") == [
        ("INVALID", "parse_error"),
        ("INVALID", "type_contradiction"),
        ("INVALID", "missing_title"),
        ("NOT COVERED", "unsupported_type"),
        ("NOT COVERED", "unrecognized_id"),
        ("NOT COVERED", "unrecognized_id"),
        ("NOT COVERED", "no_identifier"),
    ]


def test_generic_id_fills_its_type_column() -> None:
    t = classify(_table({"id_raw": "https://doi.org/10.1000/X"}))
    assert _out(t, "id_type", "identifier", "doi", "id_raw") == [
        ("doi", "10.1000/x", "10.1000/x", "https://doi.org/10.1000/X")
    ]


ROWS = (
    {"doi": "https://doi.org/10.1000/A", "pmid": "PMID: 123"},
    {"doi": "10.48550/arXiv.2101.00001"},
    {"id_raw": "2101.00001v4", "declared_type": "arxiv", "doi": "10.1000/Z"},
    {"id_raw": "12", "declared_type": "doi"},
    {"doi": "junk", "arxiv": "hep-th/9901001v1"},
    {"doi": "junk"},
    {"pmid": "10.1000/x"},
    {"title": None, "pmid": "5"},
    {},
)


@pytest.mark.parametrize("legs", [frozenset(), frozenset({"doi"}), frozenset({"doi", "arxiv"})])
def test_classify_is_idempotent(legs: frozenset[str]) -> None:
    once = classify(_table(*ROWS), closed_legs=legs)
    assert classify(once, closed_legs=legs).equals(once)


@pytest.mark.parametrize("legs", [frozenset({"doi"}), frozenset({"pmid", "arxiv"})])
def test_rerun_with_closed_legs_matches_a_single_run(legs: frozenset[str]) -> None:
    cols = ("id_type", "identifier", "row_state", "row_reason", "doi", "pmid", "arxiv")
    direct = classify(_table(*ROWS), closed_legs=legs)
    rerun = classify(classify(_table(*ROWS)), closed_legs=legs)
    assert _out(rerun, *cols) == _out(direct, *cols)


def test_schema_kept() -> None:
    assert classify(_table(*ROWS)).schema == tables.REFERENCES


_DOIS = [None, "", " ", "10.1000/ABC", "10.1000/a b", "<10.1000/x>", "10.48550/arXiv.1706.03762",
         "10.48550/arxiv.nothing", "doi:10.1/2", "https://doi.org/10.1000%2Fq", "10.12/x",
         "10.1000/é", "10.1000/x\u00a0", "11.1000/x", " 10.1000/padded "]  # fmt: skip
_PMIDS = [None, "", "123", "0012", "123456789", "12a", " 99 ", "PMID: 5", "١٢٣"]
_TITLES = [None, "", "  ", "A title", "宫颈腺癌", "\u3000", "\u200b"]


@pytest.mark.parametrize("legs", [frozenset(), frozenset({"doi"}), frozenset({"pmid"})])
def test_column_fast_path_agrees_with_the_per_row_decision(
    legs: frozenset[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vectorized common case decides every row exactly as `_decide` does."""
    import itertools

    from auditor import classify as module
    from auditor.classify import _decide_rows

    monkeypatch.setattr(module, "COLUMN_PATH_ROWS", 0)
    rows = [
        {"title": t, "doi": d, "pmid": p, "arxiv": a, "id_raw": r, "declared_type": dt,
         "parse_error": e, "row_reason": rr or None}
        for d, p, t in itertools.product(_DOIS, _PMIDS, _TITLES)
        for a, r, dt, e, rr in [(None, None, None, None, None), (None, d, None, None, None),
                                (None, p, None, None, None), (None, "10.1000/abc", None, None, 0)]
    ] + [
        {"title": "T", "doi": "10.1000/a", "arxiv": "1706.03762"},
        {"title": "T", "doi": "10.1000/a", "id_raw": "10.1000/b"},
        {"title": "T", "doi": "10.1000/a", "declared_type": "doi", "id_raw": "10.1000/a"},
        {"title": "T", "doi": "10.1000/a", "parse_error": "broken"},
        {"title": "T", "doi": "10.1000/a", "row_reason": "missing_entry"},
        {"title": "T", "pmid": "77", "row_reason": "no_identifier"},
    ]  # fmt: skip
    table = _table(*rows)
    got = classify(table, closed_legs=legs)
    expected = _decide_rows(table, legs)
    for name, values in expected.items():
        assert got.column(name).to_pylist() == values, name
    assert got.schema == tables.REFERENCES
    # A second pass (the pipeline's, with `id_raw` now written) agrees too.
    again = classify(got, closed_legs=legs)
    for name, values in _decide_rows(got, legs).items():
        assert again.column(name).to_pylist() == values, name


def test_a_doi_holding_a_control_character_has_no_covered_form() -> None:
    # ESC/NUL pasted from a terminal: asked of a register, it came back DOES-NOT-RESOLVE.
    from auditor.classify import infer_type

    assert infer_type("10.1000/\x1b[31mq") == (None, None)
    assert infer_type("10.1000/a\x00") == (None, None)
    assert infer_type("10.1000/ü-x") == ("doi", "10.1000/ü-x")  # non-ASCII stays a DOI


_BY_ID = [
    {"doi": None, "declared_type": "doi", "id_raw": "10.1126/Science.aaf5675"},
    {"declared_type": "arxiv", "id_raw": "1407.3561v2"},
    {"declared_type": "isbn", "id_raw": "9780262035613"},
    {"declared_type": "doi", "id_raw": "not-a-doi"},
    {"declared_type": "pmid", "id_raw": "25648772", "row_reason": "missing_entry"},
]


def test_a_row_cited_by_identifier_needs_no_title_under_v2_only() -> None:
    """auditor/v2 §cited_by_identifier; v1 requires a title of every row."""
    rows = [{**r, "title": None, "source_format": "manuscript"} for r in _BY_ID]
    rows.append({"title": None, "declared_type": "doi", "id_raw": "10.1000/x"})  # a bibliography's
    cols = ("id_type", "identifier", "row_state", "row_reason", "id_raw")
    v2 = classify(_table(*rows), criteria="auditor/v2")
    assert _out(v2, *cols) == [
        ("doi", "10.1126/science.aaf5675", None, None, "10.1126/Science.aaf5675"),
        ("arxiv", "1407.3561", None, None, "1407.3561v2"),
        (None, None, "NOT COVERED", "unsupported_type", "9780262035613"),
        (None, None, "NOT COVERED", "unrecognized_id", "not-a-doi"),
        ("pmid", "25648772", "INVALID", "missing_entry", "25648772"),
        ("doi", "10.1000/x", "INVALID", "missing_title", "10.1000/x"),
    ]
    v1 = classify(_table(*rows), criteria="reference-resolution/v1")
    states = [(s, r) for _, _, s, r, _ in _out(v1, *cols)]
    assert states == [("INVALID", "missing_title")] * 4 + [
        ("INVALID", "missing_entry"),
        ("INVALID", "missing_title"),
    ]
    # Idempotent, and a re-run under the other criteria equals a single run under it.
    assert classify(v2, criteria="auditor/v2").equals(v2)
    assert _out(classify(v2, criteria="reference-resolution/v1"), *cols) == _out(v1, *cols)
    assert _out(classify(v1, criteria="auditor/v2"), *cols) == _out(v2, *cols)
    # A closed leg applies to it as to any row.
    closed = classify(_table(*rows), closed_legs=frozenset({"doi"}))
    assert _out(closed, "row_state", "row_reason")[0] == ("NOT COVERED", "leg_closed")
