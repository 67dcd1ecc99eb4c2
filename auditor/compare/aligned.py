"""The record columns compare reads, aligned with the references and gathered side by side.

Row `i` of a gathered column is the value of the record reference `i` joined (`idx[i]`) where
the stage reads it, null elsewhere. Each is one gather of random rows (a million of them for a
large run), the longest single kernel of compare after the rules themselves; Arrow's `take` lets
go of the interpreter lock, so two threads gather two columns at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["gather_found", "take_found"]

#: Columns gathered at once: the machine's cores are what a gather waits on.
_THREADS = 2


def take_found(column: pa.ChunkedArray, index: np.ndarray, keep: np.ndarray) -> pa.Array:
    """`column[index]` where `keep`, null elsewhere (and where `index` is -1)."""
    if len(column) == 0:
        return pa.nulls(len(index), column.type)
    mask = ~keep | (index < 0)
    picked = pa.array(np.where(mask, 0, index), mask=mask, type=pa.int64())
    taken = pc.take(column, picked)
    return taken.combine_chunks() if isinstance(taken, pa.ChunkedArray) else taken


def gather_found(
    records: pa.Table, index: np.ndarray, wanted: Mapping[str, tuple[str, np.ndarray]]
) -> dict[str, pa.Array]:
    """For each `key: (column, keep)` of `wanted`, `take_found(records[column], index, keep)`,
    two at a time (the first keys first: the largest columns, so the threads end together)."""
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        taken = list(
            pool.map(lambda item: take_found(records[item[0]], index, item[1]), wanted.values())
        )
    return dict(zip(wanted, taken, strict=True))
