"""Freed memory given back to the system between stages.

Arrow's allocator (mimalloc) keeps the pages of freed buffers for reuse. A stage that builds
large transient columns (compare's rule inputs, the checklist's, a report's flat copy) would
otherwise leave the process holding its own peak for the rest of the run, and the next stage's
peak comes on top: a million-row audit held 300-400 MB it no longer used.

NumPy's arrays come from the C library's `malloc`. glibc raises its mmap threshold each time a
mapped block is freed (up to 32 MiB), so after the first few, the large temporaries of compare
and the checklist (an 8 MB index array per million rows) are carved from the heap, whose freed
middle is never returned: a million-row audit ended with 290 MB of it, 190 MB unused.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import pyarrow as pa

__all__ = ["MMAP_THRESHOLD", "give_back", "map_large_blocks"]

#: Blocks of this size or more get a mapping of their own, unmapped when freed: glibc's own
#: starting threshold, kept (1 MiB held 70 MB more at the peak, for the same CPU time).
MMAP_THRESHOLD = 128 << 10
_M_MMAP_THRESHOLD = -3  # glibc's <malloc.h> parameter number


def give_back() -> None:
    """Return the pages Arrow's default pool no longer uses (cheap: no live buffer moves)."""
    pa.default_memory_pool().release_unused()


def map_large_blocks() -> bool:
    """Fix glibc's mmap threshold at `MMAP_THRESHOLD` for this process (which also stops its
    rise), so large freed blocks go back to the system at once; whether it was set (`False`
    where the C library has no `mallopt`, as on macOS or musl)."""
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
