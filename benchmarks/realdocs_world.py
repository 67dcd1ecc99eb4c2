"""Benchmark: real documents audited against a world of their own reference lists (#35).

Each document of `tests/load/documents/realdocs/` is audited offline against a snapshot of its
own cited `.bib` entries (`world.py`): the registers hold every reference it prints, so every
flag on an aligned row is a false flag of the reader. Prints one row per document and each flag's
cause; `--write-expected` pins the figures the test holds, `--write-results FILE` writes the
`RESULTS.md` section.

Usage: `PYTHONPATH=$PWD python benchmarks/realdocs_world.py [--write-expected]
[--write-results benchmarks/RESULTS.md]` (documents not checked in: `fetch.py` first).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.documents import write_section
from benchmarks.resolve import machine
from tests.load.documents.realdocs.corpus import HERE, load_manifest
from tests.load.documents.realdocs.world import audit_in_world

HEADING = "## real documents in a world of their own references (#35)"
EXPECTED = HERE / "expected_world.json"


def main(argv: list[str]) -> None:
    """Audit every document present and print (or write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-expected", action="store_true")
    parser.add_argument("--write-results", type=Path)
    args = parser.parse_args(argv)
    pinned = json.loads(EXPECTED.read_text(encoding="utf-8"))
    rows, absent, totals = [], [], [0, 0, 0]
    for spec in load_manifest():
        if not all(spec.local(p).exists() for p in spec.files):
            absent.append(spec.id)
            continue
        with tempfile.TemporaryDirectory() as work:
            s = audit_in_world(spec, Path(work))
        pinned[spec.id] = {
            "aligned": s.aligned, "flagged": s.flagged, "spurious_flagged": s.spurious_flagged,
        }  # fmt: skip
        totals = [totals[0] + s.aligned, totals[1] + s.flagged, totals[2] + s.spurious_flagged]
        causes = ", ".join(f"{key}: {reason}" for key, _verdict, reason in s.flags)
        rows.append(f"| {spec.id} | {s.aligned} | {s.flagged} | {s.spurious_flagged} | {causes} |")
        print(rows[-1], flush=True)
    share = totals[1] / totals[0] if totals[0] else 0.0
    summary = (
        f"{len(rows)} documents: {totals[0]:,} aligned references, {totals[1]} flagged "
        f"({share:.1%}), {totals[2]} flags on rows aligned with no reference; not here: {absent}"
    )
    print(summary)
    if args.write_expected:
        EXPECTED.write_text(json.dumps(pinned, indent=1, ensure_ascii=False) + "\n", "utf-8")
    if args.write_results:
        section = [
            HEADING,
            "",
            f"Command: `PYTHONPATH=$PWD python benchmarks/realdocs_world.py {' '.join(argv)}`  ",
            f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
            f"Machine: {machine()}",
            "",
            "Each document audited offline against a snapshot of its own cited `.bib` entries",
            "(imported from Crossref-shaped works by `auditor snapshot import`; no DOI: one",
            "under 10.5555, found by title search alone). Every flag (RESOLVES-BUT-DIFFERS,",
            "DOES-NOT-RESOLVE, NOT FOUND) on an aligned reference is false. Target: none.",
            "",
            summary,
            "",
            "| document | aligned | flagged | flagged, no reference | key: reason of each flag |",
            "| --- | ---: | ---: | ---: | --- |",
            *rows,
            "",
        ]
        write_section(args.write_results, "\n".join(section) + "\n", HEADING)


if __name__ == "__main__":
    main(sys.argv[1:])
