"""Cluster benchmark: references from a Parquet dataset against a snapshot, on a local Dask
cluster whose workers read, audit and write their own pieces (`auditor.partitions`).

Usage:
  python benchmarks/cluster.py [--references 10000000] [--records 10000000]
      [--workers 2] [--memory-limit 2GiB] [--partition-rows 100000] [--data /tmp/auditor-cluster]
      [--out DIR] [--json FILE]

Generates the data once (`benchmarks/scaledata.py`, kept in `--data`; the references written
with row groups of `--partition-rows / 4`), then runs `run_partitioned` on a `LocalCluster` of
`--workers` processes (one thread each, `--memory-limit` each, loopback, HTTP on a free port) and
prints, as Markdown: wall time, the driver's peak RSS, each worker's peak RSS, and whether any
worker was restarted (the scheduler's worker names are compared before and after). `--json`
also writes those numbers to a file: `tests/partitions/test_cluster_memory.py` runs this script
as its driver process, so the driver's peak is a process of its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


#: As `auditor.cluster` starts its local workers: Arrow on the system allocator, which hands
#: freed memory back (Dask's nanny sets `MALLOC_TRIM_THRESHOLD_`), so a worker's RSS falls
#: between tasks; with mimalloc each task's peak was 25-35% higher (`benchmarks/RESULTS.md`).
WORKER_ENV = {"ARROW_DEFAULT_MEMORY_POOL": "system"}


def _data(folder: Path, references: int, records: int, group: int) -> tuple[Path, Path]:
    import pyarrow.parquet as pq
    import scaledata

    snap, refs = folder / f"snapshot-{records}.parquet", folder / f"refs-{references}"
    if not snap.exists() or not refs.exists():
        folder.mkdir(parents=True, exist_ok=True)
        table, vocab = scaledata.snapshot(records, seed=1)
        pq.write_table(table, snap)
        refs.mkdir(exist_ok=True)
        chunk = 1_000_000
        for n, start in enumerate(range(0, references, chunk)):
            part = scaledata.references(table, min(chunk, references - start), seed=n, vocab=vocab)
            pq.write_table(part, refs / f"part-{n:04d}.parquet", row_group_size=group)
        del table
    return snap, refs


def _peak_kib() -> int:
    """This process's peak resident memory (KiB): `VmHWM`, which a spawned worker does not
    inherit from its parent."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    """Generate, run, print the Markdown rows."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--references", type=int, default=10_000_000)
    parser.add_argument("--records", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="2GiB")
    parser.add_argument("--partition-rows", type=int, default=100_000)
    parser.add_argument("--data", default="/tmp/auditor-cluster")
    parser.add_argument("--out", help="the run's output folder (default: <data>/out)")
    parser.add_argument("--json", help="also write the measurements to this file")
    parser.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate_only:
        _data(Path(args.data), args.references, args.records, args.partition_rows // 4)
        return
    # Generated in a process of its own: the driver's peak memory is the run's, not the data's.
    subprocess.run([sys.executable, __file__, *sys.argv[1:], "--generate-only"], check=True)
    snap, refs = _data(Path(args.data), args.references, args.records, args.partition_rows // 4)
    import distributed

    from auditor.partitions.read import ReadOptions
    from auditor.partitions.run import run_partitioned
    from auditor.registers import registry

    out = Path(args.out) if args.out else Path(args.data) / "out"
    settings = registry.settings(
        offline=True, cache_dir=str(Path(args.data) / "cache"), snapshots=(str(snap),)
    )
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1",
            dashboard_address="127.0.0.1:0", memory_limit=args.memory_limit,
            env=dict(WORKER_ENV),
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        names = set(client.scheduler_info()["workers"])
        driver_before = _peak_kib()
        started = time.perf_counter()
        run = run_partitioned(
            [str(refs)], settings, out, client, options=ReadOptions(),
            partition_rows=args.partition_rows,
        )  # fmt: skip
        wall = time.perf_counter() - started
        peaks = client.run(_peak_kib)
        restarted = names != set(client.scheduler_info()["workers"])
    if args.json:
        measured = {
            "references": args.references,
            "records": args.records,
            "pieces": len(run.pieces),
            "wall_s": round(wall, 1),
            "memory_limit": args.memory_limit,
            "driver_peak_kib": _peak_kib(),
            "driver_before_kib": driver_before,
            "worker_peaks_kib": sorted(peaks.values()),
            "restarted": restarted,
            "counts": run.totals.counts,
        }
        Path(args.json).write_text(json.dumps(measured, indent=2) + "\n")
    print(
        "| references | records | pieces | wall s | driver peak MB | worker peaks MB | restarted |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    workers = ", ".join(f"{v / 1024:.0f}" for v in peaks.values())
    print(
        f"| {args.references:,} | {args.records:,} | {len(run.pieces)} | {wall:.1f} | "
        f"{_peak_kib() / 1024:.0f} (before the run: {driver_before / 1024:.0f}) | {workers} | "
        f"{'yes' if restarted else 'no'} |"
    )
    print(f"\nrows {run.totals.counts['rows']:,}; verdicts {run.totals.counts['by_verdict']}")


if __name__ == "__main__":
    main()
