"""Wall time of the HALLMARK dev split against registers that enforce their published paces.

Issue #28's benchmark: the loopback emulator serves the split's corpus, enforces the published
limits (`emulator.config.PUBLISHED_LIMITS`: Crossref and OpenAlex 10/s, NCBI 3/s, DBLP and
Semantic Scholar 1/s, arXiv one per 3 s; beyond them a 429) and adds `--latency` to every
answer; the real command `auditor audit dev_public.bib` runs with its default paces on a fresh
cache. Prints wall time, requests per endpoint, 429s, the title search's use of each index (from
`report.json`) and the split's own scores. `--code DIR` audits with another checkout (the main
branch, for the "before" figure) against the same emulator.

Usage: `python benchmarks/search_pace.py [--code DIR] [--label NAME] [--latency 0.05]
[--write-results benchmarks/RESULTS.md]`. A benchmark, not a timed test: minutes of wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hallmark import DEFAULT_SPLIT, run  # noqa: E402

SECTION = "## title search at published paces"


def measure(code: Path | None, latency: float) -> dict[str, Any]:
    """One audit of the split; its scores, wall time, requests and search use."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "reports"
        result, wall, _ = run(DEFAULT_SPLIT, out, [], True, latency=latency, code=code)
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    search = (report.get("run") or {}).get("search_use") or []
    return {**result, "wall_seconds": round(wall, 1), "search_use": search}


def _line(label: str, got: dict[str, Any]) -> str:
    requests = dict(got["requests"])
    shown = ", ".join(f"{k} {v}" for k, v in requests.items() if k != "rate_limit_429s")
    use = "; ".join(
        f"{u['index']} {u['requests']} req, waited {u['waited_seconds']:.0f} s"
        for u in got["search_use"]
    )
    return (
        f"| {label} | {got['wall_seconds']:.0f} | {requests.get('rate_limit_429s', 0)} | "
        f"{got['DR']} | {got['FPR']} | {shown} | {use or '(not reported)'} |"
    )


def write_section(path: Path, rows: list[str], argv: list[str]) -> None:
    """Add this run's rows to the section of `path` (created when absent)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    head, sep, rest = text.partition(f"\n{SECTION}\n")
    kept: list[str] = []
    tail = ""
    if sep:
        nxt = rest.find("\n## ")
        body, tail = (rest[:nxt], rest[nxt:]) if nxt >= 0 else (rest, "")
        kept = [line for line in body.splitlines() if line.startswith("| ") and "---" not in line]
        kept = [line for line in kept if not line.startswith("| run |")]
    header = [
        SECTION,
        "",
        f"Command: `python benchmarks/search_pace.py {' '.join(argv)}`  ",
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()} (shared with other jobs while measured)",
        "",
        "HALLMARK dev split (1,119 references) against the loopback emulator enforcing the",
        "published paces (Crossref and OpenAlex 10/s, NCBI 3/s, DBLP and Semantic Scholar 1/s,",
        "arXiv 1 per 3 s) with the given latency; default criteria and paces, fresh cache.",
        "",
        "| run | wall s | 429s | DR | FPR | requests | title search per index |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    body_rows = [*kept, *rows]
    path.write_text(
        head.rstrip("\n") + "\n\n" + "\n".join([*header, *body_rows]) + "\n" + tail,
        encoding="utf-8",
    )


def main(argv: list[str]) -> None:
    """Parse flags, measure once, print the figures; optionally add them to RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, help="checkout whose auditor runs the audit")
    parser.add_argument("--label", default="this branch")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--write-results", type=Path)
    args = parser.parse_args(argv)
    got = measure(args.code, args.latency)
    print(json.dumps(got))
    print(f"{args.label}: wall {got['wall_seconds']} s", file=sys.stderr)
    if args.write_results:
        write_section(args.write_results, [_line(args.label, got)], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
