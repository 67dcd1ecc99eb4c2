"""Which way to ask a snapshot for the identifiers a run needs: DuckDB, an Arrow dataset, or
reading it whole (what `transport/snapshot.py` did before issue 16).

Usage: `python benchmarks/snapshot_join.py --data /tmp/auditor-scale-1m [--repeat 3]` on data
written by `benchmarks/scaledata.py`. Each method runs in a fresh process (so its peak resident
memory is its own), given the distinct DOIs of `refs.parquet`, and must return the same rows:

- `duckdb`: `auditor.transport.snapshot.join_snapshots` (a semi join in DuckDB, the snapshot
  streamed through a hash table of the wanted keys);
- `arrow`: `pyarrow.dataset` with the filter `identifier.isin(wanted)` pushed into the scan;
- `whole`: `pq.read_table(...).to_pylist()` into a dict, then look each key up (the old way).
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


def _measure(method: str, data: Path) -> dict[str, float]:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    sys.path.insert(0, str(ROOT))
    from auditor.transport.snapshot import join_snapshots

    refs = pq.read_table(data / "refs.parquet", columns=["doi"])
    wanted = pc.unique(refs["doi"])
    snapshot = str(data / "snapshot.parquet")
    started = time.perf_counter()
    if method == "duckdb":
        keys = pa.table({"id_type": pa.array(["doi"] * len(wanted)), "identifier": wanted})
        found = join_snapshots([snapshot], keys).num_rows
    elif method == "arrow":
        dataset = ds.dataset(snapshot, format="parquet")
        found = dataset.to_table(filter=pc.field("identifier").isin(wanted)).num_rows
    else:
        rows = {r["identifier"]: r for r in pq.read_table(snapshot).to_pylist()}
        found = sum(1 for key in wanted.to_pylist() if key in rows)
    took = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": took, "peak_mb": peak, "found": found, "wanted": len(wanted)}


def main() -> None:
    """Run each method `--repeat` times in fresh processes and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default="/tmp/auditor-scale-1m")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--methods", default="duckdb,arrow,whole")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    data = Path(args.data)
    if args.one:
        print(json.dumps(_measure(args.one, data)))
        return
    print("| method | best s | peak RSS MB | found / wanted |")
    print("| --- | ---: | ---: | --- |")
    for method in args.methods.split(","):
        runs = []
        for _ in range(args.repeat):
            out = subprocess.run(
                [sys.executable, __file__, "--data", str(data), "--one", method],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            runs.append(json.loads(out))
        best = min(runs, key=lambda r: r["seconds"])
        peak = max(r["peak_mb"] for r in runs)
        print(
            f"| {method} | {best['seconds']:.2f} | {peak:.0f} | "
            f"{best['found']:,} / {best['wanted']:,} |"
        )


if __name__ == "__main__":
    main()
