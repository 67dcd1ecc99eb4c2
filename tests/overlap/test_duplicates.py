"""Duplicate groups inside an audit: same ids, same URL, preprint and published version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor import tables
from auditor.overlap.duplicates import attach_group_ids, find_duplicates
from tests.properties import examples

FIXTURES = Path(__file__).parent / "fixtures"


def refs(*rows: dict[str, Any]) -> pa.Table:
    return tables.from_rows(
        [{"row_id": i, "source_path": "t.bib", "key": f"k{i}", **r} for i, r in enumerate(rows)],
        tables.REFERENCES,
    )


def records(*rows: dict[str, Any]) -> pa.Table:
    return tables.from_rows(
        [{"register": r["id_type"], "status": "found", **r} for r in rows], tables.RECORDS
    )


NO_RECORDS = tables.empty(tables.RECORDS)


def groups(table: pa.Table) -> list[list[tuple[int, str, str]]]:
    out: dict[int, list[tuple[int, str, str]]] = {}
    for row in table.to_pylist():
        out.setdefault(row["group_id"], []).append((row["row_id"], row["basis"], row["value"]))
    assert list(out) == list(range(1, len(out) + 1))
    return list(out.values())


def test_bibliography_with_preprint_and_same_doi_twice() -> None:
    from auditor.load import load_files

    references = load_files([str(FIXTURES / "duplicates.bib")]).table
    arxiv = records(
        {"id_type": "arxiv", "identifier": "1706.03762", "doi": "10.5555/3295222.3295349"}
    )
    dup = find_duplicates(references, arxiv)
    assert dup.schema == tables.DUPLICATES
    assert dup.to_pylist() == [
        {"group_id": 1, "row_id": 0, "key": "vaswani2017preprint", "basis": "published_version",
         "value": "10.5555/3295222.3295349"},
        {"group_id": 1, "row_id": 1, "key": "vaswani2017nips", "basis": "published_version",
         "value": "10.5555/3295222.3295349"},
        {"group_id": 2, "row_id": 2, "key": "smith2020", "basis": "doi",
         "value": "10.1000/xyz.123"},
        {"group_id": 2, "row_id": 3, "key": "smith2020dup", "basis": "doi",
         "value": "10.1000/xyz.123"},
        {"group_id": 2, "row_id": 4, "key": "smith2020web", "basis": "url",
         "value": "https://example.org/paper"},
    ]  # fmt: skip
    # Without the arXiv record the preprint is only itself: no register request is made here.
    assert [r for r, _, _ in groups(find_duplicates(references, NO_RECORDS))[0]] == [2, 3, 4]


def test_arxiv_version_is_ignored() -> None:
    dup = find_duplicates(refs({"arxiv": "2101.00001v1"}, {"arxiv": "2101.00001V3"}), NO_RECORDS)
    assert groups(dup) == [[(0, "arxiv", "2101.00001"), (1, "arxiv", "2101.00001")]]


def test_identifier_column_counts_when_typed_columns_are_empty() -> None:
    table = refs({"id_type": "pmid", "identifier": "12345"}, {"pmid": "12345"}, {"doi": "10.1/a"})
    assert groups(find_duplicates(table, NO_RECORDS)) == [
        [(0, "pmid", "12345"), (1, "pmid", "12345")]
    ]


def test_pubmed_record_doi_joins_the_doi_citation() -> None:
    table = refs({"pmid": "999"}, {"doi": "10.2/Z"}, {"pmid": "998"})
    pubmed = records(
        {"id_type": "pmid", "identifier": "999", "doi": "10.2/z"},
        {"id_type": "pmid", "identifier": "998", "doi": "10.2/not-cited"},
    )
    assert groups(find_duplicates(table, pubmed)) == [[(0, "doi", "10.2/z"), (1, "doi", "10.2/z")]]


def test_records_that_are_not_found_link_nothing() -> None:
    table = refs({"arxiv": "2101.00001"}, {"doi": "10.1/a"})
    for status in ("not_found", "unreachable", "not_covered"):
        rec = records(
            {"id_type": "arxiv", "identifier": "2101.00001", "doi": "10.1/a", "status": status}
        )
        assert find_duplicates(table, rec).num_rows == 0


def test_urls_use_the_contract_normalization() -> None:
    table = refs(
        {"url": "https://A.example:443/p#x"},
        {"url": "https://a.example/p"},
        {"url": "https://a.example/p?x=1"},  # query significant
        {"url": "http://a.example/p"},  # another scheme is another URL
        {"url": "not a url"},
        {"url": "https://b.example/x"},
        {"url": "https://B.example:443/x"},
        {"url": "https://www.cnki.net"},  # a site's home page names no work
        {"url": "https://www.cnki.net/"},
        {"url": "https://c.example/?id=1"},  # ... but a query on it may
        {"url": "https://c.example?id=1"},
    )
    assert groups(find_duplicates(table, NO_RECORDS)) == [
        [(0, "url", "https://a.example/p"), (1, "url", "https://a.example/p")],
        [(5, "url", "https://b.example/x"), (6, "url", "https://b.example/x")],
        [(9, "url", "https://c.example/?id=1"), (10, "url", "https://c.example/?id=1")],
    ]


def test_transitive_closure_and_strongest_basis() -> None:
    table = refs(
        {"doi": "10.1/a", "url": "https://x.example/p"},
        {"url": "https://x.example/p", "pmid": "7"},
        {"pmid": "7"},
        {"doi": "10.1/A"},
    )
    assert groups(find_duplicates(table, NO_RECORDS)) == [
        [(0, "doi", "10.1/a"), (1, "pmid", "7"), (2, "pmid", "7"), (3, "doi", "10.1/a")]
    ]


def test_no_duplicates_and_empty_input() -> None:
    assert find_duplicates(refs({"doi": "10.1/a"}, {"doi": "10.1/b"}), NO_RECORDS).num_rows == 0
    empty = find_duplicates(tables.empty(tables.REFERENCES), NO_RECORDS)
    assert empty.num_rows == 0 and empty.schema == tables.DUPLICATES


def test_attach_group_ids() -> None:
    table = refs({"doi": "10.1/a"}, {"doi": "10.1/b"}, {"doi": "10.1/a"})
    verdicts = tables.from_rows(
        [{"row_id": i, "source_path": "t.bib", "verdict": "NOT COVERED", "criteria_id": "c"}
         for i in range(3)],
        tables.VERDICTS,
    )  # fmt: skip
    out = attach_group_ids(verdicts, find_duplicates(table, NO_RECORDS))
    assert out.column("group_id").to_pylist() == [1, None, 1]
    assert out.schema == tables.VERDICTS


_values = st.sampled_from([None, "1", "2", "3"])


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(_values, _values, _values), min_size=0, max_size=12))
def test_groups_are_the_connected_components(rows: list[tuple[str | None, ...]]) -> None:
    table = refs(
        *(
            {"doi": d and f"10.1/{d}", "pmid": p, "url": u and f"https://h.example/{u}"}
            for d, p, u in rows
        )
    )
    # Oracle: plain pairwise flood fill over "shares a non-null value in the same column".
    n = len(rows)
    adjacent = {
        i: {
            j
            for j in range(n)
            if j != i and any(a and a == b for a, b in zip(rows[i], rows[j], strict=True))
        }
        for i in range(n)
    }
    components: list[list[int]] = []
    seen: set[int] = set()
    for i in range(n):
        if i in seen or not adjacent[i]:
            continue
        stack, comp = [i], set()
        while stack:
            k = stack.pop()
            if k not in comp:
                comp.add(k)
                stack.extend(adjacent[k])
        seen |= comp
        components.append(sorted(comp))
    got = [[r for r, _, _ in g] for g in groups(find_duplicates(table, NO_RECORDS))]
    assert got == components


def test_prefixes_case_and_whitespace_fold_in_ascii_and_beyond() -> None:
    table = refs(
        {"doi": "DOI:10.1/Ünï"},
        {"doi": "\u3000https://dx.doi.org/10.1/ünï "},
        {"doi": "10.1/ÜNÏ"},
        {"doi": "HTTP://DOI.ORG/10.2/A"},
        {"doi": "\t10.2/a"},
        {"pmid": " 77\u3000"},
        {"id_type": "pmid", "identifier": "77"},
        {"doi": "10.3/elsewhere"},
    )
    assert groups(find_duplicates(table, NO_RECORDS)) == [
        [(0, "doi", "10.1/ünï"), (1, "doi", "10.1/ünï"), (2, "doi", "10.1/ünï")],
        [(3, "doi", "10.2/a"), (4, "doi", "10.2/a")],
        [(5, "pmid", "77"), (6, "pmid", "77")],
    ]


def test_a_long_chain_is_one_group_and_members_name_their_smallest_strongest_value() -> None:
    # Row i cites DOI 10.9/i and a PMID whose record names row i+1's DOI: eight rows, one chain,
    # given in reverse order. Row 3 and row 5 also share a URL, a weaker basis than a DOI.
    rows = [
        {"row_id": i, "source_path": "t.bib", "key": f"k{i}", "doi": f"10.9/{i}",
         "pmid": str(100 + i), "url": "https://x.example/p" if i in (3, 5) else None}
        for i in reversed(range(8))
    ]  # fmt: skip
    pubmed = records(
        *({"id_type": "pmid", "identifier": str(100 + i), "doi": f"10.9/{i + 1}"} for i in range(7))
    )
    [group] = groups(find_duplicates(tables.from_rows(rows, tables.REFERENCES), pubmed))
    assert group == [(0, "doi", "10.9/1"), *((i, "doi", f"10.9/{i}") for i in range(1, 8))]
