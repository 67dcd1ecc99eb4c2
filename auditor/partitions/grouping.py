"""The duplicate step's tasks, each reading and writing the staging folder (`dupes` computes).

Per value bucket: `flag_task` (does a record DOI of a kind meet a DOI citation here), then
`share_task` (the bucket's link pairs and each row's best shared value). One `component_task`
closes the pairs into groups and names each group's first key. Each piece's finish then calls
`piece_groups` for its own members, and `order_task`s write `duplicates/` in group order, one
range of groups each.

What each task holds: a bucket task, one bucket's links (a share of the run's values); the
component task, the pairs (two int64 each) and three integers per grouped row, then one piece's
`row_id`/`key` columns at a time; a piece, its own members; an order task, its range's rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.partitions import layout
from auditor.partitions.dupes import (
    BEST,
    bucket_flags,
    bucket_shares,
    components,
    piece_duplicates,
)

__all__ = ["Grouped", "component_task", "flag_task", "order_task", "piece_groups", "share_task"]

GROUPS = pa.schema(
    [pa.field("row_id", pa.int64(), False), pa.field("group_id", pa.int32(), False),
     pa.field("leader", pa.int64(), False)]
)  # fmt: skip
LEADERS = pa.schema([pa.field("group_id", pa.int32(), False), pa.field("key", pa.string())])


@dataclass(frozen=True)
class Grouped:
    """What `component_task` hands back: small, whatever the run's size."""

    groups: int
    ranges: tuple[tuple[int, int], ...]
    """`[first, last]` group ids of each `duplicates/` part, about `partition_rows` rows each."""


def _dataset(folder: Path, pattern: str = "*.parquet") -> Any:
    import pyarrow.dataset as ds

    files = sorted(str(p) for p in folder.glob(pattern))
    return ds.dataset(files, format="parquet") if files else None


def _links(out: Path, bucket: int) -> pa.Table:
    found = _dataset(out / layout.STAGING / "links" / f"bucket-{bucket:04d}")
    if found is None:
        return pa.table({"row_id": pa.array([], pa.int64()), "basis": pa.array([], pa.string()),
                         "value": pa.array([], pa.string())})  # fmt: skip
    table: pa.Table = found.to_table(columns=["row_id", "basis", "value"])
    return table


def flag_task(bucket: int, out: str) -> tuple[bool, bool]:
    """`dupes.bucket_flags` of one bucket's links from every piece."""
    return bucket_flags(_links(Path(out), bucket))


def share_task(bucket: int, out: str, flags: Sequence[tuple[bool, bool]]) -> int:
    """Write one bucket's pairs and best values under the run's flags; returns its pair count."""
    root = Path(out) / layout.STAGING
    arxiv, pubmed = any(f[0] for f in flags), any(f[1] for f in flags)
    pairs, best = bucket_shares(_links(Path(out), bucket), arxiv, pubmed)
    layout.write_part(root / "pairs" / layout.part_name(bucket), pairs)
    layout.write_part(root / "best" / layout.part_name(bucket), best)
    return int(pairs.num_rows)


def _ranges(sizes: np.ndarray, rows: int) -> tuple[tuple[int, int], ...]:
    """Consecutive group ids (1-based) cut where a range would pass `rows` members."""
    out: list[tuple[int, int]] = []
    first, held = 1, 0
    for gid, size in enumerate(sizes.tolist(), start=1):
        if held and held + size > rows:
            out.append((first, gid - 1))
            first, held = gid, 0
        held += size
    if held:
        out.append((first, len(sizes)))
    return tuple(out)


def _leader_keys(out: Path, spans: Sequence[tuple[int, int, int]], leaders: np.ndarray) -> pa.Table:
    """`(row_id, key)` of the `leaders` rows, read one piece's two columns at a time."""
    import pyarrow.dataset as ds

    found = []
    for index, first, rows in spans:
        inside = leaders[(leaders >= first) & (leaders < first + rows)]
        if len(inside):
            part = ds.dataset(str(layout.staged(out, "refs", index)), format="parquet")
            wanted = pc.field("row_id").isin(pa.array(inside))
            found.append(part.to_table(columns=["row_id", "key"], filter=wanted))
    if not found:
        return pa.table({"row_id": pa.array([], pa.int64()), "key": pa.array([], pa.string())})
    return pa.concat_tables(found)


def _pair_ends(folder: Path) -> np.ndarray:
    """Every pair file's `a` column, then every `b`, in one int64 array filled file by file."""
    import pyarrow.parquet as pq

    files = sorted(folder.glob("part-*.parquet"))
    counts = [pq.ParquetFile(f).metadata.num_rows for f in files]
    total = sum(counts)
    ends = np.empty(2 * total, np.int64)
    at = 0
    for path, count in zip(files, counts, strict=True):
        part = pq.read_table(path, columns=["a", "b"])
        ends[at : at + count] = part["a"].to_numpy()
        ends[total + at : total + at + count] = part["b"].to_numpy()
        at += count
    return ends


def component_task(
    out: str, spans: Sequence[tuple[int, int, int]], partition_rows: int, after: Sequence[int]
) -> Grouped:
    """Close every bucket's pairs into groups: writes `_parts/groups.parquet` (`row_id`,
    `group_id`, `leader`: the group's first row; by `row_id`) and `_parts/leaders.parquet`.

    `spans` are the pieces' `(index, first row_id, rows)`; `after` the share tasks' counts.
    """
    root = Path(out)
    ends = _pair_ends(root / layout.STAGING / "pairs")
    if len(ends) == 0:
        layout.write_part(root / layout.STAGING / "groups.parquet", tables.empty(GROUPS))
        layout.write_part(root / layout.STAGING / "leaders.parquet", tables.empty(LEADERS))
        return Grouped(0, ())
    rows, label = components(ends)
    # Group ids in the order of each group's first row, as `find_duplicates` numbers them.
    first = label == np.arange(len(label), dtype=label.dtype)
    leaders = rows[first]
    group_id = np.cumsum(first, dtype=np.int32)[label]
    groups = pa.table({"row_id": rows, "group_id": group_id, "leader": rows[label]}, schema=GROUPS)
    layout.write_part(root / layout.STAGING / "groups.parquet", groups)
    keys = _leader_keys(root, spans, leaders)
    at = pc.index_in(pa.array(leaders), value_set=keys["row_id"])
    named = pa.table(
        {"group_id": pa.array(np.arange(1, len(leaders) + 1, dtype=np.int32)),
         "key": keys["key"].take(at)},
        schema=LEADERS,
    )  # fmt: skip
    layout.write_part(root / layout.STAGING / "leaders.parquet", named)
    sizes = np.bincount(group_id)[1:]
    return Grouped(len(leaders), _ranges(sizes, max(partition_rows, 1)))


def piece_groups(out: str, index: int, references: pa.Table) -> tuple[pa.Table, pa.Table]:
    """`(DUPLICATES rows, duplicate items)` of one piece's rows (`references`, one piece);
    stages the rows for the order tasks."""
    import pyarrow.dataset as ds

    root = Path(out) / layout.STAGING
    ids = references["row_id"]
    first, last = pc.min(ids).as_py(), pc.max(ids).as_py()
    if first is None:
        return tables.empty(tables.DUPLICATES), tables.empty(tables.CHECKLIST)
    inside = (pc.field("row_id") >= first) & (pc.field("row_id") <= last)
    groups = ds.dataset(str(root / "groups.parquet"), format="parquet").to_table(filter=inside)
    best = tables.empty(BEST)
    if groups.num_rows:
        found = _dataset(root / "best")
        best = found.to_table(filter=inside) if found is not None else best
    wanted = pc.unique(groups["group_id"]) if groups.num_rows else pa.array([], pa.int32())
    leaders = ds.dataset(str(root / "leaders.parquet"), format="parquet").to_table(
        filter=pc.field("group_id").isin(wanted)
    )
    duplicates, items = piece_duplicates(references, groups, best, leaders)
    if duplicates.num_rows:
        layout.write_part(root / "dups" / layout.part_name(index), duplicates)
    return duplicates, items


def order_task(index: int, ids: tuple[int, int], out: str) -> int:
    """Write `duplicates/part-<index>.parquet`: the groups `ids[0]..ids[1]`, in group order then
    input order (the single-process table's order). Returns its rows."""
    found = _dataset(Path(out) / layout.STAGING / "dups")
    if found is None:
        return 0
    inside = (pc.field("group_id") >= ids[0]) & (pc.field("group_id") <= ids[1])
    rows = found.to_table(filter=inside)
    rows = rows.take(pc.sort_indices(rows, [("group_id", "ascending"), ("row_id", "ascending")]))
    layout.write_part(
        Path(out) / "duplicates" / layout.part_name(index), rows.cast(tables.DUPLICATES)
    )
    return int(rows.num_rows)
