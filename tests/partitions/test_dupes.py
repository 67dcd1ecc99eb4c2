"""The distributed duplicate step (value buckets, link pairs, components) gives the groups, ids,
member order, bases and checklist items `find_duplicates` gives over the whole table, however
the rows are cut into pieces and the values into buckets."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor import tables
from auditor.checklist import duplicate_items
from auditor.overlap.duplicates import find_duplicates
from auditor.partitions import layout
from auditor.partitions.dupes import bucket_links, components
from auditor.partitions.grouping import (
    component_task,
    flag_task,
    order_task,
    piece_groups,
    share_task,
)
from tests.properties import examples


def _refs(rows: list[dict[str, Any]]) -> pa.Table:
    return tables.from_rows(
        [{"row_id": i, "source_path": "t.bib", "source_line": 3 * i + 1, "key": f"k{i}", **r}
         for i, r in enumerate(rows)],
        tables.REFERENCES,
    )  # fmt: skip


def _records(rows: list[dict[str, Any]]) -> pa.Table:
    return tables.from_rows(
        [{"register": r["id_type"], "status": "found", **r} for r in rows], tables.RECORDS
    )


def distributed(refs: pa.Table, records: pa.Table, cuts: list[int], buckets: int, out: Path):
    """The cluster's duplicate step run in order in this process, pieces cut at `cuts`."""
    bounds = [0, *sorted(set(cuts)), refs.num_rows]
    spans = []
    for index, (first, last) in enumerate(zip(bounds, bounds[1:], strict=False)):
        piece = refs.slice(first, last - first)
        layout.write_part(layout.staged(out, "refs", index), piece)
        for bucket, links in enumerate(bucket_links(piece, records, buckets)):
            if links.num_rows:
                layout.write_part(layout.bucket_path(out, bucket, index), links)
        spans.append((index, first, last - first))
    flags = [flag_task(b, str(out)) for b in range(buckets)]
    shared = [share_task(b, str(out), flags) for b in range(buckets)]
    grouped = component_task(str(out), spans, 3, shared)
    items = []
    for index, first, rows in spans:
        items.append(piece_groups(str(out), index, refs.slice(first, rows))[1])
    for index, ids in enumerate(grouped.ranges):
        order_task(index, ids, str(out))
    parts = sorted((out / "duplicates").glob("part-*.parquet"))
    found = [layout.read_part(p) for p in parts]
    dups = pa.concat_tables(found) if found else tables.empty(tables.DUPLICATES)
    assert grouped.groups == (len(set(dups["group_id"].to_pylist())) if dups.num_rows else 0)
    return dups, pa.concat_tables(items)


def _same(refs: pa.Table, records: pa.Table, cuts: list[int], buckets: int, out: Path) -> None:
    single = find_duplicates(refs, records)
    dups, items = distributed(refs, records, cuts, buckets, out)
    assert dups.to_pylist() == single.to_pylist()
    # Items come per piece in input order; the single run's in group order: same set, one each.
    want = sorted(duplicate_items(single, refs).to_pylist(), key=lambda r: r["row_id"])
    assert sorted(items.to_pylist(), key=lambda r: r["row_id"]) == want


def _bucket(value: str, buckets: int) -> int:
    return zlib.crc32(value.encode()) % buckets


def test_a_chain_across_pieces_and_buckets(tmp_path: Path) -> None:
    # A shares a DOI with B, B an arXiv id with C, C a PMID whose record's DOI D cites, E a URL
    # with A; each in its own piece, and the values in different buckets.
    doi, arxiv, url = "10.1000/chain.1", "2101.00001", "https://example.org/paper/7"
    assert len({_bucket(v, 4) for v in (doi, arxiv, "10.1000/pm.2", url)}) >= 3
    refs = _refs([
        {"doi": doi, "url": url},
        {"id_type": "unknown"},
        {"doi": doi.upper(), "arxiv": arxiv},
        {"arxiv": f"{arxiv}v2", "pmid": "31000"},
        {"doi": "10.1000/pm.2"},
        {"url": url.upper().replace("EXAMPLE.ORG/PAPER", "example.org/paper")},
        {"doi": "10.1000/alone"},
    ])  # fmt: skip
    records = _records([{"id_type": "pmid", "identifier": "31000", "doi": "10.1000/PM.2"}])
    single = find_duplicates(refs, records)
    assert single["row_id"].to_pylist() == [0, 2, 3, 4, 5]  # one group through every link
    _same(refs, records, [1, 2, 3, 4, 5, 6], 4, tmp_path)


def test_preprint_links_count_only_once_a_record_doi_is_cited(tmp_path: Path) -> None:
    # Two preprints whose records name one DOI nobody cites: linked only because another
    # preprint's record DOI is cited elsewhere (the rule as written), in other pieces.
    refs = _refs([
        {"arxiv": "1111.0001"}, {"arxiv": "1111.0002"},
        {"arxiv": "2222.0001"}, {"doi": "10.1/cited"},
    ])  # fmt: skip
    linked = _records([
        {"id_type": "arxiv", "identifier": "1111.0001", "doi": "10.1/uncited"},
        {"id_type": "arxiv", "identifier": "1111.0002", "doi": "10.1/uncited"},
        {"id_type": "arxiv", "identifier": "2222.0001", "doi": "10.1/CITED"},
    ])  # fmt: skip
    assert find_duplicates(refs, linked).num_rows == 4
    _same(refs, linked, [1, 2, 3], 3, tmp_path / "a")
    unlinked = linked.slice(0, 2)
    assert find_duplicates(refs, unlinked).num_rows == 0
    _same(refs, unlinked, [1, 2, 3], 3, tmp_path / "b")


def test_components_of_pairs() -> None:
    a, b = np.array([5, 1, 9, 2], np.int64), np.array([7, 5, 11, 9])
    rows, root = components(np.concatenate([a, b]))
    assert rows.tolist() == [1, 2, 5, 7, 9, 11]
    assert rows[root].tolist() == [1, 2, 1, 1, 2, 2]


_dois = st.sampled_from([None, " ", "10.1/a", "10.1/B", "10.1/c", "https://doi.org/10.1/a"])
_small = st.sampled_from([None, "1", "2", "3"])
_urls = st.sampled_from([None, "https://x.org/p/1", "http://x.org/p/1/", "https://x.org/"])
_row = st.fixed_dictionaries(
    {"doi": _dois, "pmid": _small, "arxiv": _small, "url": _urls,
     "key": st.sampled_from(["", "k", None, "z"])}
)  # fmt: skip
_record = st.tuples(st.sampled_from(["arxiv", "pmid"]), _small, _dois, st.booleans())


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(_row, min_size=0, max_size=14),
    st.lists(_record, max_size=5),
    st.lists(st.integers(1, 13), max_size=5),
    st.integers(1, 5),
)
def test_any_cut_and_any_buckets_give_the_single_table(
    tmp_path_factory: Any,
    rows: list[dict[str, Any]],
    recs: list[tuple[str, str | None, str | None, bool]],
    cuts: list[int],
    buckets: int,
) -> None:
    refs = _refs(rows)
    records = _records(
        [{"id_type": kind, "identifier": ident, "doi": doi,
          "status": "found" if found else "not_found"}
         for kind, ident, doi, found in recs if ident is not None]
    )  # fmt: skip
    cuts = [c for c in cuts if c < len(rows)]
    _same(refs, records, cuts, buckets, tmp_path_factory.mktemp("d"))
