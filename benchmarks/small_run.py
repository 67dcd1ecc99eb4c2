"""Benchmark: a handful of references against a ten-million-record snapshot (#36, decision 2).

A server or a pre-commit hook asks about ten references; the snapshot holds a whole register. The
audit should cost what its ten rows cost, not what the snapshot holds. Each run is a fresh
process (`benchmarks/scale.py`'s `MEASURE`: wall time from the first import, peak RSS, CPU):

- `auditor audit refs.parquet --offline` without a snapshot: the start-up and the audit of ten
  rows with nothing to join, the floor the other rows are compared with;
- the same with `--snapshot` laid out as `auditor snapshot import` and `cache export-snapshot`
  write one (row groups of `auditor.files.ROW_GROUP_ROWS` rows);
- the same with the snapshot `benchmarks/scaledata.py` writes for the large-run benchmarks (row
  groups of 1,000,000 rows), to show what the layout costs.

Usage: `python benchmarks/small_run.py [--data /tmp/auditor-small] [--records 10000000]
[--references 10] [--repeat 3]` (the data is generated once and kept in `--data`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale import _MEASURE, ROOT, _machine, _run  # noqa: E402  (benchmarks/scale.py)

from auditor.files import ROW_GROUP_ROWS  # noqa: E402


def _data(data: Path, records: int, references: int) -> tuple[Path, Path, Path]:
    refs, wide = data / "refs.parquet", data / "snapshot.parquet"
    ours = data / "snapshot-ours.parquet"
    if not (refs.exists() and wide.exists()):
        subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "scaledata.py"), "--records",
             str(records), "--references", str(references), "--out", str(data)],
            check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    if not ours.exists():  # the same rows, in the row groups our own writers use
        source = pq.ParquetFile(wide)
        with pq.ParquetWriter(ours, source.schema_arrow) as writer:
            for batch in source.iter_batches(batch_size=ROW_GROUP_ROWS):
                writer.write_batch(batch, row_group_size=ROW_GROUP_ROWS)
    return refs, ours, wide


def main() -> None:
    """Time the three runs `--repeat` times each, interleaved, and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/tmp/auditor-small")
    parser.add_argument("--records", type=int, default=10_000_000)
    parser.add_argument("--references", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    refs, ours, wide = _data(data, args.records, args.references)
    runs: dict[str, list[Path | None]] = {
        "no snapshot": [None],
        f"snapshot in row groups of {ROW_GROUP_ROWS:,} (ours)": [ours],
        "snapshot in row groups of 1,000,000 (scaledata.py)": [wide],
    }
    times: dict[str, list[tuple[float, float, float]]] = {label: [] for label in runs}
    for _ in range(args.repeat):
        for label, (snapshot,) in runs.items():
            argv = ["auditor", "audit", str(refs), "--offline", "--out", str(data / "report"),
                    "--cache-dir", str(data / "cache"), "--fail-on", "none", "--quiet"]  # fmt: skip
            if snapshot is not None:
                argv += ["--snapshot", str(snapshot)]
            times[label].append(_run(_MEASURE.format(argv=argv)))
    print(f"Machine: {_machine()}; load average {os.getloadavg()[0]:.1f} at the end\n")
    groups = {p: pq.ParquetFile(p).metadata.num_row_groups for p in (ours, wide)}
    print(f"{args.references} references; {args.records:,} records ({groups[ours]} and "
          f"{groups[wide]} row groups); {args.repeat} runs each, interleaved\n")  # fmt: skip
    print("| run | wall s (min / median) | CPU s (median) | peak MB (max) | beyond no snapshot |")
    print("| --- | ---: | ---: | ---: | ---: |")
    floor = min(t[0] for t in times["no snapshot"])
    for label, measured in times.items():
        walls = [t[0] for t in measured]
        cpu = statistics.median(t[2] for t in measured)
        peak = max(t[1] for t in measured)
        print(
            f"| {label} | {min(walls):.2f} / {statistics.median(walls):.2f} | {cpu:.2f} | "
            f"{peak:.0f} | {min(walls) - floor:+.2f} s |"
        )


if __name__ == "__main__":
    main()
