"""Detection and false flags on the HALLMARK development split, through the loopback emulator.

Starts the emulator on the split's corpus (`dev_public.corpus.json`: the registers' records and
the search indexes), runs the real command `auditor audit dev_public.bib` in a subprocess with
only the registers' base URLs (and, since the emulator imposes no pace, the per-host rates)
changed, on a fresh cache, then scores the verdicts with the split's own
`score.py --by-type`.

Usage: `python benchmarks/hallmark.py [--split DIR] [--keep DIR] [--write-results FILE]
[-- extra audit flags]`. With `--write-results`, the split is audited twice (default criteria,
then `--criteria reference-resolution/v1`) and both columns are written. Default split:
`/work/shared/eval/hallmark-dev` (or `$AUDITOR_HALLMARK_DIR`). Only the dev split may be used
here: tune on it, never on another.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from auditor.emulator import EmulatorConfig, run_emulator
from auditor.emulator.config import PUBLISHED_LIMITS
from auditor.emulator.hallmark import load_hallmark
from auditor.tables import CRITERIA_V1

MEASURES = ("DR", "FPR", "F1", "tp", "fn", "fp", "tn")

DEFAULT_SPLIT = Path(os.environ.get("AUDITOR_HALLMARK_DIR", "/work/shared/eval/hallmark-dev"))

#: The emulator answers as fast as it can; the politeness paces of the real hosts only slow the
#: run down, so they are raised for it (they are settings, not behaviour).
FAST_RATES: dict[str, str] = {
    "AUDITOR_CROSSREF_RATE": "200",
    "AUDITOR_NCBI_RATE": "200",
    "AUDITOR_ARXIV_RATE": "200",
    "AUDITOR_DOI_RATE": "200",
    "AUDITOR_HANDLE_RATE": "200",
    "AUDITOR_DBLP_RATE": "200",
    "AUDITOR_S2_RATE": "200",
    "AUDITOR_OPENALEX_RATE": "200",
}


def audit_env(base_urls: dict[str, str], cache_dir: str, fast: bool = True) -> dict[str, str]:
    """The environment of the audit: ours minus any `AUDITOR_*`/leg setting, plus the URLs
    (and, when `fast`, raised paces)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("AUDITOR_") and k not in {"PMID_LEG", "DOI_LEG", "ARXIV_LEG"}
    }
    if fast:
        env.update(FAST_RATES)
    env.update({f"AUDITOR_{name.upper()}": url for name, url in base_urls.items()})
    env["AUDITOR_CACHE_DIR"] = cache_dir
    env["AUDITOR_FAIL_ON"] = "none"
    return env


def run(
    split: Path,
    out: Path,
    extra: list[str],
    published: bool = False,
    *,
    latency: float = 0.0,
    code: Path | None = None,
) -> tuple[dict[str, Any], float, str]:
    """Audit the split into `out`; (score.py's JSON, audit wall seconds, audit command).

    `published`: the emulator enforces the registers' published limits (429 beyond them) and the
    audit keeps its default paces, as against the real services. `latency`: seconds the emulator
    adds to every answer. `code`: the checkout whose `auditor` runs the audit (default: the one
    on the path), so two versions meet the same emulator."""
    corpus = load_hallmark(split / "dev_public.corpus.json")
    limits = dict(PUBLISHED_LIMITS) if published else {}
    config = EmulatorConfig(rate_limits=limits, latency=latency)
    bib = split / "dev_public.bib"
    command = [sys.executable, "-m", "auditor", "audit", str(bib), "--out", str(out), *extra]
    with tempfile.TemporaryDirectory() as cache, run_emulator(corpus, config) as emu:
        env = audit_env(emu.base_urls, cache, fast=not published)
        if code is not None:
            env["PYTHONPATH"] = str(code)
        started = time.perf_counter()
        # `python -m` puts the working directory first on the path: run inside `code` so its
        # `auditor` is the one imported.
        done = subprocess.run(
            command, env=env, cwd=code, capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - started
        counts = {k: v for k, v in sorted(emu.counts.items()) if v}
        counts["rate_limit_429s"] = emu.count_429
        bunched = _bunched(emu.log, limits)
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"audit failed with exit code {done.returncode}")
    verdicts = out / "verdicts.parquet"
    scored = subprocess.run(
        [sys.executable, str(split / "score.py"), str(verdicts), "--by-type"],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(scored.stdout)
    result["requests"] = counts
    if bunched:
        result["bunched"] = bunched
    shown = " ".join(["auditor", "audit", "dev_public.bib", *extra])
    return result, wall, shown


def _bunched(log: Any, limits: dict[str, tuple[int, float]]) -> list[dict[str, Any]]:
    """For each request that arrived over its service's limit: when, and the arrival gaps of
    the window before it (how bunched the requests reached the server)."""
    from auditor.emulator.services import SERVICE_OF

    by_service: dict[str, list[float]] = {}
    for entry in log:
        by_service.setdefault(SERVICE_OF.get(entry.endpoint, "unknown"), []).append(entry.arrived)
    out = []
    for service, times in by_service.items():
        if service not in limits:
            continue
        count, per = limits[service]
        times.sort()
        for i, t in enumerate(times):
            window = [x for x in times[max(0, i - count) : i] if x > t - per]
            if len(window) >= count:
                gaps = [round(b - a, 3) for a, b in itertools.pairwise([*window, t])]
                out.append({"service": service, "at": round(t, 3), "gaps": gaps})
    return out


Run = tuple[str, dict[str, Any], float, str]


def _requests(result: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in dict(result.get("requests", {})).items())


def markdown(runs: list[Run], argv: list[str]) -> str:
    """The `## hallmark` section of RESULTS.md: one column per criteria run."""
    types = sorted({t for _, r, _, _ in runs for t in r.get("by_type", {})})
    header = " | ".join(name for name, *_ in runs)
    lines = [
        "## hallmark",
        "",
        f"Command: `python benchmarks/hallmark.py {' '.join(argv)}`  ",
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()} (shared with other jobs while measured)",
        "",
        "Each run: the real command against the loopback emulator serving the split's corpus",
        "(records and search indexes), on a fresh cache, scored by the split's own",
        "`score.py --by-type` (flagged = RESOLVES-BUT-DIFFERS, DOES-NOT-RESOLVE or NOT FOUND;",
        "rows whose truth the benchmark lacks are left out). Only base URLs and per-host paces",
        "are changed (the emulator imposes no pace).",
        "",
        *(
            f"- `{shown}`: {wall:.1f} s wall; requests: {_requests(r)}."
            for _, r, wall, shown in runs
        ),
        "",
        f"| measure | {header} |",
        "| --- |" + " ---: |" * len(runs),
        *(f"| {m} | " + " | ".join(str(r[m]) for _, r, _, _ in runs) + " |" for m in MEASURES),
        *(
            f"| {t} | "
            + " | ".join(str(r.get("by_type", {}).get(t, "")) for _, r, _, _ in runs)
            + " |"
            for t in types
        ),
        "",
    ]
    return "\n".join(lines)


def write_section(path: Path, section: str) -> None:
    """Replace (or append) the `## hallmark` section of `path`."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    head, sep, rest = text.partition("\n## hallmark\n")
    tail = ""
    if sep:
        nxt = rest.find("\n## ")
        tail = rest[nxt:] if nxt >= 0 else ""
    path.write_text(head.rstrip("\n") + "\n\n" + section + tail, encoding="utf-8")


def main(argv: list[str]) -> None:
    """Parse flags, run once, print the score; optionally write RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", type=Path, default=DEFAULT_SPLIT)
    parser.add_argument("--keep", type=Path, help="write the audit's reports here")
    parser.add_argument("--write-results", type=Path)
    parser.add_argument(
        "--published-pace",
        action="store_true",
        help="default paces against the published limits (minutes; default criteria only)",
    )
    parser.add_argument("extra", nargs="*", help="extra `auditor audit` flags (after --)")
    args = parser.parse_args(argv)
    if args.split.name != "hallmark-dev":
        raise SystemExit("only the HALLMARK dev split may be used for tuning")
    plans = [("default criteria", args.extra)]
    if args.published_pace:
        plans = [("default criteria, published paces", args.extra)]
    elif args.write_results:
        plans.append(("reference-resolution/v1", [*args.extra, "--criteria", CRITERIA_V1]))
    runs: list[Run] = []
    for name, extra in plans:
        with tempfile.TemporaryDirectory() as tmp:
            out = args.keep or Path(tmp) / "reports"
            result, wall, shown = run(args.split, out, extra, args.published_pace)
        print(json.dumps(result))
        print(f"{name}: audit wall time {wall:.1f} s", file=sys.stderr)
        runs.append((name, result, wall, shown))
    if args.write_results:
        write_section(args.write_results, markdown(runs, argv))


if __name__ == "__main__":
    main(sys.argv[1:])
