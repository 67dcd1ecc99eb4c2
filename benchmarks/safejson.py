"""What the bounded JSON decoder costs over `json.loads`, on register bodies of growing size.

Usage: `python benchmarks/safejson.py [--repeat N] [--write-results benchmarks/RESULTS.md]`.
Bodies are Crossref work-list answers built from the checked-in fixture (the deepest real shape)
and an esummary answer; each is decoded `--repeat` times by both, in the same run, and the ratio
of the medians is reported.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from auditor.transport import safejson

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "registers" / "fixtures"


def _bodies() -> dict[str, bytes]:
    work_list = json.loads((FIXTURES / "crossref_work_list.json").read_bytes())
    esummary = (FIXTURES / "esummary.json").read_bytes()
    out = {"esummary fixture": esummary}
    for n in (20, 500, 5000):
        data = json.loads(json.dumps(work_list))
        data["message"]["items"] = data["message"]["items"] * n
        out[f"crossref work-list x{n}"] = json.dumps(data).encode()
    return out


def _median(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Median seconds of `fn()`, with the collector off so a GC pause lands on neither side."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--write-results")
    args = parser.parse_args()
    rows = []
    for name, body in _bodies().items():
        plain = _median(lambda b=body: json.loads(b.decode("utf-8")), args.repeat)
        bounded = _median(lambda b=body: safejson.loads(b, "bench"), args.repeat)
        rows.append((name, len(body), plain, bounded, bounded / plain))
    lines = [
        "## safejson",
        "",
        f"Command: `python benchmarks/safejson.py --repeat {args.repeat}"
        + (f" --write-results {args.write_results}`  " if args.write_results else "`  "),
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()} "
        "(shared with other jobs while measured)",
        "",
        "| body | bytes | json.loads ms | safejson.loads ms | ratio |",
        "| --- | ---: | ---: | ---: | ---: |",
        *(
            f"| {n} | {size} | {p * 1e3:.3f} | {b * 1e3:.3f} | {r:.2f} |"
            for n, size, p, b, r in rows
        ),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write_results:
        path = Path(args.write_results)
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text, "utf-8")


if __name__ == "__main__":
    main()
