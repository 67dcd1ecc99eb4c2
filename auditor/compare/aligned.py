"""The record columns compare reads, aligned with the references: taken once, side by side.

Row `i` of an aligned column is the value of the record reference `i` joined (`idx[i]`), null
where it joined none (-1). Each is one gather of random rows (a million of them for a large run),
the longest single kernel of compare after the rules themselves; Arrow's `take` lets go of the
interpreter lock, so two threads gather two columns at once. Each stage then keeps the rows it
reads (`found_only`) from the same column instead of gathering it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["Aligned", "align"]

#: Columns gathered at once: the machine's cores are what a gather waits on.
_THREADS = 2


@dataclass(frozen=True)
class Aligned:
    """Record columns row-aligned with the references (see the module's text)."""

    columns: Mapping[str, pa.Array]
    present: np.ndarray
    """Per reference: it joined a record (`idx >= 0`)."""

    def found_only(self, name: str, keep: np.ndarray) -> pa.Array:
        """The `name` column where `keep`, null elsewhere."""
        column = self.columns[name]
        # Rows joined to no record are null already: only other rows left out need masking.
        if bool(np.all(keep | ~self.present)):
            return column
        return pc.if_else(pa.array(keep), column, pa.scalar(None, column.type))


def _gather(column: pa.ChunkedArray, picked: pa.Array) -> pa.Array:
    taken = pc.take(column, picked)
    return taken.combine_chunks() if isinstance(taken, pa.ChunkedArray) else taken


def align(records: pa.Table, idx: np.ndarray, names: Sequence[str]) -> Aligned:
    """`records[name][idx]` for each of `names`, null where `idx` is -1."""
    missing = idx < 0
    if records.num_rows == 0:
        nulls = {name: pa.nulls(len(idx), records.schema.field(name).type) for name in names}
        return Aligned(nulls, ~missing)
    picked = pa.array(np.where(missing, 0, idx), mask=missing, type=pa.int64())
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        taken = list(pool.map(lambda name: _gather(records[name], picked), names))
    return Aligned(dict(zip(names, taken, strict=True)), ~missing)
