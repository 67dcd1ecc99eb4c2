"""Reading documents: each form of the documents-dev set audited offline and scored.

For each file of the set (`refs.bib`, `plainnat.pdf`, `apalike.pdf`, `chicago.docx`,
`chicago.txt`, `zotero.docx`) the real command `auditor audit FILE` runs in a subprocess
against the loopback emulator serving the HALLMARK dev corpus (as `benchmarks/hallmark.py`
does), on a fresh cache, and the set's own `score.py DIR verdicts.parquet` scores it: share of
references extracted, DR, FPR. The Zotero file's verdicts are also compared with the `.bib`'s,
entry by entry (aligned by title): the two must agree exactly.

Usage: `python benchmarks/documents.py [--set DIR] [--write-results FILE] [--only NAME ...]`.
Default set: `/work/shared/eval/documents-dev` (or `$AUDITOR_DOCUMENTS_DIR`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from auditor.emulator import run_emulator
from auditor.emulator.hallmark import load_hallmark
from benchmarks.hallmark import audit_env

DEFAULT_SET = Path(os.environ.get("AUDITOR_DOCUMENTS_DIR", "/work/shared/eval/documents-dev"))
CORPUS = Path(os.environ.get("AUDITOR_HALLMARK_DIR", "/work/shared/eval/hallmark-dev"))
FORMS = ("refs.bib", "plainnat.pdf", "apalike.pdf", "chicago.docx", "chicago.txt", "zotero.docx")


def _words(s: str | None) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", (s or "").lower()))


def audit(doc: Path, out: Path, base_urls: dict[str, str]) -> tuple[dict[str, Any], float]:
    """Audit `doc` into `out` and score it; (score.py's JSON, wall seconds)."""
    command = [sys.executable, "-m", "auditor", "audit", str(doc), "--out", str(out)]
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        done = subprocess.run(
            command, env=audit_env(base_urls, cache), capture_output=True, text=True, check=False
        )
        wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"audit of {doc.name} failed with exit code {done.returncode}")
    score = [sys.executable, str(doc.parent / "score.py"), str(doc.parent)]
    scored = subprocess.run(
        [*score, str(out / "verdicts.parquet")], capture_output=True, text=True, check=True
    )
    return json.loads(scored.stdout), wall


def agreement(set_dir: Path, bib_out: Path, doc_out: Path) -> tuple[int, int, list[str]]:
    """`(entries whose verdicts agree, entries compared, differing titles)`, aligned by title."""
    manifest = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8"))
    bib = {r["key"]: r["verdict"] for r in pq.read_table(bib_out / "verdicts.parquet").to_pylist()}
    doc: dict[str, list[str]] = {}
    for r in pq.read_table(doc_out / "verdicts.parquet").to_pylist():
        doc.setdefault(_words(r["title_claimed"]), []).append(r["verdict"])
    same, differ = 0, []
    for key, title in manifest.items():
        got = doc.get(_words(title), [])
        if key in bib and bib[key] in got:
            same += 1
        else:
            differ.append(f"{title[:60]}: bib {bib.get(key)} doc {got}")
    return same, len(manifest), differ


def main(argv: list[str]) -> None:
    """Audit every form, print one JSON line each, optionally write RESULTS.md's section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--write-results", type=Path)
    parser.add_argument("--only", nargs="*", default=list(FORMS))
    parser.add_argument("--keep", type=Path, help="keep each form's reports under this folder")
    args = parser.parse_args(argv)
    corpus = load_hallmark(CORPUS / "dev_public.corpus.json")
    results: dict[str, tuple[dict[str, Any], float]] = {}
    with tempfile.TemporaryDirectory() as tmp, run_emulator(corpus) as emu:
        root = args.keep or Path(tmp)
        for name in ["refs.bib", *[f for f in args.only if f != "refs.bib"]]:
            out = root / name.replace(".", "_")
            results[name] = audit(args.set / name, out, emu.base_urls)
            print(
                json.dumps({"form": name, "wall_s": round(results[name][1], 1), **results[name][0]})
            )
        if "zotero.docx" in results:
            same, n, differ = agreement(args.set, root / "refs_bib", root / "zotero_docx")
            print(json.dumps({"zotero_vs_bib_same": same, "of": n, "differ": differ[:20]}))
            results["zotero.docx"][0]["same_as_bib"] = f"{same}/{n}"
    if args.write_results:
        write_section(args.write_results, markdown(results, argv))


def markdown(results: dict[str, tuple[dict[str, Any], float]], argv: list[str]) -> str:
    """The `## documents` section of RESULTS.md."""
    lines = [
        "## documents",
        "",
        f"Command: `PYTHONPATH=$PWD python benchmarks/documents.py {' '.join(argv)}`  ",
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        "Each form of `documents-dev` (240 HALLMARK dev references) audited with the real command",
        "against the loopback emulator serving the dev corpus, fresh cache, scored by the set's",
        "`score.py` (extracted = entries aligned with a row; flagged = RESOLVES-BUT-DIFFERS,",
        "DOES-NOT-RESOLVE or NOT FOUND).",
        "",
        "| form | rows | extracted | DR | FPR | tp | fp | audit wall s | same verdicts as .bib |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, (r, wall) in results.items():
        lines.append(
            f"| {name} | {r['rows']} | {r['extracted']} | {r['DR']} | {r['FPR']} | {r['tp']} | "
            f"{r['fp']} | {wall:.1f} | {r.get('same_as_bib', '')} |"
        )
    return "\n".join([*lines, ""])


def write_section(path: Path, section: str, heading: str = "## documents") -> None:
    """Replace (or append) the `heading` section of `path`."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    head, sep, rest = text.partition(f"\n{heading}\n")
    tail = ""
    if sep:
        nxt = rest.find("\n## ")
        tail = rest[nxt:] if nxt >= 0 else ""
    path.write_text(head.rstrip("\n") + "\n\n" + section + tail, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
