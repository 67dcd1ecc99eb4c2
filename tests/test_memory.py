"""Large freed blocks go back to the system (`auditor.memory.map_large_blocks`)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import subprocess
import sys

import pytest

from auditor.memory import map_large_blocks

_GLIBC = platform.libc_ver()[0] == "glibc"

# A fresh interpreter: the threshold is process-wide, and mallinfo2's `hblkhd` is the bytes glibc
# holds in blocks mapped on their own.
_PROBE = """
import ctypes, ctypes.util, sys
import numpy as np
from auditor.memory import map_large_blocks

class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.mallinfo2.restype = Info
if sys.argv[1] == "set":
    assert map_large_blocks()
# glibc's threshold rises to the size of a mapped block once it is freed: 4 MiB blocks would
# then come from the heap.
np.ones(4 << 20, dtype=np.uint8)
before = libc.mallinfo2().hblkhd
block = np.ones(2 << 20, dtype=np.uint8)
print(libc.mallinfo2().hblkhd - before)
"""


def _mapped_growth(mode: str) -> int:
    # Without the `MALLOC_*` settings a Dask `LocalCluster` leaves in this process's environment
    # (`MALLOC_TRIM_THRESHOLD_`, set by its nanny, also stops glibc's rising threshold): the
    # probe sees glibc's defaults whichever tests ran before in this worker.
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, check=True, env=env
    )
    return int(done.stdout.strip())


@pytest.mark.skipif(not _GLIBC, reason="mallopt and mallinfo2 are glibc's")
def test_a_large_block_is_mapped_once_the_threshold_is_fixed() -> None:
    assert _mapped_growth("set") >= 2 << 20


@pytest.mark.skipif(not _GLIBC, reason="mallopt and mallinfo2 are glibc's")
def test_without_it_the_same_block_comes_from_the_heap() -> None:
    # The control: glibc's own rising threshold keeps the block in the heap, so the test above
    # shows what `map_large_blocks` changes, not what glibc does anyway.
    assert _mapped_growth("default") == 0


def test_it_is_no_failure_where_the_c_library_has_no_mallopt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: "/nonexistent/libc.so")
    assert map_large_blocks() is False
