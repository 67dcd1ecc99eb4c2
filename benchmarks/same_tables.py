"""Whether two audits wrote the same tables, row for row: a refactor's behaviour check.

Usage: `python benchmarks/same_tables.py [--ignore COLUMN ...] BEFORE_DIR AFTER_DIR [...]`, each
pair two `auditor audit --out` folders; `--ignore retrieved_at` for runs against live (emulated)
registers, whose answers carry the time they were fetched. Compares `verdicts.parquet`,
`checklist.parquet` and `duplicates.parquet` (schema and every value, in order) and prints the first
differing row of each table that differs. Exit 0 when every pair is equal, 1 otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow.parquet as pq

TABLES = ("verdicts", "checklist", "duplicates")


def differences(before: Path, after: Path, ignore: tuple[str, ...] = ()) -> list[str]:
    """One line per table that differs between the two folders (empty when all are equal),
    columns `ignore` left out."""
    out = []
    for name in TABLES:
        a, b = before / f"{name}.parquet", after / f"{name}.parquet"
        if a.exists() != b.exists():
            out.append(f"{name}: written in only one of {before}, {after}")
            continue
        if not a.exists():
            continue
        left, right = pq.read_table(a), pq.read_table(b)
        left = left.drop_columns([c for c in ignore if c in left.column_names])
        right = right.drop_columns([c for c in ignore if c in right.column_names])
        if left.schema != right.schema:
            out.append(f"{name}: schemas differ")
            continue
        if left.num_rows != right.num_rows:
            out.append(f"{name}: {left.num_rows} rows before, {right.num_rows} after")
            continue
        if left.equals(right):
            continue
        rows = zip(left.to_pylist(), right.to_pylist(), strict=True)
        at, (x, y) = next((i, p) for i, p in enumerate(rows) if p[0] != p[1])
        cols = sorted(k for k in x if x[k] != y[k])
        out.append(
            f"{name}: row {at} differs in {cols}: {[x[c] for c in cols]} vs {[y[c] for c in cols]}"
        )
    return out


def main(argv: list[str]) -> int:
    """Compare each (before, after) pair of folders; print what differs."""
    ignore: list[str] = []
    while len(argv) >= 2 and argv[0] == "--ignore":
        ignore.append(argv[1])
        argv = argv[2:]
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for before, after in zip(argv[::2], argv[1::2], strict=True):
        found = differences(Path(before), Path(after), tuple(ignore))
        print(f"{after}: {'same' if not found else 'DIFFERENT'}")
        for line in found:
            print(f"  {line}")
        failed = failed or bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
