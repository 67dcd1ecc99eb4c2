"""Title rules over many distinct pairs, in worker processes beside the compare stage.

The title rule is Python (`auditor.compare.v2.title_rule`), so threads cannot spread it over
cores: on a large run it is the longest part of the compare stage while the other cores wait.
`TitlePool` starts `python -m auditor.compare.title_worker` processes early (their start-up
overlaps the column checks), gives each a share of the distinct pairs as an Arrow IPC file and
reads its decisions back from another: no pickle, nothing but two string columns crosses over,
and no pipe to feed while this process computes its own share (a pipe fed by a thread waits for
the interpreter lock at every chunk). Any failure of a worker (it cannot start, dies, or answers
short or malformed) is no answer: its pairs are decided in this process instead, so the verdicts
never depend on whether the workers ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from auditor.compare import v2
from auditor.compare.v2 import Field

__all__ = ["DECISIONS", "MIN_PAIRS", "MIN_ROWS", "PAIRS", "TitlePool", "decide_table"]

#: Compared rows from which the workers are started before the pairs are known (start-up is
#: ~0.3 s of a core, worth it only when thousands of pairs are likely).
MIN_ROWS = 100_000
#: Distinct pairs from which the workers are used; fewer are decided here, faster than a hand-off.
MIN_PAIRS = 20_000
#: How long a worker may take beyond ten times this process's own share (its start-up included)
#: before it is stopped and its pairs are decided here.
WAIT_SECONDS = 30.0

PAIRS = pa.schema([pa.field("claimed", pa.string()), pa.field("register", pa.string())])
DECISIONS = pa.schema(
    [
        pa.field("compared", pa.bool_(), nullable=False),
        pa.field("match", pa.bool_()),
        pa.field("finding", pa.string()),
        pa.field("score", pa.float64()),
    ]
)


def decide_table(pairs: pa.Table) -> pa.Table:
    """`v2.title_rule` of each `(claimed, register)` row of `pairs`, as a `DECISIONS` table."""
    decided = _decide(pairs.column("claimed").to_pylist(), pairs.column("register").to_pylist())
    return pa.table(
        {
            "compared": [f.compared for f in decided],
            "match": [f.match for f in decided],
            "finding": [None if f.finding is None else str(f.finding) for f in decided],
            "score": [f.score for f in decided],
        },
        schema=DECISIONS,
    )


def _decide(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return [v2.title_rule(c, r) for c, r in zip(claimed, register, strict=True)]


def _command() -> list[str]:
    return [sys.executable, "-m", "auditor.compare.title_worker"]


def _workers() -> int:
    """One worker per core beside this process's own (which decides a share too)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class TitlePool:
    """Worker processes started now, used (or ended unused) once the pairs are known."""

    def __init__(self, workers: int | None = None) -> None:
        self._procs: list[subprocess.Popen[bytes]] = []
        count = _workers() if workers is None else workers
        # An embedded interpreter may not know its executable: then no workers, no failure.
        for _ in range(count if sys.executable else 0):
            try:
                proc = subprocess.Popen(
                    _command(),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            except OSError:
                break  # no worker is no failure: the pairs are decided here
            self._procs.append(proc)

    def __enter__(self) -> TitlePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the workers not used (a closed stdin ends a waiting worker)."""
        procs, self._procs = self._procs, []
        for proc in procs:
            _end(proc, "")

    def decide(self, claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
        """`v2.title_rule` of each pair, in order: shared with the workers when there are
        `MIN_PAIRS` or more (the first share decided here), else all decided here."""
        procs, self._procs = self._procs, []
        if len(claimed) < MIN_PAIRS or not procs:
            for proc in procs:
                _end(proc, "")
            return _decide(claimed, register)
        shares = len(procs) + 1
        bounds = [len(claimed) * k // shares for k in range(shares + 1)]
        try:
            folder = tempfile.TemporaryDirectory(prefix="auditor-titles-")
        except OSError:  # no temporary folder to share through: all decided here
            for proc in procs:
                _end(proc, "")
            return _decide(claimed, register)
        with folder:
            asked: list[tuple[subprocess.Popen[bytes], Path, int, int]] = []
            for k, proc in enumerate(procs, start=1):
                lo, hi = bounds[k], bounds[k + 1]
                given, answer = Path(folder.name) / f"{k}.in", Path(folder.name) / f"{k}.out"
                task = _hand_over(given, claimed[lo:hi], register[lo:hi])
                _end(proc, f"{given}\n{answer}\n" if task else "", wait=not task)
                asked.append((proc, answer, lo, hi))
            started = time.monotonic()
            out = _decide(claimed[: bounds[1]], register[: bounds[1]])
            # A worker's share is as large as this process's: one ten times slower has hung.
            deadline = time.monotonic() + WAIT_SECONDS + 10 * (time.monotonic() - started)
            for proc, answer, lo, hi in asked:
                got = _answer(proc, answer, hi - lo, deadline)
                out.extend(got if got is not None else _decide(claimed[lo:hi], register[lo:hi]))
        return out


def _hand_over(path: Path, claimed: Sequence[str | None], register: Sequence[str | None]) -> bool:
    """Write a worker's pairs to `path`; `False` when they cannot be written (a full disk)."""
    table = pa.table({"claimed": list(claimed), "register": list(register)}, schema=PAIRS)
    try:
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, PAIRS) as writer:
            writer.write_table(table)
    except OSError:
        return False
    return True


def _answer(
    proc: subprocess.Popen[bytes], path: Path, rows: int, deadline: float
) -> list[Field] | None:
    """The worker's decisions, or `None` when it failed, missed `deadline` (`time.monotonic`)
    or answered otherwise."""
    try:
        if proc.wait(timeout=max(0.0, deadline - time.monotonic())) != 0:
            return None
        with pa.memory_map(str(path)) as source:
            table = pa.ipc.open_file(source).read_all()
            if not table.schema.equals(DECISIONS) or table.num_rows != rows:
                return None
            columns = [table.column(name).to_pylist() for name in DECISIONS.names]
    except (OSError, pa.ArrowException, ValueError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
        return None
    return [Field(c, m, f, s) for c, m, f, s in zip(*columns, strict=True)]


def _end(proc: subprocess.Popen[bytes], message: str, *, wait: bool = True) -> None:
    """Write `message` (the worker's task, or nothing) to its stdin and close it."""
    try:
        if proc.stdin is not None:
            proc.stdin.write(message.encode("utf-8"))
            proc.stdin.close()
    except OSError:
        pass  # a worker that died already: `_answer` sees it
    if wait:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
