"""Duplicate references across partitions, as a distributed step: hash-partitioned by value.

Two keys of one work may sit in different partitions, so no partition can find its groups alone.
Each partition task writes the values its rows could be linked by (`cluster_links`: normalized
DOI, PMID, arXiv id, URL, and the DOIs of their found arXiv/PubMed records) into `buckets`
files by a hash of the value, so every row holding a value lands in the same bucket. One task per
bucket keeps the rows whose value another row shares (`candidates`): the only rows a group can
hold. The candidates are few beside the run, and one task gathers just their rows and records
and calls `find_duplicates` itself (`groups`), so the groups, their ids (in order of each
group's first row) and their checklist items are the single-process run's.
"""

from __future__ import annotations

import zlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.checklist import duplicate_items
from auditor.overlap.duplicates import cluster_links, find_duplicates

__all__ = ["bucket_links", "candidates", "groups"]


def bucket_links(references: pa.Table, records: pa.Table, buckets: int) -> list[pa.Table]:
    """The partition's `(row_id, basis, value)` links, split into `buckets` tables by value."""
    links = cluster_links(references, records)
    values = links["value"].to_pylist()
    # crc32, not `hash()`: every worker process must put one value in one bucket.
    which = np.fromiter(
        (zlib.crc32((v or "").encode("utf-8", "surrogatepass")) % buckets for v in values),
        dtype=np.int64,
        count=len(values),
    )
    return [links.filter(pa.array(which == b)) for b in range(buckets)]


def candidates(links: pa.Table) -> pa.Array:
    """Sorted distinct `row_id`s of one bucket's links that share a value with another row: the
    same `(basis, value)`, or a record's `published_version` DOI that a row cites as `doi`."""
    if links.num_rows == 0:
        return pa.array([], pa.int64())
    distinct = links.group_by(["basis", "value", "row_id"]).aggregate([])
    counts = distinct.group_by(["basis", "value"]).aggregate([("row_id", "count")])
    shared = counts.filter(pc.greater_equal(counts["row_id_count"], 2))
    rows = [distinct.join(shared, keys=["basis", "value"], join_type="inner")["row_id"]]
    published = distinct.filter(pc.equal(distinct["basis"], "published_version"))
    cited = distinct.filter(pc.equal(distinct["basis"], "doi"))
    for near, far in ((published, cited), (cited, published)):
        rows.append(near.filter(pc.is_in(near["value"], value_set=far["value"]))["row_id"])
    joined = pa.chunked_array([c for r in rows for c in r.chunks], pa.int64())
    return pc.unique(joined).sort()


def groups(references: pa.Table, records: pa.Table) -> tuple[pa.Table, pa.Table]:
    """`(DUPLICATES, their P3 CHECKLIST items)` of the candidate rows `references` (every column,
    `row_id` ascending) with the records of their identifiers."""
    if references.num_rows == 0:
        return tables.empty(tables.DUPLICATES), tables.empty(tables.CHECKLIST)
    found = find_duplicates(references, records)
    return found, duplicate_items(found, references)
