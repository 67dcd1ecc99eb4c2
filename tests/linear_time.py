"""How the processor time of a piece of work grows when its input grows tenfold (issue 37 item 2).

A linear cost grows about 10 times, a quadratic one about 100 times. Time is the thread's own
processor time (`time.thread_time`: a loaded machine preempts the thread but adds nothing to its
time), with the garbage collector off, the least of several runs, small and large runs taken in
turn so that a slow spell falls on both; a time under `FLOOR` counts as `FLOOR` (that is noise,
not cost). `BOUND` stands far from both 10 and 100, so no load makes a linear cost fail it and
no quadratic one passes it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: The most a linear cost may grow for 10 times the input (a quadratic one grows ~100 times).
BOUND = 25.0
#: Times below this are the clock's and the machine's noise, not the work's cost.
FLOOR = 20e-6


def _seconds(work: Callable[[], object]) -> float:
    start = time.thread_time()
    work()
    return time.thread_time() - start


def growth(small: Callable[[], object], large: Callable[[], object], repeats: int = 5) -> float:
    """`large`'s least time over `small`'s, each run `repeats` times in turn."""
    best_small = best_large = float("inf")
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            best_small = min(best_small, _seconds(small))
            best_large = min(best_large, _seconds(large))
    finally:
        if collecting:
            gc.enable()
    return best_large / max(best_small, FLOOR)


def linear(small: Callable[[], object], large: Callable[[], object]) -> tuple[bool, float]:
    """Whether `large` (10 times `small`'s input) costs at most `BOUND` times `small`, and the
    growth: measured once, and again with repeats when once looked slow (only the work's own
    cost can fail it twice)."""
    ratio = growth(small, large, repeats=1)
    if ratio > BOUND:
        ratio = growth(small, large)
    return ratio <= BOUND, ratio
