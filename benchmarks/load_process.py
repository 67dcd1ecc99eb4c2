"""Benchmark: a whole `auditor load FILE` process against a whole bare `bibtexparser` process.

What a user waits for: interpreter start, imports, parse, LaTeX, names, identifiers, classify,
the Arrow table and the summary (`python -m auditor load FILE`), against a process that only
imports bibtexparser and runs `bibtexparser.parse_file(FILE)` (its default parse stack). Both are
run interleaved (bare, load, bare, load, …) on the same file, `--repeat` times each; the table
gives minimum and median wall time and CPU time (user + system) and their ratios.

Files: every `--file` as given (real bibliographies), `--grow` files built by repeating the
entries of the given real files (keys suffixed, so no duplicates) up to `--grow-mb` megabytes,
and `--synthetic N` entries from `benchmarks/load.py`'s generator.

Usage: `python benchmarks/load_process.py --file A.bib [--file B.bib] [--grow] [--grow-mb 3]
[--synthetic 10000] [--repeat 7]`
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_BARE = "import sys, bibtexparser; bibtexparser.parse_file(sys.argv[1])"
_KEY_RE = re.compile(r"(@\s*(?!string\b|comment\b|preamble\b)[A-Za-z]+\s*[{(]\s*)([^,\s]+)", re.I)


def _run(cmd: list[str]) -> tuple[float, float, float]:
    """`(wall s, CPU s, peak RSS MB)` of one child process; CPU time (user + system) is what a
    shared machine disturbs least, so it is reported beside the wall time. The child may write
    `.pyc` files even where `PYTHONDONTWRITEBYTECODE` is set here: an installed package has them,
    so the warm-up run writes them and the timed runs read them, as bibtexparser's are."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, cmd)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KiB on Linux


Timings = list[tuple[float, float, float]]


def _measure(path: Path, repeat: int) -> tuple[Timings, Timings]:
    bare_cmd = [sys.executable, "-c", _BARE, str(path)]
    load_cmd = [sys.executable, "-m", "auditor", "load", str(path)]
    _run(bare_cmd), _run(load_cmd)  # warm the page cache and .pyc files
    bare, load = [], []
    for _ in range(repeat):
        bare.append(_run(bare_cmd))
        load.append(_run(load_cmd))
    return bare, load


def _grow(files: list[Path], megabytes: float, out: Path) -> None:
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in files]
    parts, size, rep = [], 0, 0
    while size < megabytes * 1e6:
        for text in texts:
            part = _KEY_RE.sub(lambda m, r=rep: f"{m.group(1)}{m.group(2)}-r{r}", text)
            parts.append(part)
            size += len(part.encode("utf-8"))
        rep += 1
    out.write_text("".join(parts), encoding="utf-8")


def _entries(path: Path) -> int:
    text = path.read_text(encoding="utf-8", errors="replace")
    return len(
        re.findall(r"^\s*@\s*(?!string\b|comment\b|preamble\b)[A-Za-z]+\s*[{(]", text, re.M | re.I)
    )


def main(argv: list[str] | None = None) -> None:
    """Time every file and print a Markdown table for `benchmarks/RESULTS.md`."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", action="append", default=[], type=Path)
    ap.add_argument("--grow", action="store_true", help="also time the files repeated to --grow-mb")
    ap.add_argument("--grow-mb", type=float, default=3.0)
    ap.add_argument("--synthetic", type=int, default=0, help="also time N generated entries")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(f"real: {p.name}", p) for p in args.file]
        if args.grow and args.file:
            grown = Path(tmp) / "grown.bib"
            _grow(args.file, args.grow_mb, grown)
            names = " + ".join(p.name for p in args.file)
            cases.append((f"real entries repeated: {names}", grown))
        if args.synthetic:
            sys.path.insert(0, str(Path(__file__).parent))
            from load import generate  # benchmarks/load.py

            synthetic = Path(tmp) / "synthetic.bib"
            synthetic.write_text(generate(args.synthetic), encoding="utf-8")
            cases.append((f"synthetic ({args.synthetic:,} generated)", synthetic))
        print(f"- date (UTC): {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}")
        print(
            f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Python "
            f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the start"
        )
        print(f"- {args.repeat} runs of each process per file, interleaved\n")
        print(
            "| file | MB | entries | bare wall s | load wall s | wall ratio | bare CPU s "
            "| load CPU s | CPU ratio | bare peak MB | load peak MB |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for label, path in cases:
            bare, load = _measure(path, args.repeat)
            cells = [label, f"{path.stat().st_size / 1e6:.2f}", f"{_entries(path):,}"]
            for i in (0, 1):  # wall, then CPU
                b, lo = [t[i] for t in bare], [t[i] for t in load]
                bmed, lmed = statistics.median(b), statistics.median(lo)
                cells += [
                    f"{min(b):.2f} ({bmed:.2f})",
                    f"{min(lo):.2f} ({lmed:.2f})",
                    f"{min(lo) / min(b):.2f}x ({lmed / bmed:.2f}x)",
                ]
            cells += [f"{max(t[2] for t in bare):.0f}", f"{max(t[2] for t in load):.0f}"]
            print("| " + " | ".join(cells) + " |")
        print("\nEach cell: minimum (median) over the runs; peak RSS: the largest over the runs.")


if __name__ == "__main__":
    main()
