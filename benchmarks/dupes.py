"""Duplicate-step benchmark: the cluster's distributed duplicate step alone, on staged pieces.

Usage:
  python benchmarks/dupes.py [--data /tmp/auditor-cluster-dask/refs-4000000]
      [--partition-rows 100000] [--workers 2] [--memory-limit 1GiB] [--out /tmp/auditor-dupes]

`--data` is a references Parquet dataset (as `benchmarks/cluster.py` generates: rows drawn from
one snapshot, so many rows cite a DOI another row cites). On a `LocalCluster` of `--workers`
processes (one thread each, `--memory-limit` each, loopback, HTTP on a free port), each piece
is read and classified and its references and value links staged as a cluster run stages them
(no registers: no record links). The workers are then restarted, so their peaks are the
duplicate step's alone: the bucket tasks, the components task, every piece's group rows and
the ordered `duplicates/` parts (`auditor.partitions.grouping`). Prints, as Markdown: rows,
pieces, rows in groups, groups, link pairs, the step's wall time and each worker's peak RSS.

`python benchmarks/dupes.py --pairs 10000000` instead times the components task alone, in a
process of its own, on that many random link pairs among `3 * pairs` row ids (16 pair files):
a worst case for its memory (few rows share a pair) and its passes (long chains).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _peak_kib() -> int:
    """This process's peak resident memory (KiB, `VmHWM`)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _stage(piece: Any, out: str, buckets: int) -> int:
    from auditor import tables
    from auditor.partitions import layout
    from auditor.partitions.dupes import bucket_links
    from auditor.partitions.read import ReadOptions, read_piece

    refs = read_piece(piece, ReadOptions()).table
    root = Path(out)
    layout.write_part(layout.staged(root, "refs", piece.index), refs)
    for bucket, links in enumerate(bucket_links(refs, tables.empty(tables.RECORDS), buckets)):
        if links.num_rows:
            layout.write_part(layout.bucket_path(root, bucket, piece.index), links)
    return int(refs.num_rows)


def _groups_of(piece: Any, out: str, grouped: Any) -> int:
    from auditor.partitions import layout
    from auditor.partitions.grouping import piece_groups

    refs = layout.read_part(layout.staged(Path(out), "refs", piece.index))
    return int(piece_groups(out, piece.index, refs)[0].num_rows)


def _step(client: Any, pieces: list[Any], out: str, buckets: int, rows: int) -> tuple[Any, ...]:
    from auditor.partitions.grouping import component_task, flag_task, order_task, share_task

    flags = client.map(flag_task, range(buckets), out=out, pure=False)
    shared = client.map(share_task, range(buckets), out=out, flags=flags, pure=False)
    spans = [(p.index, p.offset, p.rows or 0) for p in pieces]
    grouped = client.submit(component_task, out, spans, rows, shared, pure=False)
    members = client.gather(client.map(_groups_of, pieces, out=out, grouped=grouped, pure=False))
    done = grouped.result()
    ranges = list(done.ranges)
    client.gather(client.map(order_task, range(len(ranges)), ranges, out=out, pure=False))
    return done, sum(members), sum(client.gather(shared))


def _random_pairs(count: int, out: Path) -> None:
    import numpy as np
    import pyarrow as pa

    from auditor.partitions import layout

    rng = np.random.default_rng(1)
    for part in range(16):
        x, y = rng.integers(0, 3 * count, (2, count // 16))
        pairs = pa.table({"a": np.minimum(x, y), "b": np.maximum(x, y) + 1})
        layout.write_part(out / "_parts" / "pairs" / layout.part_name(part), pairs)


def _components_alone(count: int, out: Path) -> None:
    import subprocess

    shutil.rmtree(out, ignore_errors=True)
    _random_pairs(count, out)
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[2]); t = time.perf_counter()\n"
        "from auditor.partitions.grouping import component_task\n"
        "g = component_task(sys.argv[1], [], 100000, [])\n"
        "wall = time.perf_counter() - t\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(f'| {int(sys.argv[3]):,} | {g.groups:,} | {wall:.1f} | {int(hwm) // 1024} |')"
    )
    print("| link pairs | groups | wall s | peak MB |")
    print("| ---: | ---: | ---: | ---: |")
    subprocess.run([sys.executable, "-c", code, str(out), str(ROOT), str(count)], check=True)


def main() -> None:
    """Stage, restart, run the duplicate step, print the Markdown row."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/tmp/auditor-cluster-dask/refs-4000000")
    parser.add_argument("--partition-rows", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="1GiB")
    parser.add_argument("--out", default="/tmp/auditor-dupes")
    parser.add_argument("--pairs", type=int, default=0)
    args = parser.parse_args()
    if args.pairs:
        _components_alone(args.pairs, Path(args.out))
        return
    import distributed

    from auditor.partitions.plan import plan_pieces
    from auditor.partitions.run import MAX_BUCKETS

    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    pieces = plan_pieces([args.data], args.partition_rows, 0)
    buckets = max(1, min(len(pieces), MAX_BUCKETS))
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1",
            dashboard_address="127.0.0.1:0", memory_limit=args.memory_limit,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        rows = sum(client.gather(client.map(_stage, pieces, out=str(out), buckets=buckets)))
        client.restart()
        names = set(client.scheduler_info()["workers"])
        idle = client.run(_peak_kib)
        started = time.perf_counter()
        done, members, pairs = _step(client, pieces, str(out), buckets, args.partition_rows)
        wall = time.perf_counter() - started
        peaks = client.run(_peak_kib)
        restarted = names != set(client.scheduler_info()["workers"])
    worker_mb = ", ".join(f"{kib // 1024}" for kib in peaks.values())
    idle_mb = ", ".join(f"{kib // 1024}" for kib in idle.values())
    print("| rows | pieces | buckets | rows in groups | groups | link pairs | step wall s "
          "| worker peaks MB | memory limit | restarted |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    again = "yes" if restarted else "no"
    cells = [f"{rows:,}", str(len(pieces)), str(buckets), f"{members:,}", f"{done.groups:,}",
             f"{pairs:,}", f"{wall:.1f}", f"{worker_mb} ({idle_mb} at start)", args.memory_limit,
             again]  # fmt: skip
    print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
