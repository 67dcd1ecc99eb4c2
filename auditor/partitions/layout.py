"""Where a cluster run's files go inside `--out`: the outputs, and the staging between steps.

Outputs (kept): `verdicts/part-NNNNN.parquet` (the report's verdict rows of one piece, pieces in
row order), `checklist/P0/part-NNNNN.parquet` … `checklist/P3/…` (one folder per priority, so
reading the folders in priority order and the parts in order gives the checklist's global
order: priority, then input order), `duplicates/part-NNNNN.parquet` (consecutive ranges of
duplicate groups: in name order, the single-process table's order), and `parts.json`.

Staging (`_parts/`, removed at the end): each piece's references, records, verdicts and
checklist before the duplicate step, its links by bucket, and the duplicate step's files (link
pairs and best values by bucket, the groups, their first keys, each piece's group rows).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from auditor.files import atomic_write_parquet

__all__ = ["STAGING", "part_name", "read_part", "staged", "write_part"]

STAGING = "_parts"
#: The checklist folder of an item whose priority is none of P0…P3 (sorted last, as Arrow does).
OTHER_PRIORITY = "other"


def part_name(index: int) -> str:
    """`part-NNNNN.parquet`: sorted by name is sorted by piece."""
    return f"part-{index:05d}.parquet"


def staged(out: Path, kind: str, index: int) -> Path:
    """The staging file of one piece's table `kind` (`refs`, `records`, `verdicts`, …)."""
    return out / STAGING / kind / part_name(index)


def bucket_path(out: Path, bucket: int, index: int) -> Path:
    """Piece `index`'s links whose value hashes to `bucket`."""
    return out / STAGING / "links" / f"bucket-{bucket:04d}" / part_name(index)


def write_part(path: Path, table: pa.Table) -> Path:
    """Write one part atomically (temp file beside it, then rename), folders created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write_parquet(path, table)


def read_part(path: Path) -> pa.Table:
    """Read one part back whole (a part is one piece: it fits a worker)."""
    return pq.read_table(path)
