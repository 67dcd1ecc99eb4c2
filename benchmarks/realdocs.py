"""Real documents (issue 35 item 5): each read by `load_files` and scored against its own truth.

For each document of `tests/load/documents/realdocs/manifest.json` whose files are here (the
redistributable ones are checked in; `fetch.py` brings the rest), the truth is its own `.bib`
filtered to what its `.bbl` (or `.tex`) cites; rows are aligned to truth entries by title,
first author and year (`tests/load/documents/realdocs/score.py`). Prints one line per document:
extraction recall, spurious rows, field accuracy (title, first author, year) and read time.

Usage: `python benchmarks/realdocs.py [--write-expected] [--write-results FILE] [--detail]`.
`--write-expected` rewrites the figures the tests pin (`expected.json`); `--detail` prints the
missed keys, spurious rows and wrong fields of each document below target.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from auditor.errors import InputError
from auditor.load import load_files
from benchmarks.documents import write_section
from benchmarks.resolve import machine
from tests.load.documents.realdocs.corpus import EXPECTED, DocSpec, load_manifest
from tests.load.documents.realdocs.score import Score, score
from tests.load.documents.realdocs.truth import read_truth

#: The issue's target: extraction recall of every document.
TARGET = 0.97
HEADING = "## real documents (#35 item 5)"


def measure(spec: DocSpec) -> tuple[Score, float, str | None]:
    """(score, read seconds, the reader's refusal or `None`) of one document."""
    truth = read_truth(
        [spec.local(b) for b in spec.bibs],
        spec.local(spec.bbl) if spec.bbl else None,
        [spec.local(t) for t in spec.texs],
    )
    started = time.perf_counter()
    try:
        rows = load_files([str(spec.local(spec.document))]).table.to_pylist()
        refused = None
    except InputError as e:  # no references section: every entry missed
        rows, refused = [], str(e).split(": ", 1)[-1][:60]
    return score(rows, truth), time.perf_counter() - started, refused


def _row(spec: DocSpec, s: Score, wall: float, refused: str | None) -> str:
    f = s.figures()
    note = f"refused: {refused}" if refused else ("" if s.recall >= TARGET else "below target")
    here = "yes" if spec.redistribute else "fetch"
    return (
        f"| {spec.id} | {spec.style} | {here} | {f['truth']} | {f['rows']} | {f['recall']} "
        f"| {f['spurious']} | {f['title']} | {f['first_author']} | {f['year']} | {wall:.2f} "
        f"| {note} |"
    )


def _detail(spec: DocSpec, s: Score) -> None:
    print(f"## {spec.id}: missed {list(s.missed[:5])}")
    for text in s.spurious_text[:3]:
        print(f"   spurious: {text[:150]!r}")
    for key, field, read, want in s.wrong[:4]:
        print(f"   wrong {field} of {key}: read {read[:80]!r}, truth {want[:80]!r}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-expected", action="store_true")
    parser.add_argument("--write-results", type=Path)
    parser.add_argument("--detail", action="store_true")
    args: Any = parser.parse_args(argv)
    lines, expected, absent = [], {}, []
    for spec in load_manifest():
        if not spec.local(spec.document).exists():
            absent.append(spec.id)
            continue
        s, wall, refused = measure(spec)
        expected[spec.id] = s.figures()
        lines.append(_row(spec, s, wall, refused))
        print(lines[-1], flush=True)
        if args.detail and s.recall < TARGET:
            _detail(spec, s)
    below = sum(1 for e in expected.values() if float(e["recall"]) < TARGET)
    print(f"{len(expected)} documents read, {below} below recall {TARGET}; not here: {absent}")
    if args.write_expected:
        EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", "utf-8")
    if args.write_results:
        section = [
            HEADING,
            "",
            f"Command: `PYTHONPATH=$PWD python benchmarks/realdocs.py {' '.join(argv)}`  ",
            f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
            f"Machine: {machine()}",
            "",
            "Real public documents with their own truth (`.bib` filtered to what the `.bbl` or",
            "`.tex` cites); `here`: checked in (`yes`) or brought by `fetch.py`. recall = truth",
            "entries aligned with a row; spurious = rows aligned with none; field accuracy over",
            f"aligned pairs. Target: recall >= {TARGET} each; {below} of {len(expected)} below.",
            "",
            "| document | style | here | truth | rows | recall | spurious | title | first author "
            "| year | read s | note |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
            *lines,
            "",
        ]
        write_section(args.write_results, "\n".join(section), HEADING)


if __name__ == "__main__":
    main(sys.argv[1:])
