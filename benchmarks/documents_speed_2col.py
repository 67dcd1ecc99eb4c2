"""Speed and peak memory of reading a real two-column PDF of 500 references (#35).

The first 500 entries of the HALLMARK dev `.bib` are set by pdflatex and BibTeX's IEEEtran style
in two columns (`styles.render_bst`, as the styles benchmark renders them; needs pdflatex and
bibtex), then `auditor.load.load_files` reads the PDF into the `references` table, best of
`--repeat` runs, each in a fresh process so that the peak is the read's own: wall time, CPU of
the process and of the PDF reader's child (`pdf_guard` reads in a forked child under caps), and
the peak resident set of each. The read's process CPU includes its imports (`import_s` is
their wall time).

Usage: `PYTHONPATH=$PWD python benchmarks/documents_speed_2col.py [--repeat N] [--entries N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.documents import CORPUS
from benchmarks.styles import Form, render_bst

_ONE_READ = r"""
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from auditor.load import load_files
imported = time.perf_counter() - t0
t1 = time.perf_counter()
table = load_files([sys.argv[1]]).table
wall = time.perf_counter() - t1
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rows": table.num_rows, "wall_s": wall, "import_s": imported,
                  "cpu_s": me.ru_utime + me.ru_stime, "child_cpu_s": kids.ru_utime + kids.ru_stime,
                  "peak_mib": me.ru_maxrss / 1024, "child_peak_mib": kids.ru_maxrss / 1024}))
"""


def first_entries(bib: Path, n: int, target: Path) -> None:
    """The first `n` entries of `bib` (one `@type{key,` … `}` block each) into `target`."""
    blocks = re.findall(r"@\w+\{[^,]+,\n.*?\n\}", bib.read_text(encoding="utf-8"), re.S)
    target.write_text("\n\n".join(blocks[:n]) + "\n", encoding="utf-8")


def main() -> None:
    """Render, read `--repeat` times in fresh processes, print JSON of the best run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--entries", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bib = Path(tmp) / "first.bib"
        first_entries(CORPUS / "dev_public.bib", args.entries, bib)
        form = Form("IEEEtran-2col.pdf", "bst", "IEEEtran", "pdf2")
        pdf, order = render_bst(form, bib, Path(tmp) / "render")
        pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=False)
        count = re.search(r"Pages:\s+(\d+)", pages.stdout)
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        runs = [
            json.loads(
                subprocess.run(
                    [sys.executable, "-c", _ONE_READ, str(pdf)],
                    capture_output=True,
                    text=True,
                    check=True,
                    env=env,
                ).stdout
            )
            for _ in range(args.repeat)
        ]
    best = min(runs, key=lambda r: r["wall_s"])
    print(
        json.dumps(
            {
                "entries": len(order),
                "pages": int(count.group(1)) if count else None,
                "rows": best["rows"],
                "best_wall_s": round(best["wall_s"], 2),
                "cpu_s": round(best["cpu_s"], 2),
                "child_cpu_s": round(best["child_cpu_s"], 2),
                "import_s": round(best["import_s"], 2),
                "peak_mib": round(best["peak_mib"]),
                "child_peak_mib": round(best["child_peak_mib"]),
                "walls": [round(r["wall_s"], 2) for r in runs],
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
