"""Write `training/refstrings/rendered-hallmark.xml`: our own rendered styles, labelled (#35).

The HALLMARK dev entries (`../shared/eval/hallmark-dev/dev_public.bib`, MIT) of the `tune` half
(`benchmarks/styles.split_of`), less the 240 of `documents-dev`, each printed in three of the
fourteen styles below (chosen by a seeded draw per entry), field by field, so every token's
label is known. The `holdout` half is what `benchmarks/refstrings.py` measures on, in the five
styles of `benchmarks/documents_styles.py`; no holdout entry is written here.

Run once when the renderers change (the file is checked in, so training needs no shared data):
`PYTHONPATH=$PWD python training/render_hallmark.py`.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from auditor.load import load_files

# the shared evaluation data, as `benchmarks/documents.py` finds it
CORPUS = Path(os.environ.get("AUDITOR_HALLMARK_DIR", "/work/shared/eval/hallmark-dev"))
DEFAULT_SET = Path(os.environ.get("AUDITOR_DOCUMENTS_DIR", "/work/shared/eval/documents-dev"))
OUT = Path(__file__).resolve().parent / "refstrings" / "rendered-hallmark.xml"
Entry = dict[str, Any]
Segments = list[tuple[str, str]]  # (AnyStyle field name, text as printed)


def _names(e: Entry) -> list[tuple[str, str]]:
    """`(given, family)` of each author."""
    out = []
    for name in e["authors"]:
        if "," in name:
            family, given = (p.strip() for p in name.split(",", 1))
        else:
            parts = name.split()
            given, family = " ".join(parts[:-1]), parts[-1] if parts else ""
        out.append((given, family))
    return out


def _ini(given: str, dots: bool = True, space: bool = True) -> str:
    marks = [g[0] + ("." if dots else "") for g in given.replace("-", " ").split() if g]
    return (" " if space and dots else "").join(marks)


def _join(names: list[str], last: str, comma_last: bool = True, cap: int = 0) -> str:
    if cap and len(names) > cap:
        return ", ".join(names[:cap]) + ", et al."
    if len(names) == 1:
        return names[0]
    sep = "," if comma_last and len(names) > 2 else ""
    return ", ".join(names[:-1]) + f"{sep} {last} " + names[-1]


def _venue(e: Entry, prefix: str = "", end: str = ".") -> Segments:
    v = e.get("container_title")
    return [("container-title", f"{prefix}{v}{end}")] if v else []


def ieee(n: int, e: Entry) -> Segments:
    who = _join([f"{_ini(g)} {f}".strip() for g, f in _names(e)], "and", cap=6)
    return [
        ("citation-number", f"[{n}]"),
        ("author", who + ","),
        ("title", f"“{e['title']},”"),
        *_venue(e, "in Proc. ", ","),
        ("date", f"{e['year']}."),
    ]


def apa(n: int, e: Entry) -> Segments:
    who = _join([f"{f}, {_ini(g)}" for g, f in _names(e)], "&", cap=19)
    return [
        ("author", who),
        ("date", f"({e['year']})."),
        ("title", f"{e['title']}."),
        *_venue(e, "In "),
    ]


def vancouver(n: int, e: Entry) -> Segments:
    names = [f"{f} {_ini(g, dots=False)}" for g, f in _names(e)]
    who = ", ".join(names[:6]) + (", et al" if len(names) > 6 else "")
    return [
        ("citation-number", f"{n}."),
        ("author", who + "."),
        ("title", f"{e['title']}."),
        *_venue(e),
        ("date", f"{e['year']}."),
    ]


def harvard(n: int, e: Entry) -> Segments:
    who = _join([f"{f}, {_ini(g)}" for g, f in _names(e)], "and", comma_last=False)
    return [
        ("author", who),
        ("date", f"({e['year']})"),
        ("title", f"‘{e['title']}’,"),
        *_venue(e, "in "),
    ]


def acm(n: int, e: Entry) -> Segments:
    who = _join([f"{g} {f}".strip() for g, f in _names(e)], "and")
    return [
        ("citation-number", f"[{n}]"),
        ("author", who + "."),
        ("date", f"{e['year']}."),
        ("title", f"{e['title']}."),
        *_venue(e, "In "),
    ]


def plainnat(n: int, e: Entry) -> Segments:
    who = _join([f"{g} {f}".strip() for g, f in _names(e)], "and")
    return [
        ("citation-number", f"[{n}]"),
        ("author", who + "."),
        ("title", f"{e['title']}."),
        *_venue(e, "In ", ","),
        ("date", f"{e['year']}."),
    ]


def apalike(n: int, e: Entry) -> Segments:
    who = _join([f"{f}, {_ini(g)}" for g, f in _names(e)], "and")
    return [
        ("author", who),
        ("date", f"({e['year']})."),
        ("title", f"{e['title']}."),
        *_venue(e, "In "),
    ]


def chicago(n: int, e: Entry) -> Segments:
    names = _names(e)
    first = f"{names[0][1]}, {names[0][0]}".strip(", ")
    who = _join([first, *(f"{g} {f}".strip() for g, f in names[1:])], "and", cap=10)
    return [
        ("author", who + "."),
        ("date", f"{e['year']}."),
        ("title", f"“{e['title']}.”"),
        *_venue(e, "In "),
    ]


def nature(n: int, e: Entry) -> Segments:
    names = [f"{f}, {_ini(g)}" for g, f in _names(e)]
    who = names[0] + " et al." if len(names) > 5 else _join(names, "&", comma_last=False)
    return [
        ("citation-number", f"{n}."),
        ("author", who),
        ("title", f"{e['title']}."),
        *_venue(e, "in ", ""),
        ("date", f"({e['year']})."),
    ]


def siam(n: int, e: Entry) -> Segments:
    who = _join([f"{_ini(g)} {f}".strip() for g, f in _names(e)], "and")
    return [
        ("citation-number", f"[{n}]"),
        ("author", who + ","),
        ("title", f"{e['title']},"),
        *_venue(e, "in ", ","),
        ("date", f"{e['year']}."),
    ]


def elsarticle(n: int, e: Entry) -> Segments:
    who = _join([f"{f}, {_ini(g)}" for g, f in _names(e)], "and", comma_last=False)
    return [
        ("author", who + ","),
        ("date", f"{e['year']}."),
        ("title", f"{e['title']},"),
        *_venue(e, "in: "),
    ]


def mla(n: int, e: Entry) -> Segments:
    names = _names(e)
    first = f"{names[0][1]}, {names[0][0]}".strip(", ")
    who = first + (", et al." if len(names) > 2 else "")
    if len(names) == 2:
        who += f", and {names[1][0]} {names[1][1]}".rstrip()
    return [
        ("author", who if who.endswith(".") else who + "."),
        ("title", f"“{e['title']}.”"),
        *_venue(e, "", ","),
        ("date", f"{e['year']}."),
    ]


def alpha(n: int, e: Entry) -> Segments:
    names = _names(e)
    key = (names[0][1][:3] if len(names) == 1 else "".join(f[:1] for _, f in names[:3])) + str(
        e["year"]
    )[-2:]
    who = _join([f"{g} {f}".strip() for g, f in names], "and")
    return [
        ("citation-number", f"[{key}]"),
        ("author", who + "."),
        ("title", f"{e['title']}."),
        *_venue(e, "In ", ","),
        ("date", f"{e['year']}."),
    ]


def ama(n: int, e: Entry) -> Segments:
    names = [f"{f} {_ini(g, dots=False)}" for g, f in _names(e)]
    who = ", ".join(names[:3]) + ", et al" if len(names) > 6 else ", ".join(names)
    return [
        ("citation-number", f"{n}."),
        ("author", who + "."),
        ("title", f"{e['title']}."),
        *_venue(e, "", ";" if e.get("container_title") else ""),
        ("date", f"{e['year']}."),
    ]


RENDERERS: dict[str, Callable[[int, Entry], Segments]] = {
    f.__name__: f
    for f in (ieee, apa, vancouver, harvard, acm, plainnat, apalike, chicago, nature, siam)
    + (elsarticle, mla, alpha, ama)
}
PER_ENTRY = 3


def split_of(key: str) -> str:
    """`tune` or `holdout`, as `benchmarks/styles.split_of` divides the dev split."""
    return "tune" if hashlib.sha1(key.encode()).hexdigest()[0] in "01234567" else "holdout"


def training_entries() -> list[Entry]:
    """The `tune` half of the dev entries with a title, authors and year, less those of
    `documents-dev` (as `benchmarks/documents_styles.entries` reads them)."""
    dev = set(json.loads((DEFAULT_SET / "manifest.json").read_text(encoding="utf-8")))
    rows = load_files([str(CORPUS / "dev_public.bib")]).table.to_pylist()
    return [
        e
        for e in rows
        if e["title"] and e["authors"] and e["year"]
        if split_of(e["key"]) == "tune" and e["key"] not in dev
    ]


def xml(seqs: list[Segments]) -> str:
    """The sequences as AnyStyle XML."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<dataset>"]
    for seq in seqs:
        out.append("  <sequence>")
        out += [f"    <{tag}>{escape(text)}</{tag}>" for tag, text in seq]
        out.append("  </sequence>")
    return "\n".join([*out, "</dataset>", ""])


def main() -> int:
    """Render and write the file."""
    rng = random.Random(35)
    seqs: list[Segments] = [
        RENDERERS[name](n, e)
        for n, e in enumerate(training_entries(), start=1)
        for name in rng.sample(sorted(RENDERERS), PER_ENTRY)
    ]
    OUT.write_text(xml(seqs), encoding="utf-8")
    print(f"{len(seqs)} strings -> {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
