"""Range-task benchmark: one large BibTeX file on a local Dask cluster, cut into byte ranges.

Usage:
  python benchmarks/ranges.py [--entries 300000] [--partition-rows 50000] [--workers 2]
      [--memory-limit 1.2GiB] [--data /tmp/auditor-ranges]

Writes one `.bib` of `--entries` entries (about 200 bytes each; the last 1/13 cite the first
entries' DOIs again, so duplicate groups span the ranges), times the scan that cuts it
(`ranges.cut_ranges`), then audits it offline with `run_partitioned` on a `LocalCluster` of
`--workers` processes (one thread, `--memory-limit` each, loopback). Prints, as Markdown: file
size, ranges, scan and cluster wall time, each worker's peak RSS, whether a worker was
restarted, and whether the verdict rows equal a single-process run's (run afterwards here).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _write(path: Path, entries: int) -> None:
    distinct = entries - entries // 13
    with path.open("w", encoding="utf-8") as out:
        out.write("% Encoding: UTF-8\n\n")
        for n in range(entries):
            out.write(
                f"@article{{k{n},\n  title = {{Work number {n} on {{Nested}} braces}},\n"
                f"  author = {{Doe, Jane and Roe, Richard}},\n  journal = {{J. Examples}},\n"
                f"  year = {{{2000 + n % 25}}},\n  doi = {{10.1000/w{n % distinct}}},\n}}\n\n"
            )


def _peak_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    """Write, cut, audit on the cluster and in one process, print the Markdown row."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=300_000)
    parser.add_argument("--partition-rows", type=int, default=50_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="1.2GiB")
    parser.add_argument("--data", default="/tmp/auditor-ranges")
    args = parser.parse_args()
    import distributed

    from auditor.partitions.ranges import cut_ranges
    from auditor.partitions.read import ReadOptions
    from auditor.partitions.run import BYTES_PER_ROW, run_partitioned
    from auditor.pipeline import run_audit
    from auditor.registers import registry
    from auditor.report.view import build_view

    data = Path(args.data)
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    bib = data / "large.bib"
    _write(bib, args.entries)
    started = time.perf_counter()
    cuts = cut_ranges(str(bib), args.partition_rows * BYTES_PER_ROW)
    scan = time.perf_counter() - started
    settings = registry.settings(offline=True, cache_dir=str(data / "cache"), fail_on=("none",))
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1",
            dashboard_address="127.0.0.1:0", memory_limit=args.memory_limit,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        names = set(client.scheduler_info()["workers"])
        started = time.perf_counter()
        run = run_partitioned(
            [str(bib)], settings, data / "out", client, options=ReadOptions(),
            partition_rows=args.partition_rows,
        )  # fmt: skip
        wall = time.perf_counter() - started
        peaks = client.run(_peak_kib)
        restarted = names != set(client.scheduler_info()["workers"])
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = sorted((data / "out" / "verdicts").glob("part-*.parquet"))
    rows = pa.concat_tables([pq.read_table(p) for p in parts])
    single = build_view(asyncio.run(run_audit([str(bib)], settings))).rows
    same = rows.drop_columns(["retrieved_at"]).equals(single.drop_columns(["retrieved_at"]))
    size = bib.stat().st_size / 1e6
    workers = ", ".join(f"{kib // 1024}" for kib in peaks.values())
    print("| file MB | entries | ranges | scan s | cluster wall s | worker peaks MB "
          "| memory limit | restarted | rows equal one process |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    cells = [f"{size:.0f}", f"{args.entries:,}", f"{len(cuts)} ({len(run.pieces)} pieces)",
             f"{scan:.1f}", f"{wall:.1f}", workers, args.memory_limit,
             "yes" if restarted else "no", "yes" if same else "NO"]  # fmt: skip
    print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
