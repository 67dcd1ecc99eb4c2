"""Benchmark of the resolve stage against the loopback emulator under the registers' real limits.

A generated bibliography (default 500 references: 300 DOIs, 150 PMIDs, 50 arXiv ids, 5% of each
kind absent from the registers) is loaded and classified from a BibTeX file, then resolved against
the emulator with 200 ms latency and the published limits enforced (Crossref 10/s, NCBI 3/s,
arXiv 1 per 3 s; 429 when exceeded). Runs, each from the same emulator:

1. cold, batched: wall time against the lower bound the limits allow for the requests made;
2. warm re-run on the same cache: expect zero requests;
3. one reference edited to cite another existing DOI: expect exactly one request;
4. cold with batching off (`registry.settings(batching=False)`, one request per reference), unless
   `--skip-unbatched`; its time over the batched time is the batching ratio.

Lower bound per service with n requests, limit N per T seconds and latency L:
`paced = (n - 1) * T / N + L` (requests at the limit's minimum interval) and the looser
`window = floor((n - 1) / N) * T + L` (bursts of N a sliding window would admit). The DOI leg adds
one latency per dependent DOI-system step (doiRA, then Handle) after Crossref. The run's bound is
the slowest leg's. Both are lower than the true critical path, so the ratios are conservative.

A fifth run (unless `--skip-faults`) repeats the cold batched case with 20% of requests failing
transiently (5xx, resets, stalls past a 0.5 s client timeout) and counts records that differ
from the clean run's.

Usage: `python benchmarks/resolve.py [--quick] [--skip-unbatched] [--skip-faults] [--repeat N]
[--write-results FILE]`. `--quick` divides the bibliography by five (100 references); `--repeat`
runs the cold batched case N times (default 3), each on a fresh cache, since a shared 2-core
machine makes single timings noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pyarrow as pa

from auditor.classify import classify
from auditor.emulator import Emulator, EmulatorConfig, run_emulator
from auditor.emulator.config import PUBLISHED_LIMITS
from auditor.emulator.synthetic import Reference, Synthetic, synthetic, to_bibtex
from auditor.load import load_files
from auditor.registers import registry
from auditor.resolve import resolve
from auditor.settings import Settings
from auditor.transport.net import open_net

LATENCY = 0.2
TARGET = 1.25
FAULTY = "cold batched, 20% transient faults"

#: Emulator endpoint → the service whose limit paces it.
SERVICE = {
    "crossref_work": "crossref",
    "crossref_filter": "crossref",
    "esummary": "eutils",
    "esearch": "eutils",
    "arxiv_query": "arxiv",
}


@dataclass
class Run:
    """One measured resolve run."""

    name: str
    seconds: float
    counts: dict[str, int]
    count_429: int
    limited: dict[str, int]
    statuses: dict[str, int]
    bounds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    outcome: dict[tuple[str, str], tuple[str, str | None]] = field(default_factory=dict)
    """(id_type, identifier) → (status, register title)."""
    faults: dict[str, int] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        """All requests the run made."""
        return sum(self.counts.values())


def lower_bounds(counts: dict[str, int], latency: float = LATENCY) -> dict[str, float]:
    """`{"paced": s, "window": s}`: the least wall time the limits allow for these requests."""
    per_service: Counter[str] = Counter()
    for endpoint, n in counts.items():
        if endpoint in SERVICE:
            per_service[SERVICE[endpoint]] += n
    doi_steps = (1 if counts.get("doira") else 0) + (1 if counts.get("handle") else 0)
    out = {}
    for mode in ("paced", "window"):
        legs = []
        for service, n in per_service.items():
            if n == 0:
                continue
            limit, per = PUBLISHED_LIMITS[service]
            spacing = (n - 1) * per / limit if mode == "paced" else (n - 1) // limit * per
            extra = latency * doi_steps if service == "crossref" else 0.0
            legs.append(spacing + latency + extra)
        if not per_service.get("crossref") and doi_steps:
            legs.append(latency * doi_steps)
        out[mode] = max(legs, default=0.0)
    return out


def references_table(bib: Path) -> pa.Table:
    """Load and classify the bibliography, as `auditor audit` does."""
    return classify(load_files([str(bib)]).table)


async def _resolve(references: pa.Table, settings: Settings) -> tuple[float, pa.Table]:
    async with open_net(settings, registry.hosts()) as net:
        start = time.monotonic()
        records = await resolve(references, settings, net)
        return time.monotonic() - start, records


def measure(name: str, emu: Emulator, references: pa.Table, settings: Settings) -> Run:
    """Resolve `references` once from a quiet emulator, and collect what it saw."""
    emu.reset_counts()
    seconds, records = asyncio.run(_resolve(references, settings))
    counts = {k: v for k, v in emu.counts.items() if v}
    statuses = dict(Counter(records["status"].to_pylist())) if records.num_rows else {}
    limited = {k: v for k, v in emu.count_429_by_service.items() if v}
    run = Run(name, seconds, counts, emu.count_429, limited, statuses)
    # The bound counts the requests the batching needs: a request refused with 429 is not one.
    needed = Counter(e.endpoint for e in emu.log if e.status != 429)
    run.bounds = lower_bounds(dict(needed))
    run.notes = refusals(emu)
    run.faults = {k: v for k, v in emu.fault_counts.items() if v}
    cols = records.select(["id_type", "identifier", "status", "title"]).to_pydict()
    run.outcome = {
        (t, i): (st, ti)
        for t, i, st, ti in zip(
            cols["id_type"], cols["identifier"], cols["status"], cols["title"], strict=True
        )
    }
    return run


def refusals(emu: Emulator) -> list[str]:
    """For each rate-limit 429: how tightly the admitted requests before it were packed."""
    notes = []
    start = emu.log[0].arrived if emu.log else 0.0
    for entry in emu.log:
        service = SERVICE.get(entry.endpoint)
        if entry.status != 429 or service is None:
            continue
        limit, per = PUBLISHED_LIMITS[service]
        before = [
            e.arrived
            for e in emu.log
            if SERVICE.get(e.endpoint) == service
            and e.status != 429
            and entry.arrived - per < e.arrived <= entry.arrived
        ]
        span = entry.arrived - min(before) if before else 0.0
        notes.append(
            f"{service} 429 at {entry.arrived - start:.3f} s: {len(before)} admitted requests "
            f"(limit {limit}) arrived in the {span:.3f} s before it"
        )
    return notes


def edit_one(gen: Synthetic) -> list[Reference]:
    """The bibliography with its first existing DOI reference now citing a spare DOI."""
    refs = list(gen.references)
    i = next(k for k, r in enumerate(refs) if r.kind == "doi" and r.exists)
    refs[i] = Reference(
        refs[i].key, "doi", gen.spares["doi"][0], refs[i].title, refs[i].authors, refs[i].year, True
    )
    return refs


def machine() -> str:
    """CPU model, cores, OS, Python and aiohttp versions."""
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, aiohttp {aiohttp.__version__}"
    )


def report(runs: list[Run], gen: Synthetic, command: str) -> str:
    """The `## resolve` section of RESULTS.md."""
    kinds = Counter(r.kind for r in gen.references)
    absent = sum(not r.exists for r in gen.references)
    lines = [
        "## resolve",
        "",
        f"Command: `{command}`  ",
        f"Date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}  ",
        f"Machine: {machine()} (shared with other jobs while measured)",
        "",
        f"Bibliography: {len(gen.references)} generated references ({kinds['doi']} DOIs, "
        f"{kinds['pmid']} PMIDs, {kinds['arxiv']} arXiv ids; {absent} absent from the registers), "
        f"loaded from BibTeX and classified. Emulator: {LATENCY * 1000:.0f} ms latency, limits "
        "enforced with 429 (sliding window, 20 ms arrival-jitter tolerance): Crossref 10/1 s, "
        "NCBI 3/1 s, arXiv 1/3 s.",
        "",
        "| run | wall s | requests | per endpoint | 429s | records | paced bound s | ratio "
        "| window bound s | ratio |",
        "| --- | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for run in runs:
        per = ", ".join(f"{k} {v}" for k, v in sorted(run.counts.items())) or "none"
        recs = ", ".join(f"{k} {v}" for k, v in sorted(run.statuses.items()))
        paced, window = run.bounds.get("paced", 0.0), run.bounds.get("window", 0.0)
        ratio_p = f"{run.seconds / paced:.2f}" if paced else "n/a"
        ratio_w = f"{run.seconds / window:.2f}" if window else "n/a"
        limited = ", ".join(f"{k} {v}" for k, v in sorted(run.limited.items()))
        n429 = f"{run.count_429} ({limited})" if limited else str(run.count_429)
        lines.append(
            f"| {run.name} | {run.seconds:.2f} | {run.requests} | {per} | {n429} "
            f"| {recs} | {paced:.2f} | {ratio_p} | {window:.2f} | {ratio_w} |"
        )
    lines += ["", *verdict_lines(runs)]
    for run in runs:
        lines += [f"- {run.name}: {note}." for note in run.notes]
    lines.append("")
    return "\n".join(lines)


def verdict_lines(runs: list[Run]) -> list[str]:
    """Each acceptance check of issue 4, with its measured value."""
    by = {r.name: r for r in runs}
    cold = by["cold batched"]
    out = []
    colds = [r for r in runs if r.name.startswith("cold batched") and r.name != FAULTY]
    ratios = sorted(r.seconds / r.bounds["paced"] for r in colds)
    met = sum(x <= TARGET for x in ratios)
    out.append(
        f"- Cold batched, {len(colds)} runs on fresh caches: {ratios[len(ratios) // 2]:.2f}x the "
        f"paced bound at the median (range {ratios[0]:.2f}-{ratios[-1]:.2f}); target <= {TARGET} "
        f"met in {met} of {len(colds)}. First run: "
        f"{cold.seconds / cold.bounds['window']:.2f}x the window bound."
    )
    one_each = cold.counts.get("esummary", 0) == 1 and cold.counts.get("arxiv_query", 0) == 1
    out.append(
        f"- PubMed and arXiv one request each: {'yes' if one_each else 'NO'} "
        f"(esummary {cold.counts.get('esummary', 0)}, arxiv_query "
        f"{cold.counts.get('arxiv_query', 0)})."
    )
    clean_429 = sum(r.count_429 for r in runs if r.name != FAULTY)
    faulty_429 = f"; in the fault run: {by[FAULTY].count_429}" if FAULTY in by else ""
    out.append(
        f"- Rate-limit 429s in the clean runs: {clean_429} (target 0): "
        f"{'met' if clean_429 == 0 else 'NOT met'}{faulty_429}."
    )
    warm, edited = by["warm re-run"], by["one reference edited"]
    out.append(f"- Warm re-run requests: {warm.requests} (target 0).")
    out.append(f"- One edited reference requests: {edited.requests} (target 1).")
    if FAULTY in by:
        faulty = by[FAULTY]
        differ = sum(faulty.outcome.get(k) != v for k, v in cold.outcome.items())
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(faulty.faults.items()))
        out.append(
            f"- 20% transient faults ({kinds} injected): {faulty.requests} requests, "
            f"{faulty.seconds:.1f} s; records differing from the clean run: {differ} of "
            f"{len(cold.outcome)}."
        )
    wrong = [r.name for r in runs if r.statuses.get("unreachable")]
    out.append(f"- Runs with unreachable records: {', '.join(wrong) or 'none'}.")
    if "cold unbatched" in by:
        off = by["cold unbatched"]
        out.append(
            f"- Batching off: {off.seconds:.1f} s and {off.requests} requests vs "
            f"{cold.seconds:.1f} s and {cold.requests}: batched is "
            f"{off.seconds / cold.seconds:.1f}x faster."
        )
    return out


def write_section(path: Path, section: str) -> None:
    """Replace (or append) the `## resolve` section of `path`, leaving other sections alone."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    pattern = re.compile(r"^## resolve\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: section.rstrip("\n") + "\n\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print (and optionally record) the results."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 references instead of 500")
    parser.add_argument("--skip-unbatched", action="store_true", help="skip the batching-off run")
    parser.add_argument("--write-results", type=Path, help="update the ## resolve section here")
    parser.add_argument(
        "--skip-faults", action="store_true", help="skip the 20%% transient-fault run"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="cold batched runs, each on a fresh cache (3)"
    )
    args = parser.parse_args(argv)
    scale = 5 if args.quick else 1
    gen = synthetic(n_doi=300 // scale, n_pmid=150 // scale, n_arxiv=50 // scale, missing=0.05)
    config = EmulatorConfig(latency=LATENCY, rate_limits=dict(PUBLISHED_LIMITS))
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp, run_emulator(gen.corpus, config) as emu:
        bib = Path(tmp) / "bench.bib"
        bib.write_text(to_bibtex(gen.references), encoding="utf-8")
        references = references_table(bib)
        base: dict[str, Any] = {
            "mailto": "bench@example.org",
            "ncbi_email": "bench@example.org",
            **emu.base_urls,
        }
        settings = registry.settings(cache_dir=f"{tmp}/cache", **base)
        runs.append(measure("cold batched", emu, references, settings))
        runs.append(measure("warm re-run", emu, references, settings))
        edited = Path(tmp) / "edited.bib"
        edited.write_text(to_bibtex(edit_one(gen)), encoding="utf-8")
        runs.append(measure("one reference edited", emu, references_table(edited), settings))
        for k in range(2, args.repeat + 1):
            fresh = registry.settings(cache_dir=f"{tmp}/cache-{k}", **base)
            runs.append(measure(f"cold batched #{k}", emu, references, fresh))
        if not args.skip_faults:
            # 20% of requests get a transient 5xx, reset or stall; the client's timeout is cut
            # to 0.5 s (stalls last 3 s) so the run stays short.
            emu.config = EmulatorConfig(
                latency=LATENCY,
                rate_limits=dict(PUBLISHED_LIMITS),
                fault_rate=0.2,
                fault_kinds=("5xx", "reset", "timeout"),
                seed=1,
                hang_seconds=3.0,
            )
            faulty = registry.settings(cache_dir=f"{tmp}/cache-faults", timeout=0.5, **base)
            runs.append(measure(FAULTY, emu, references, faulty))
            emu.config = config
        if not args.skip_unbatched:
            off = registry.settings(cache_dir=f"{tmp}/cache-off", batching=False, **base)
            runs.append(measure("cold unbatched", emu, references, off))
    argv_text = " ".join(argv if argv is not None else sys.argv[1:])
    command = f"python benchmarks/resolve.py {argv_text}".strip()
    section = report(runs, gen, command)
    print(section)
    if args.write_results:
        write_section(args.write_results, section)


if __name__ == "__main__":
    main()
