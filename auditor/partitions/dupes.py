"""Duplicate references across pieces, as a distributed step: value buckets, then link pairs.

Two keys of one work may sit in different pieces, so no piece can find its groups alone. The
step gives the groups `overlap.duplicates.find_duplicates` gives over the whole run, and no task
holds all the rows that share a value:

1. Each piece writes the values its rows could be linked by (`cluster_links`) into `buckets`
   tables by a hash of the value (`bucket_links`): every row holding a value lands in one bucket.
2. Per bucket, whether a found arXiv or PubMed record's DOI is also cited as a DOI
   (`bucket_flags`). `find_duplicates` adds the record links of a kind only once that kind
   links anything in the whole run, so the flags are OR-ed over the buckets.
3. Per bucket, with the run's flags (`bucket_shares`): for each `(basis, value)` that two or
   more rows hold, a star of link pairs `(first row, other row)`, and for each row its strongest
   shared `(basis, value)` in the bucket.
4. One task closes the pairs into components (`components`: two int64 a pair, nothing else).
5. Each piece takes its rows' groups, their best shared value over all buckets (`best_values`)
   and its DUPLICATES rows and checklist items (`piece_duplicates`).
"""

from __future__ import annotations

import zlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms, tables
from auditor.checklist import member_items
from auditor.overlap.duplicates import BASES, cluster_links

__all__ = [
    "PAIRS",
    "bucket_flags",
    "bucket_links",
    "bucket_shares",
    "best_values",
    "components",
    "piece_duplicates",
]

#: One link pair: two rows that share a value (`a` is the smaller row of the value's holders).
PAIRS = pa.schema([pa.field("a", pa.int64(), nullable=False), pa.field("b", pa.int64(), False)])
#: A row's strongest shared value in one bucket: `strength` indexes `BASES`.
BEST = pa.schema(
    [pa.field("row_id", pa.int64(), False), pa.field("strength", pa.int8(), False),
     pa.field("value", pa.string())]
)  # fmt: skip
_OWN = pa.array(["doi", "pmid", "arxiv", "url"])
#: `cluster_links`' bases of the record links: arXiv records, PubMed records.
_RECORD_BASES = ("published_version", "pmid_record")


def bucket_links(references: pa.Table, records: pa.Table, buckets: int) -> list[pa.Table]:
    """The piece's `(row_id, basis, value)` links, split into `buckets` tables by value."""
    links = cluster_links(references, records)
    values = links["value"].to_pylist()
    # crc32, not `hash()`: every worker process must put one value in one bucket.
    which = np.fromiter(
        (zlib.crc32((v or "").encode("utf-8", "surrogatepass")) % buckets for v in values),
        dtype=np.int64,
        count=len(values),
    )
    return [links.filter(pa.array(which == b)) for b in range(buckets)]


def _of(links: pa.Table, basis: str) -> pa.Table:
    return links.filter(pc.equal(links["basis"], basis))


def bucket_flags(links: pa.Table) -> tuple[bool, bool]:
    """`(arXiv, PubMed)`: whether a record DOI of that kind in this bucket is cited as a DOI."""
    cited = _of(links, "doi")["value"]
    flags = []
    for basis in _RECORD_BASES:
        named = _of(links, basis)["value"]
        hit = pc.any(pc.is_in(named, value_set=cited.combine_chunks())).as_py()
        flags.append(bool(hit) and len(cited) > 0)
    return flags[0], flags[1]


def _effective(links: pa.Table, arxiv: bool, pubmed: bool) -> pa.Table:
    """The bucket's links as `find_duplicates` links them, given the run's flags."""
    frames = [links.filter(pc.is_in(links["basis"], value_set=_OWN))]
    if arxiv:
        # The arXiv row carries its record's DOI; the rows citing that DOI join it under it.
        named = _of(links, "published_version")
        dois = _of(links, "doi")
        also = dois.filter(pc.is_in(dois["value"], value_set=named["value"].combine_chunks()))
        frames += [named, also.set_column(1, "basis", column_idioms.constant(
            "published_version", also.num_rows))]  # fmt: skip
    if pubmed:
        # A PubMed record's DOI joins the DOI citations under `doi` itself.
        named = _of(links, "pmid_record")
        frames.append(named.set_column(1, "basis", column_idioms.constant("doi", named.num_rows)))
    return pa.concat_tables(frames)


def bucket_shares(links: pa.Table, arxiv: bool, pubmed: bool) -> tuple[pa.Table, pa.Table]:
    """`(PAIRS, BEST)` of one bucket's links under the run's flags (`bucket_flags`, OR-ed).

    A `(basis, value)` held by k distinct rows gives k-1 pairs from its smallest row; `BEST` has
    each row's strongest shared basis, then its smallest value (code-point order).
    """
    eff = _effective(links, arxiv, pubmed)
    if eff.num_rows == 0:
        return tables.empty(PAIRS), tables.empty(BEST)
    encoded = pc.dictionary_encode(eff["value"].combine_chunks())
    rank = pc.index_in(eff["basis"], value_set=pa.array(BASES)).to_numpy()
    link = encoded.indices.to_numpy().astype(np.int64) * len(BASES) + rank
    rows = eff["row_id"].to_numpy()
    order = np.lexsort((rows, link))
    link, rows = link[order], rows[order]
    fresh = np.r_[True, (link[1:] != link[:-1]) | (rows[1:] != rows[:-1])]
    link, rows = link[fresh], rows[fresh]
    start = np.r_[True, link[1:] != link[:-1]]
    group = np.cumsum(start) - 1
    shared = np.bincount(group)[group] >= 2
    link, rows, start = link[shared], rows[shared], start[shared]
    first = rows[start][np.cumsum(start) - 1]
    pairs = pa.table({"a": first[~start], "b": rows[~start]}, schema=PAIRS)
    code, strength = np.divmod(link, len(BASES))
    best = pa.table(
        {"row_id": rows, "strength": strength.astype(np.int8),
         "value": encoded.dictionary.take(pa.array(code))},
        schema=BEST,
    )  # fmt: skip
    return pairs, best_values(best)


def best_values(best: pa.Table) -> pa.Table:
    """One `BEST` row per row: its strongest basis, then its smallest value."""
    if best.num_rows == 0:
        return best
    order = pc.sort_indices(
        best, sort_keys=[("row_id", "ascending"), ("strength", "ascending"), ("value", "ascending")]
    )
    best = best.take(order)
    rows = best["row_id"].to_numpy()
    return best.filter(pa.array(np.r_[True, rows[1:] != rows[:-1]]))


def _positions(ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(ends, return_inverse=True)` with int32 positions, holding less at once:
    `ends` is let go as soon as it is sorted."""
    order = np.argsort(ends)
    ends = ends[order]
    fresh = np.empty(len(ends), bool)
    fresh[:1] = True
    np.not_equal(ends[1:], ends[:-1], out=fresh[1:])
    nodes = ends[fresh]
    del ends
    # Positions, not rows: int32 while fewer than 2**31 rows are grouped (half the memory).
    kind = np.int32 if len(nodes) < 2**31 else np.int64
    position = np.cumsum(fresh, dtype=kind)
    np.subtract(position, 1, out=position)
    del fresh
    inverse = np.empty(len(position), kind)
    inverse[order] = position
    return nodes, inverse


def components(ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`(distinct rows of the pairs ascending, the position in them of each one's component's
    smallest row)`.

    `ends` holds every pair's `a` then every pair's `b`; the caller hands it over (keeps no
    reference), so it is freed once sorted. Minimum labels flow along the pairs, with pointer
    jumping, until nothing changes. Holds at most about 50 bytes per pair (the sort), then
    int32 positions: 8 bytes per pair and 12 per row.
    """
    half = len(ends) // 2
    nodes, inverse = _positions(ends)
    del ends
    ea, eb = inverse[:half], inverse[half:]
    label = np.arange(len(nodes), dtype=inverse.dtype)
    while True:
        low = np.minimum(label[ea], label[eb])
        new = label.copy()
        np.minimum.at(new, ea, low)
        np.minimum.at(new, eb, low)
        jumped = new[new]
        while not np.array_equal(jumped, new):
            new, jumped = jumped, jumped[jumped]
        if np.array_equal(new, label):
            return nodes, label
        label = new


def piece_duplicates(
    references: pa.Table, groups: pa.Table, best: pa.Table, leaders: pa.Table
) -> tuple[pa.Table, pa.Table]:
    """`(DUPLICATES rows, their P3 checklist items)` of one piece's group members.

    `groups` are the piece's members `(row_id, group_id, leader)`; `best` their `BEST` rows from
    every bucket; `leaders` the `(group_id, key)` of each group's first row, wherever it is.
    """
    if groups.num_rows == 0:
        return tables.empty(tables.DUPLICATES), tables.empty(tables.CHECKLIST)
    groups = groups.take(
        pc.sort_indices(groups, [("group_id", "ascending"), ("row_id", "ascending")])
    )
    ids = groups["row_id"]
    mine = best_values(best.filter(pc.is_in(best["row_id"], value_set=ids.combine_chunks())))
    chosen = mine.take(pc.index_in(ids, value_set=mine["row_id"]))
    refs = references.take(pc.index_in(ids, value_set=references["row_id"]))
    found = pa.Table.from_arrays(
        [groups["group_id"].cast(pa.int32()), ids, refs["key"],
         pa.array(BASES).take(chosen["strength"].cast(pa.int64())), chosen["value"]],
        schema=tables.DUPLICATES,
    )  # fmt: skip
    later = pc.not_equal(groups["row_id"], groups["leader"])
    leader_key = leaders["key"].take(pc.index_in(groups["group_id"], value_set=leaders["group_id"]))
    first_key = column_idioms.first_truthy(
        leader_key.filter(later), column_idioms.constant("?", pc.sum(later).as_py() or 0)
    )
    return found, member_items(found.filter(later), references, first_key)
