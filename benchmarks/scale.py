"""Scale benchmark: a million references against ten million records, beside bare DuckDB; and
dump imports.

Usage:
  python benchmarks/scale.py audit [--data /tmp/auditor-scale] [--records 10000000]
      [--references 1000000] [--repeat 1]
  python benchmarks/scale.py import [--mb 100] [--data /tmp/auditor-dumps]
      [--kinds crossref,pubmed,arxiv,datacite,dblp] [--keep]

`audit` generates the data once (`benchmarks/scaledata.py`, kept in `--data`), then times in the
same run, each in a fresh process (so its peak resident memory is its own):

- `auditor audit refs.parquet --snapshot snapshot.parquet --offline --out DIR` (the
  whole command: load, classify, resolve by the DuckDB snapshot join, compare, waterfall, title
  search, duplicates, checklist, Parquet/CSV/JSON reports);
- DuckDB doing the bare minimum of the same work: read both files, join on the identifier,
  compare title and year, write the joined table as Parquet.

`import` writes a synthetic dump of about `--mb` megabytes (uncompressed) in each format's real
shape and times `auditor snapshot import` on it (records/s, peak memory), one format at a time,
deleting each dump and snapshot afterwards. Results are printed as Markdown.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_MEASURE = """
import resource, runpy, sys, time
sys.argv = {argv!r}
started = time.perf_counter()
try:
    runpy.run_module('auditor', run_name='__main__')
except SystemExit as exc:
    code = exc.code
took = time.perf_counter() - started
# CPU seconds beside the wall time: the machine is shared, and CPU time is what a busy
# neighbour changes least.
use = resource.getrusage(resource.RUSAGE_SELF)
print('MEASURE', took, use.ru_maxrss / 1024, use.ru_utime + use.ru_stime)
"""

_DUCKDB = """
import resource, sys, time, duckdb
refs, snap, out = sys.argv[1:4]
started = time.perf_counter()
duckdb.sql(f'''
COPY (
  SELECT r.key, r.doi, s.identifier, r.title, s.title AS register_title,
         r.title = s.title AS title_match, r.year, s.year AS register_year,
         r.year = s.year AS year_match
  FROM read_parquet('{refs}') r LEFT JOIN read_parquet('{snap}') s ON r.doi = s.identifier
) TO '{out}' (FORMAT parquet)''')
took = time.perf_counter() - started
use = resource.getrusage(resource.RUSAGE_SELF)
print('MEASURE', took, use.ru_maxrss / 1024, use.ru_utime + use.ru_stime)
"""


def _run(code: str, *args: str) -> tuple[float, float, float]:
    """Wall s, peak MB and CPU s of a fresh process running `code` (a `MEASURE` script)."""
    env_path = str(ROOT)
    out = subprocess.run(
        # -P: a stray module in the working folder (say a `grp.py` in /tmp) must not shadow the
        # standard library's.
        [sys.executable, "-P", "-c", code, *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        cwd="/tmp",
    )
    line = next((x for x in out.stdout.splitlines() if x.startswith("MEASURE")), None)
    if line is None:
        raise SystemExit(f"run failed:\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}")
    _, took, peak, cpu = line.split()
    return float(took), float(peak), float(cpu)


def _machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import duckdb
    import pyarrow

    return (
        f"{cpu}, {len(__import__('os').sched_getaffinity(0))} cores, Linux "
        f"{platform.release()}, Python {platform.python_version()}, pyarrow {pyarrow.__version__}, "
        f"duckdb {duckdb.__version__} (shared with other jobs while measured)"
    )


def audit(args: argparse.Namespace) -> None:
    """The audit against bare DuckDB, in the same run."""
    data = Path(args.data)
    refs, snap = data / "refs.parquet", data / "snapshot.parquet"
    if not (refs.exists() and snap.exists()):
        subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "scaledata.py"), "--records",
             str(args.records), "--references", str(args.references), "--out", str(data)],
            check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    print(f"Machine: {_machine()}\n")
    print("| run | load avg | auditor s | auditor CPU s | auditor peak MB | DuckDB s "
          "| DuckDB CPU s | DuckDB peak MB | ratio |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in range(args.repeat):
        load = os.getloadavg()[0]
        base, base_peak, base_cpu = _run(
            _DUCKDB, str(refs), str(snap), str(data / "duckdb-out.parquet")
        )
        # The judged command as a user runs it (its findings list and summary included, to a
        # pipe), only with the report folder and cache placed beside the data.
        argv = ["auditor", "audit", str(refs), "--snapshot", str(snap), "--offline",
                "--out", str(data / "report"), "--cache-dir", str(data / "cache"),
                "--fail-on", "none"]  # fmt: skip
        took, peak, cpu = _run(_MEASURE.format(argv=argv))
        print(f"| {n + 1} | {load:.1f} | {took:.1f} | {cpu:.1f} | {peak:.0f} | {base:.1f} | "
              f"{base_cpu:.1f} | {base_peak:.0f} | {took / base:.1f}x |", flush=True)  # fmt: skip


def _crossref(i: int) -> bytes:
    work = {
        "DOI": f"10.5555/dump.{i}", "type": "journal-article",
        "title": [f"Synthetic work number {i} on generated data"],
        "author": [{"given": "Ada", "family": f"Author{i % 997}"}, {"given": "B", "family": "Roe"}],
        "container-title": ["Journal of Generated Results"], "volume": str(i % 90),
        "published": {"date-parts": [[1990 + i % 35, 1, 1]]},
    }  # fmt: skip
    return json.dumps(work).encode() + b"\n"


def _arxiv(i: int) -> bytes:
    item = {
        "id": f"{7 + i % 17:02d}{1 + i % 12:02d}.{i % 99999:05d}",
        "title": f"Synthetic preprint {i}", "authors_parsed": [[f"Author{i % 997}", "Ada", ""]],
        "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
    }  # fmt: skip
    return json.dumps(item).encode() + b"\n"


def _datacite(i: int) -> bytes:
    item = {
        "id": f"10.5281/zenodo.{i}", "type": "dois",
        "attributes": {"doi": f"10.5281/zenodo.{i}", "titles": [{"title": f"Dataset {i}"}],
                       "creators": [{"name": f"Author{i % 997}, Ada",
                                     "familyName": f"Author{i % 997}"}],
                       "publicationYear": 2000 + i % 25, "publisher": "Zenodo"},
    }  # fmt: skip
    return json.dumps(item).encode() + b"\n"


def _pubmed(i: int) -> bytes:
    return (
        f'<PubmedArticle><MedlineCitation><PMID Version="1">{i + 1}</PMID><Article><Journal>'
        f"<JournalIssue><Volume>{i % 90}</Volume><PubDate><Year>{1990 + i % 35}</Year></PubDate>"
        f"</JournalIssue><ISOAbbreviation>J Gen Res</ISOAbbreviation></Journal><ArticleTitle>"
        f"Synthetic article {i}.</ArticleTitle><AuthorList><Author><LastName>Author{i % 997}"
        f"</LastName><Initials>A</Initials></Author></AuthorList></Article></MedlineCitation>"
        f'<PubmedData><ArticleIdList><ArticleId IdType="doi">10.5555/pm.{i}</ArticleId>'
        f"</ArticleIdList></PubmedData></PubmedArticle>\n"
    ).encode()


def _dblp(i: int) -> bytes:
    return (
        f'<article key="journals/x/A{i}"><author>J&ouml;rg Author{i % 997}</author>'
        f"<title>Synthetic paper {i}.</title><year>{1990 + i % 35}</year><journal>X</journal>"
        f"<ee>https://doi.org/10.5555/db.{i}</ee></article>\n"
    ).encode()


_FORMATS = {
    "crossref": ("works.jsonl.gz", b"", _crossref, b""),
    "pubmed": ("pubmed.xml.gz", b'<?xml version="1.0"?>\n<PubmedArticleSet>\n', _pubmed,
               b"</PubmedArticleSet>\n"),
    "arxiv": ("arxiv.json.gz", b"", _arxiv, b""),
    "datacite": ("datacite.jsonl.gz", b"", _datacite, b""),
    "dblp": ("dblp.xml.gz", b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
             b'<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n', _dblp, b"</dblp>\n"),
}  # fmt: skip


def _write_dump(path: Path, kind: str, mb: int) -> None:
    name, head, item, tail = _FORMATS[kind]
    size, limit, count = len(head), mb << 20, 0
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(head)
        while size < limit:
            chunk = b"".join(item(count + k) for k in range(1000))
            out.write(chunk)
            size += len(chunk)
            count += 1000
        out.write(tail)


def imports(args: argparse.Namespace) -> None:
    """Each dump format of about `--mb` MB (uncompressed), imported; records/s and peak memory.

    One format at a time; its dump and snapshot are deleted afterwards unless `--keep` (the
    disk is shared)."""
    import shutil

    import pyarrow.dataset as ds

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    print(f"Machine: {_machine()}\n")
    print("| format | dump MB (uncompressed) | gzipped MB | records | wall s | CPU s "
          "| records/s (wall) | records/s (CPU) | peak MB | load average at start |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for kind in args.kinds.split(","):
        path = data / _FORMATS[kind][0]
        if not path.exists():
            _write_dump(path, kind, args.mb)
        with gzip.open(path, "rb") as stream:
            raw = sum(len(b) for b in iter(lambda: stream.read(1 << 20), b""))
        target = data / f"{kind}-snapshot"
        shutil.rmtree(target, ignore_errors=True)
        argv = ["auditor", "snapshot", "import", kind, str(path), "--out", str(target), "--quiet"]
        load = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
        took, peak, cpu = _run(_MEASURE.format(argv=argv))
        records = ds.dataset(str(target / "records"), format="parquet").count_rows()
        print(f"| {kind} | {raw / (1 << 20):,.0f} | {path.stat().st_size / (1 << 20):,.1f} | "
              f"{records:,} | {took:.1f} | {cpu:.1f} | {records / took:,.0f} | "
              f"{records / cpu:,.0f} | {peak:.0f} | {load} |", flush=True)  # fmt: skip
        if not args.keep:
            path.unlink()
            shutil.rmtree(target)


def main() -> None:
    """`audit` or `import`."""
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("audit")
    a.add_argument("--data", default="/tmp/auditor-scale")
    a.add_argument("--records", type=int, default=10_000_000)
    a.add_argument("--references", type=int, default=1_000_000)
    a.add_argument("--repeat", type=int, default=1)
    i = sub.add_parser("import")
    i.add_argument("--data", default="/tmp/auditor-dumps")
    i.add_argument("--mb", type=int, default=100)
    i.add_argument("--kinds", default=",".join(_FORMATS), help="comma-separated formats")
    i.add_argument("--keep", action="store_true", help="keep each dump and snapshot")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"Date: {started}  \nCommand: `python benchmarks/scale.py {' '.join(sys.argv[1:])}`  ")
    (audit if args.what == "audit" else imports)(args)


if __name__ == "__main__":
    main()
