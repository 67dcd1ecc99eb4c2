"""Style families the documents-dev set does not hold: the HALLMARK dev split as formatted lists.

Every entry of `hallmark-dev/dev_public.bib` is rendered here as a reference string in five
styles the reader was not tuned on (IEEE, APA, Vancouver, Harvard, ACM), one `.txt` list per
style; each list is audited with the real command against the loopback emulator serving the dev
corpus (as `benchmarks/documents.py` does) and scored with the documents `score.py` against the
dev split's labels. A style reading as well as the `.bib` itself shows the rules are style
rules, not the dev files'. Usage: `PYTHONPATH=$PWD python benchmarks/documents_styles.py
[--only STYLE ...] [--write-results FILE]`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from auditor.emulator import run_emulator
from auditor.emulator.hallmark import load_hallmark
from auditor.load import load_files
from benchmarks.documents import CORPUS, DEFAULT_SET, audit, write_section

Entry = dict[str, Any]


def _split(name: str) -> tuple[str, str]:
    """`(given, family)` of a BibTeX name as written."""
    if "," in name:
        family, given = (p.strip() for p in name.split(",", 1))
        return given, family
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1] if parts else ""


def _initials(given: str, dots: bool = True) -> str:
    marks = [g[0] + ("." if dots else "") for g in given.replace("-", " ").split() if g]
    return (" " if dots else "").join(marks)


def _doi(e: Entry, prefix: str = "https://doi.org/") -> str:
    if e.get("doi"):
        return f" {prefix}{e['doi']}"
    return f" arXiv:{e['id_raw'] or e['arxiv']}" if e.get("arxiv") else ""


def ieee(n: int, e: Entry) -> str:
    names = [f"{_initials(g)} {f}".strip() for g, f in map(_split, e["authors"])]
    who = (
        ", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ") + names[-1]
        if len(names) > 1
        else "".join(names)
    )
    venue = f" in Proc. {e['container_title']}," if e.get("container_title") else ""
    return f'[{n}] {who}, "{e["title"]},"{venue} {e["year"]}.' + _doi(e, " doi: ")


def apa(n: int, e: Entry) -> str:
    names = [f"{f}, {_initials(g)}".strip(", ") for g, f in map(_split, e["authors"])]
    who = ", ".join(names[:-1]) + ", & " + names[-1] if len(names) > 1 else "".join(names)
    venue = f" In {e['container_title']}." if e.get("container_title") else ""
    return f"{who} ({e['year']}). {e['title']}.{venue}" + _doi(e)


def vancouver(n: int, e: Entry) -> str:
    names = [f"{f} {_initials(g, dots=False)}".strip() for g, f in map(_split, e["authors"])]
    who = ", ".join(names[:6]) + (", et al" if len(names) > 6 else "")
    venue = f" {e['container_title']}." if e.get("container_title") else ""
    return f"{n}. {who}. {e['title']}.{venue} {e['year']}." + _doi(e, " doi:")


def harvard(n: int, e: Entry) -> str:
    names = [f"{f}, {_initials(g)}".strip(", ") for g, f in map(_split, e["authors"])]
    who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
    venue = f", in {e['container_title']}" if e.get("container_title") else ""
    return f"{who} ({e['year']}) ‘{e['title']}’{venue}." + _doi(e, " doi: ")


def acm(n: int, e: Entry) -> str:
    names = list(e["authors"])
    who = ", ".join(names[:-1]) + ", and " + names[-1] if len(names) > 1 else "".join(names)
    venue = f" In {e['container_title']}." if e.get("container_title") else ""
    return f"[{n}] {who}. {e['year']}. {e['title']}.{venue}" + _doi(e)


STYLES: dict[str, Callable[[int, Entry], str]] = {
    "ieee": ieee,
    "apa": apa,
    "vancouver": vancouver,
    "harvard": harvard,
    "acm": acm,
}


def entries(bib: Path) -> list[Entry]:
    """The split's entries with a title, authors and year (the others cannot be printed)."""
    table = load_files([str(bib)]).table.to_pylist()
    return [r for r in table if r["title"] and r["authors"] and r["year"]]


def main(argv: list[str]) -> None:
    """Render, audit and score each style; print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(STYLES))
    parser.add_argument("--write-results", type=Path)
    parser.add_argument("--keep", type=Path, help="keep the lists and reports in this folder")
    args = parser.parse_args(argv)
    bib = CORPUS / "dev_public.bib"
    rows = entries(bib)
    corpus = load_hallmark(CORPUS / "dev_public.corpus.json")
    results: dict[str, tuple[dict[str, Any], float]] = {}
    with tempfile.TemporaryDirectory() as tmp, run_emulator(corpus) as emu:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        shutil.copy(bib, root / "refs.bib")
        shutil.copy(CORPUS / "dev_public.labels.csv", root / "refs.labels.csv")
        shutil.copy(DEFAULT_SET / "score.py", root / "score.py")
        for name in ["refs.bib", *args.only]:
            if name == "refs.bib":
                doc = root / "refs.bib"
            else:
                doc = root / f"{name}.txt"
                text = "\n\n".join(STYLES[name](n, e) for n, e in enumerate(rows, start=1))
                doc.write_text("References\n\n" + text + "\n", encoding="utf-8")
            results[name], wall = audit(doc, root / f"out_{name}", emu.base_urls)
            results[name] = (results[name], wall)  # type: ignore[assignment]
            r = results[name][0]
            print(
                json.dumps(
                    {
                        "style": name,
                        **{k: r[k] for k in ("rows", "extracted", "DR", "FPR", "tp", "fp")},
                    }
                )
            )
    if args.write_results:
        lines = [
            "## documents: other styles",
            "",
            f"Command: `PYTHONPATH=$PWD python benchmarks/documents_styles.py {' '.join(argv)}`",
            "",
            "The 1,119 HALLMARK dev entries rendered here in styles the reader was not tuned on",
            "(one `.txt` list per style), audited against the emulator, scored by the documents",
            "`score.py` against the dev labels; `refs.bib` is the split itself.",
            "",
            "| style | rows | extracted | DR | FPR | tp | fp |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
            *(
                f"| {k} | {r['rows']} | {r['extracted']} | {r['DR']} | {r['FPR']} "
                f"| {r['tp']} | {r['fp']} |"
                for k, (r, _) in results.items()
            ),
            "",
        ]
        write_section(args.write_results, "\n".join(lines), "## documents: other styles")


if __name__ == "__main__":
    main(sys.argv[1:])
