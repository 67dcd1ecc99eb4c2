"""Benchmark of the comparison core: vectorized `compare` against the per-row oracle.

Usage: `python benchmarks/compare.py [--rows 1000000] [--oracle-sample 20000] [--seed 7]
[--repeat 3] [--data DIR]` (`--data` keeps the generated Parquet pairs for later runs).

Generates `--rows` reference/record pairs (deterministic for a seed): titles of 6–14 words drawn
from a synthetic vocabulary, about 12% with accented words and 3% in Chinese, 1–8 authors in the
forms "Surname, G.", "G. Surname" and "Surname G", register records that are identical, re-cased,
one word off, or unrelated, and years that sometimes differ or are missing. Times the vectorized
`auditor.compare.compare` on all rows (`--repeat` runs; first and best reported), times the
per-row oracle of `tests/compare/reference.py` on a random sample and extrapolates its per-row
cost, checks that both agree on that sample, and reports the peak resident memory of the
measuring process (a fresh process that loads the generated pairs from Parquet). Wall and CPU
clocks are both reported: on a shared machine CPU time is the fairer one.
"""

from __future__ import annotations

import argparse
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor import tables  # noqa: E402
from auditor.compare import compare  # noqa: E402
from tests.compare.reference import expected, expected_v2  # noqa: E402

ACCENTED = ["naïve", "Über", "résumé", "Ångström", "São", "Düsseldorf", "façade", "Müller"]
HAN = ["宫颈腺癌", "的表达", "及其", "临床意义", "研究", "患者", "预后", "分析"]


def _vocabulary(rng: np.random.Generator, size: int) -> np.ndarray:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    lengths = rng.integers(3, 11, size)
    return np.array(["".join(rng.choice(letters, n)) for n in lengths], dtype=object)


def _titles(rng: np.random.Generator, n: int, vocab: np.ndarray) -> list[list[str]]:
    lengths = rng.integers(6, 15, n)
    words = vocab[rng.integers(0, len(vocab), int(lengths.sum()))]
    out = np.split(words, np.cumsum(lengths)[:-1])
    titles = [list(w) for w in out]
    for i in np.flatnonzero(rng.random(n) < 0.12):
        titles[i][rng.integers(0, len(titles[i]))] = ACCENTED[rng.integers(0, len(ACCENTED))]
    return titles


def _register_title(rng: np.random.Generator, words: list[str], vocab: np.ndarray) -> str:
    roll = rng.random()
    if roll < 0.55:
        return " ".join(words)
    if roll < 0.70:
        return " ".join(w.capitalize() for w in words) + "."
    if roll < 0.85:
        changed = list(words)
        changed[rng.integers(0, len(changed))] = str(vocab[rng.integers(0, len(vocab))])
        return " ".join(changed)
    return " ".join(vocab[rng.integers(0, len(vocab), len(words))])


def generate(n: int, seed: int) -> tuple[pa.Table, pa.Table]:
    """`n` references and their `n` records (one distinct DOI each)."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, 20_000)
    surnames = _vocabulary(rng, 50_000)
    title_words = _titles(rng, n, vocab)
    han_rows = set(np.flatnonzero(rng.random(n) < 0.03).tolist())
    n_authors = rng.integers(1, 9, n)
    picks = surnames[rng.integers(0, len(surnames), int(n_authors.sum()))]
    initials = rng.integers(65, 91, len(picks))
    forms = rng.integers(0, 3, len(picks))
    years = rng.integers(1990, 2026, n)
    refs: dict[str, list[Any]] = {k: [] for k in ("title", "authors", "year")}
    recs: dict[str, list[Any]] = {k: [] for k in ("title", "surnames", "year")}
    pos = 0
    for i in range(n):
        k = int(n_authors[i])
        names = [s.capitalize() for s in picks[pos : pos + k]]
        written = [
            (f"{s}, {chr(c)}." if f == 0 else f"{chr(c)}. {s}" if f == 1 else f"{s} {chr(c)}")
            for s, c, f in zip(names, initials[pos : pos + k], forms[pos : pos + k], strict=True)
        ]
        pos += k
        if i in han_rows:
            # A Chinese title with a Latin run, unique per row; the register spells it with a
            # terminal 。, identically, or with one character fewer.
            han = "".join(HAN[j % len(HAN)] for j in range(i % 5 + 3))
            claimed = f"{han}{title_words[i][0].upper()}{i}{HAN[i % len(HAN)]}"
            refs["title"].append(claimed)
            recs["title"].append((claimed + "。", claimed, claimed[:-1])[i % 3])
        else:
            refs["title"].append(" ".join(title_words[i]))
            recs["title"].append(_register_title(rng, title_words[i], vocab))
        refs["authors"].append(written if i % 10 else None)
        recs["surnames"].append(names if i % 7 else names[::-1])
        refs["year"].append(int(years[i]) if i % 9 else None)
        recs["year"].append(int(years[i]) + (1 if i % 13 == 0 else 0) if i % 50 else None)
    ids = pa.array([f"10.5555/{i}" for i in range(n)])
    references = pa.table(
        {
            "row_id": pa.array(np.arange(n, dtype=np.int64)),
            "source_path": pa.array(np.full(n, "bench.bib", dtype=object), pa.string()),
            "id_type": pa.array(np.full(n, "doi", dtype=object), pa.string()),
            "identifier": ids,
            "title": pa.array(refs["title"], pa.string()),
            "authors": pa.array(refs["authors"], pa.list_(pa.string())),
            "year": pa.array(refs["year"], pa.int32()),
        }
    )
    records = pa.table(
        {
            "register": pa.array(np.full(n, "crossref", dtype=object), pa.string()),
            "id_type": pa.array(np.full(n, "doi", dtype=object), pa.string()),
            "identifier": ids,
            "status": pa.array(np.full(n, "found", dtype=object), pa.string()),
            "title": pa.array(recs["title"], pa.string()),
            "surnames": pa.array(recs["surnames"], pa.list_(pa.string())),
            "year": pa.array(recs["year"], pa.int32()),
        }
    )
    return _conform(references, tables.REFERENCES), _conform(records, tables.RECORDS)


def _conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """Add the schema's missing columns as nulls, in schema order."""
    n = table.num_rows
    cols = [table[f.name] if f.name in table.column_names else pa.nulls(n, f.type) for f in schema]
    return pa.Table.from_arrays(cols, schema=schema)


def _peak_rss_mib() -> float:
    """Peak resident memory of this process image, in MiB.

    `VmHWM` is reset by `exec`, unlike `ru_maxrss`, which a spawned child inherits from the
    (generating) parent on Linux.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _clocks() -> tuple[float, float]:
    """(wall, CPU of this process): CPU time is the fair clock on a machine shared with others."""
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    now = _clocks()
    return now[0] - start[0], now[1] - start[1]


def _oracle(
    references: pa.Table, records: pa.Table, sample: np.ndarray, criteria: str
) -> tuple[tuple[float, float], list[str]]:
    # The oracle is timed on Python dicts; converting the sample to dicts is not counted.
    refs = references.take(pa.array(sample)).to_pylist()
    recs = records.take(pa.array(sample)).to_pylist()
    start = _clocks()
    if criteria == tables.CRITERIA_V1:
        verdicts = [expected(r, c).verdict for r, c in zip(refs, recs, strict=True)]
    else:
        verdicts = [expected_v2(r, c)["verdict"] for r, c in zip(refs, recs, strict=True)]
    return _since(start), verdicts


def _measure(data: Path, repeat: int, sample_size: int, seed: int, criteria: str) -> None:
    """Load the pairs from `data` and time both implementations (run in a fresh process)."""
    references = pq.read_table(data / "references.parquet")
    records = pq.read_table(data / "records.parquet")
    rows = references.num_rows
    # warm the Unicode tables
    compare(references.slice(0, 1000), records.slice(0, 1000), criteria)
    rss_loaded = _peak_rss_mib()
    runs = []
    for _ in range(repeat):
        start = _clocks()
        verdicts = compare(references, records, criteria)
        runs.append(_since(start))
    rss = _peak_rss_mib()
    first_wall, first_cpu = runs[0]
    vec_wall, vec_cpu = min(r[0] for r in runs), min(r[1] for r in runs)

    rng = np.random.default_rng(seed + 1)
    sample = np.sort(rng.choice(rows, min(sample_size, rows), replace=False))
    (orc_wall, orc_cpu), oracle_verdicts = _oracle(references, records, sample, criteria)
    got = verdicts["verdict"].take(pa.array(sample)).to_pylist()
    disagreements = sum(a != b for a, b in zip(got, oracle_verdicts, strict=True))
    scale = rows / len(sample)
    counts = verdicts["verdict"].value_counts().to_pylist()

    print(f"criteria: {criteria}")
    print(f"python {platform.python_version()}, pyarrow {pa.__version__}, numpy {np.__version__}")
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={_cpus()}")
    print(f"vectorized runs (wall s, cpu s): {[(round(w, 2), round(c, 2)) for w, c in runs]}")
    print(
        f"first run only: speed-up {orc_wall * scale / first_wall:.1f}x wall, "
        f"{orc_cpu * scale / first_cpu:.1f}x cpu"
    )
    for clock, vec, orc in (("wall", vec_wall, orc_wall), ("cpu", vec_cpu, orc_cpu)):
        print(
            f"[{clock}, best run] vectorized {rows:,} rows: {vec:.2f} s "
            f"({vec / rows * 1e6:.2f} µs/row); oracle {len(sample):,} sampled rows: "
            f"{orc:.2f} s ({orc / len(sample) * 1e6:.1f} µs/row) → {orc * scale:.1f} s "
            f"extrapolated; speed-up {orc * scale / vec:.1f}x"
        )
    print(
        f"peak RSS of the measuring process: {rss_loaded:,.0f} MiB after loading the tables, "
        f"{rss:,.0f} MiB after the compare runs"
    )
    print(f"oracle disagreements on the sample: {disagreements}")
    print("verdicts: " + ", ".join(f"{c['values']}={c['counts']:,}" for c in counts))


def main() -> None:
    """Generate the pairs (unless `--data` holds them), then measure in a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--oracle-sample", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="vectorized runs; best is used")
    parser.add_argument("--data", type=Path, help="folder for the generated Parquet pairs")
    parser.add_argument(
        "--criteria",
        default=tables.CRITERIA_V1,
        choices=tables.CRITERIA_IDS,
        help="criteria compared (the oracle is the per-row form of the same criteria)",
    )
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_only:
        _measure(args.data, args.repeat, args.oracle_sample, args.seed, args.criteria)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or Path(tmp)
        if not (data / "records.parquet").exists():
            data.mkdir(parents=True, exist_ok=True)
            start = time.perf_counter()
            references, records = generate(args.rows, args.seed)
            pq.write_table(references, data / "references.parquet")
            pq.write_table(records, data / "records.parquet")
            print(f"generated {args.rows:,} pairs in {time.perf_counter() - start:.1f} s")
            del references, records
        # A fresh process, so its peak memory is that of loading the tables and comparing.
        command = [sys.executable, __file__, "--measure-only", "--data", str(data)]
        command += ["--repeat", str(args.repeat), "--oracle-sample", str(args.oracle_sample)]
        command += ["--criteria", args.criteria]
        subprocess.run([*command, "--seed", str(args.seed)], check=True)


def _cpus() -> str:
    import os

    return str(os.cpu_count())


if __name__ == "__main__":
    main()
