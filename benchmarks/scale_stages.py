"""Where the scale benchmark's audit spends its time and memory, stage by stage.

Usage: `python benchmarks/scale_stages.py [--data /tmp/auditor-scale]` (data made by
`benchmarks/scale.py audit`). Runs the judged command of `scale.py audit` in a fresh process with
a timer around each stage function (wall seconds, the process's CPU seconds while it ran) and a
resident-memory sampler (every 20 ms), and prints a Markdown table. Stages that run side by side
(compare and the duplicate search; the report formats) overlap in time, and their CPU columns
count the whole process over their span, so they do not add up.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PROBE = r"""
import functools, importlib, inspect, resource, runpy, sys, threading, time
T0 = time.perf_counter()
def cpu():
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime
def rss():
    with open('/proc/self/statm') as handle:
        return int(handle.read().split()[1]) * 4096 / 2**20
samples, spans = [], []
def sample():
    while True:
        samples.append((time.perf_counter() - T0, rss()))
        time.sleep(0.02)
threading.Thread(target=sample, daemon=True).start()
def timed(module, name, label):
    owner = importlib.import_module(module)
    *path, last = name.split('.')
    for part in path:
        owner = getattr(owner, part)
    fn = getattr(owner, last)
    def record(start, used):
        spans.append((start - T0, time.perf_counter() - start, cpu() - used, label))
    if inspect.iscoroutinefunction(fn):
        async def wrapped(*a, **k):
            start, used = time.perf_counter(), cpu()
            try:
                return await fn(*a, **k)
            finally:
                record(start, used)
    else:
        def wrapped(*a, **k):
            start, used = time.perf_counter(), cpu()
            try:
                return fn(*a, **k)
            finally:
                record(start, used)
    setattr(owner, last, functools.wraps(fn)(wrapped))
import auditor.report.csv, auditor.report.parquet
for module, name, label in [
    ('auditor.pipeline', 'load_files', 'load and classify'),
    ('auditor.stages', 'resolve', 'resolve'),
    ('auditor.resolve', 'join_snapshots', '  of which the snapshot join'),
    ('auditor.stages', 'compare', 'compare'),
    ('auditor.stages', 'find_duplicates', 'duplicates (beside compare)'),
    ('auditor.stages', 'build_checklist', 'checklist'),
    ('auditor.report.view', 'build_view', 'report view'),
    ('auditor.report', 'write_reports', 'reports'),
    ('auditor.report.parquet', 'ParquetReport.write', '  Parquet (beside CSV)'),
    ('auditor.report.csv', 'CsvReport.write', '  CSV (beside Parquet)'),
]:
    timed(module, name, label)
sys.argv = ['auditor', *sys.argv[1:]]
try:
    runpy.run_module('auditor', run_name='__main__')
except SystemExit:
    pass
end, used = time.perf_counter() - T0, cpu()
first = min(start for start, *_ in spans)
rows = [(0.0, first, None, 'start-up (imports, settings)')] + sorted(spans)
last = max(start + took for start, took, *_ in spans)
rows.append((last, end - last, None, 'summary, findings list, exit'))
print('| stage | starts s | wall s | CPU s | peak MiB |')
print('| --- | ---: | ---: | ---: | ---: |')
for start, took, spent, label in rows:
    peak = max((m for t, m in samples if start <= t <= start + took), default=0.0)
    shown = '' if spent is None else f'{spent:.2f}'
    print(f'| {label} | {start:.2f} | {took:.2f} | {shown} | {peak:.0f} |')
top = max(m for _, m in samples)
print(f'| whole run | | {end:.2f} | {used:.2f} | {top:.0f} (sampled) |')
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default="/tmp/auditor-scale")
    args = parser.parse_args()
    data = Path(args.data)
    argv = ["audit", str(data / "refs.parquet"), "--snapshot", str(data / "snapshot.parquet"),
            "--offline", "--out", str(data / "report"), "--cache-dir", str(data / "cache"),
            "--fail-on", "none"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-P", "-c", _PROBE, *argv],
        capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        cwd="/tmp",
    )  # fmt: skip
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    if done.returncode or not table:
        raise SystemExit(f"run failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    print("\n".join(table))


if __name__ == "__main__":
    main()
