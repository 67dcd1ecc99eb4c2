"""Speed of reading a PDF reference list: 500 numbered references on 40 pages into the table.

Generates the PDF with the tests' minimal writer (`tests/load/documents/minipdf.py`): 500 references
of three or four lines each, 50 lines a page, plus a title page heading, then times
`auditor.load.load_files` on it (PDF text, section, split, field reading, classification), best
of `--repeat` runs. Usage: `PYTHONPATH=$PWD python benchmarks/documents_speed.py [--repeat N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from auditor.load import load_files
from tests.load.documents.minipdf import column_pages, pdf_bytes


def reference_lines(n: int) -> list[tuple[float, str]]:
    """`n` numbered references set as printed lines, the first with the heading."""
    lines: list[tuple[float, str]] = [(0, "References")]
    for i in range(1, n + 1):
        lines += [
            (0, f"[{i}] Author{i} Smith, Bo Jones{i % 7}, and Cy Lee. A study of reading"),
            (0, f"printed references number {i} with a long title. In Proceedings of"),
            (0, f"the Conference on Things, pages {i}-{i + 9}, 20{10 + i % 15}."),
        ]
        if i % 2:
            lines.append((0, f"doi: 10.1000/bench.{i}."))
    return lines


def main() -> None:
    """Write the PDF, time the read, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines = reference_lines(500)
    pages = column_pages(lines, per_page=-(-len(lines) // 40))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "refs500.pdf"
        path.write_bytes(pdf_bytes(pages))
        times, cpu, rows = [], [], 0
        for _ in range(args.repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            rows = load_files([str(path)]).table.num_rows
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
    # CPU seconds as well as wall: on a shared machine the wall time measures the neighbours
    summary = {
        "pages": len(pages),
        "references": rows,
        "best_wall_s": round(min(times), 2),
        "best_cpu_s": round(min(cpu), 2),
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
