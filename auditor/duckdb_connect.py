"""The one way a DuckDB connection is opened: in memory, bounded, as parallel as Arrow is.

Its settings are the connection's configuration, never pasted into a statement. DuckDB would
start a thread per core of the machine; it takes Arrow's CPU count instead, which follows
`OMP_NUM_THREADS`. A Dask worker's nanny sets that to the worker's share (1), so two workers on
a many-core machine do not each run a join on every core, with the buffers of every thread,
inside a memory limit sized for one piece.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

__all__ = ["connect"]


def connect(memory: str, *, threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A fresh in-memory connection capped at `memory` (DuckDB's size syntax: `1GB`), on
    `threads` threads (default: Arrow's CPU count)."""
    return duckdb.connect(
        ":memory:",
        config={
            "memory_limit": memory,
            "preserve_insertion_order": False,
            "threads": threads or pa.cpu_count(),
        },
    )
