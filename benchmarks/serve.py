"""Benchmark of `auditor serve` under concurrent clients, against the loopback emulator.

N clients (default 200) post `/check` at once over a set of DOIs (default 40, of which 4 are not
registered anywhere) from a few callers (default 7). The emulator answers with 200 ms latency and
enforces the registers' published limits (Crossref 10/1 s, NCBI 3/1 s, arXiv 1/3 s: 429 when
exceeded). Runs, each on a fresh emulator so its counts are its own:

1. **cold**: a fresh cache; every check needs a register;
2. **warm**: the same checks again on the same server: the cache should answer all;
3. **one lookup per check** (unless `--skip-naive`): the same checks, each resolved on its own
   through one shared `Net` (the resolve stage, no sharing, no batching), which is what a server
   that simply ran `auditor check` per request would do. Its requests per check over the
   server's are the ratio that sharing and batching buy.

Reported per run: answers by HTTP status and verdict, requests to the registers (per endpoint)
and per check, client-side latency p50/p95/max, rate-limit 429s at the emulator, wall time.

Usage: `python benchmarks/serve.py [--checks N] [--dois N] [--callers N] [--latency S]
[--skip-naive] [--write-results FILE]`.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from auditor.emulator import PUBLISHED_LIMITS, Corpus, EmulatorConfig, start_emulator  # noqa: E402
from auditor.registers import registry  # noqa: E402
from auditor.resolve import resolve  # noqa: E402
from auditor.serve.app import serve  # noqa: E402
from auditor.settings import Settings  # noqa: E402
from auditor.single import reference_table  # noqa: E402
from auditor.transport.net import open_net  # noqa: E402

PREFIX = "10.5555"


def corpus(dois: int, absent: int) -> tuple[Corpus, list[str]]:
    """A Crossref corpus of `dois - absent` works and the list of all `dois` DOIs asked."""
    works: dict[str, dict[str, Any]] = {}
    asked = []
    for i in range(dois):
        doi = f"{PREFIX}/bench.{i}"
        asked.append(doi)
        if i >= dois - absent:
            continue  # not registered anywhere: DOES-NOT-RESOLVE after the DOI system says so
        works[doi] = {
            "DOI": doi,
            "type": "journal-article",
            "title": [f"Concurrent reference checking, part {i}"],
            "author": [{"given": "Ada", "family": f"Writer{i}", "sequence": "first"}],
            "published": {"date-parts": [[2020 + i % 5]]},
        }
    return Corpus(crossref=works, agencies={PREFIX: "Crossref"}), asked


def body(doi: str, i: int, caller: str) -> dict[str, Any]:
    """The contract body of check `i`."""
    n = int(doi.rsplit(".", 1)[1])
    return {
        "reference": {
            "id": doi,
            "claimed": {
                "title": f"Concurrent reference checking, part {n}",
                "authors": [f"Writer{n}, A."],
                "year": 2020 + n % 5,
            },
        },
        "caller": caller,
    }


@dataclass
class Run:
    """One measured run."""

    name: str
    checks: int
    wall: float
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    requests: Counter[str] = field(default_factory=Counter)
    limited: int = 0

    @property
    def total_requests(self) -> int:
        return sum(self.requests.values())

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def token(caller: str) -> str:
    """The bearer token of `caller` (each caller is its own client, with its own allowance)."""
    return f"bench-token-of-{caller}"


def settings_for(base_urls: dict[str, str], folder: str, callers: int = 1) -> Settings:
    """Settings aimed at the emulator, with a fresh cache and key in `folder`, and one token per
    caller. Every caller connects from 127.0.0.1 and sends its checks all at once, so the
    per-address connection cap and the per-client bounds are raised to what a shared office
    service behind one gateway would set."""
    tokens = os.path.join(folder, "tokens.txt")
    with open(tokens, "w", encoding="utf-8") as handle:
        for i in range(callers):
            handle.write(f"caller-{i} {token(f'caller-{i}')}\n")
    return registry.settings(
        cache_dir=os.path.join(folder, "cache"),
        signing_key=os.path.join(folder, "key.pem"),
        mailto="bench@example.org",
        serve_tokens=tokens,
        client_connections=100_000,
        client_queue=100_000,
        check_daily=10**9,
        **base_urls,
    )


async def _clients(
    url: str, asked: list[str], checks: int, callers: int, run: Run, http: aiohttp.ClientSession
) -> None:
    async def one(i: int) -> None:
        doi = asked[i % len(asked)]
        started = time.perf_counter()
        caller = f"caller-{i % callers}"
        headers = {"Authorization": f"Bearer {token(caller)}"}
        async with http.post(url + "/check", json=body(doi, i, caller), headers=headers) as resp:
            data = await resp.json(content_type=None)
            run.statuses[resp.status] += 1
        run.latencies.append(time.perf_counter() - started)
        run.verdicts[data.get("verdict") or data.get("error", "?")] += 1

    await asyncio.gather(*(one(i) for i in range(checks)))


async def served_runs(
    checks: int, dois: int, callers: int, latency: float, absent: int
) -> list[Run]:
    """The cold and warm runs against one server (fresh emulator counts for each)."""
    data, asked = corpus(dois, absent)
    config = EmulatorConfig(latency=latency, rate_limits=dict(PUBLISHED_LIMITS))
    emu = await start_emulator(data, config)
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        urls: list[str] = []
        settings = settings_for(emu.base_urls, folder, callers)
        runner = await serve(settings, "127.0.0.1", 0, urls.append)
        limit = aiohttp.TCPConnector(limit=0)
        try:
            async with aiohttp.ClientSession(connector=limit) as http:
                for name in ("cold", "warm"):
                    emu.reset_counts()
                    started = time.perf_counter()
                    run = Run(name, checks, 0.0)
                    await _clients(urls[0], asked, checks, callers, run, http)
                    run.wall = time.perf_counter() - started
                    run.requests = Counter(emu.counts)
                    run.limited = emu.count_429
                    runs.append(run)
        finally:
            await runner.cleanup()
            await emu.close()
    return runs


async def naive_run(checks: int, dois: int, latency: float, absent: int) -> Run:
    """Every check resolved on its own through one shared `Net`: no sharing, no batching."""
    data, asked = corpus(dois, absent)
    config = EmulatorConfig(latency=latency, rate_limits=dict(PUBLISHED_LIMITS))
    emu = await start_emulator(data, config)
    run = Run("one lookup per check", checks, 0.0)
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as folder:
        settings = settings_for(emu.base_urls, folder)
        try:
            async with open_net(settings, registry.hosts()) as net:

                async def one(i: int) -> None:
                    doi = asked[i % len(asked)]
                    claimed = body(doi, i, "x")["reference"]["claimed"]
                    refs = reference_table(
                        doi, None, claimed["title"], claimed["authors"], claimed["year"]
                    )
                    started = time.perf_counter()
                    record = (await resolve(refs, settings, net)).to_pylist()[0]
                    run.latencies.append(time.perf_counter() - started)
                    run.verdicts[record["status"]] += 1

                started = time.perf_counter()
                await asyncio.gather(*(one(i) for i in range(checks)))
                run.wall = time.perf_counter() - started
        finally:
            run.requests = Counter(emu.counts)
            run.limited = emu.count_429
            await emu.close()
    return run


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, aiohttp {aiohttp.__version__} "
        "(shared with other jobs while measured)"
    )


def _counts(counter: Counter[Any], prefix: str = "") -> str:
    shown = sorted(((k, v) for k, v in counter.items() if v), key=lambda kv: str(kv[0]))
    return ", ".join(f"{prefix}{k} {v}" for k, v in shown) or "none"


def report(runs: list[Run], args: argparse.Namespace, command: str) -> str:
    """The RESULTS.md section."""
    lines = [
        "## serve",
        "",
        f"Command: `{command}`  ",
        f"Date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}  ",
        f"Machine: {_machine()}",
        "",
        f"{args.checks} concurrent `/check` clients over {args.dois} DOIs ({args.absent} not "
        f"registered) from {args.callers} callers, all sent at once. Emulator: "
        f"{args.latency * 1000:.0f} ms latency, published limits enforced with 429 (Crossref "
        "10/1 s, NCBI 3/1 s, arXiv 1/3 s). Latency is measured by the client, per request.",
        "",
        "| run | wall s | answers | verdicts | register requests | per check | p50 s | p95 s "
        "| max s | 429s |",
        "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines.extend(
        f"| {r.name} | {r.wall:.2f} | {_counts(r.statuses, 'HTTP ')} | {_counts(r.verdicts)} "
        f"| {r.total_requests} ({_counts(r.requests)}) | {r.total_requests / r.checks:.3f} "
        f"| {r.percentile(0.5):.2f} | {r.percentile(0.95):.2f} | {max(r.latencies):.2f} "
        f"| {r.limited} |"
        for r in runs
    )
    cold = runs[0]
    answered = sum(cold.statuses.values())
    lines += [
        "",
        f"- All answered: {answered} of {cold.checks} "
        f"({'yes' if answered == cold.checks and set(cold.statuses) == {200} else 'NO'}); "
        f"rate-limit 429s at the registers: {sum(r.limited for r in runs)} (target 0).",
        f"- Warm run register requests: {runs[1].total_requests} (target 0).",
    ]
    if len(runs) > 2:
        naive = runs[2]
        lines.append(
            f"- One lookup per check: {naive.total_requests} requests and {naive.wall:.1f} s vs "
            f"{cold.total_requests} and {cold.wall:.1f} s: sharing and batching send "
            f"{naive.total_requests / max(1, cold.total_requests):.1f}x fewer requests and "
            f"answer {naive.wall / cold.wall:.1f}x sooner."
        )
    return "\n".join(lines) + "\n"


def write_section(path: Path, section: str) -> None:
    """Replace the `## serve` section of `path` (or append it)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    pattern = re.compile(r"^## serve\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


async def main(args: argparse.Namespace) -> list[Run]:
    runs = await served_runs(args.checks, args.dois, args.callers, args.latency, args.absent)
    if not args.skip_naive:
        runs.append(await naive_run(args.checks, args.dois, args.latency, args.absent))
    return runs


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=200)
    parser.add_argument("--dois", type=int, default=40)
    parser.add_argument("--absent", type=int, default=4)
    parser.add_argument("--callers", type=int, default=7)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--write-results", type=Path)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse(sys.argv[1:])
    results = asyncio.run(main(arguments))
    section = report(results, arguments, "python benchmarks/serve.py " + " ".join(sys.argv[1:]))
    print(section)
    if arguments.write_results:
        write_section(arguments.write_results, section)
