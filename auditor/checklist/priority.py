"""Checklist priorities: their order, and the rank by which every sort of items orders them."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["PRIORITY_ORDER", "priority_rank"]

#: Priorities from most to least urgent; unknown priorities sort last.
PRIORITY_ORDER: tuple[str, ...] = ("P0", "P1", "P2", "P3")


def priority_rank(priority: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Each priority's place in `PRIORITY_ORDER` (P0 → 0), `len(PRIORITY_ORDER)` for a null or
    unknown one, so that it sorts last."""
    rank: pa.Array | pa.ChunkedArray = pc.fill_null(
        pc.index_in(priority, value_set=pa.array(PRIORITY_ORDER)), len(PRIORITY_ORDER)
    )
    return rank
