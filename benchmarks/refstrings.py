"""Reference strings read field by field, on a labelled set the model never saw (#35 item 2).

Two sets, neither trained on:

- `gold`: AnyStyle's `gold.xml` (`benchmarks/corpora/`, BSD-2-Clause), 1,669 hand-labelled
  references in many styles, disciplines and languages. The model learns from AnyStyle's
  `core.xml` only (`training/train_refstrings.py`, which leaves out the strings the two share).
- `rendered`: the HALLMARK dev entries of the `holdout` half (`benchmarks/styles.split_of`)
  with a title, authors and year, printed in the five styles of `benchmarks/documents_styles.py`
  (IEEE, APA, Vancouver, Harvard, ACM); the truth is the entry's own fields. The model learns
  from the `tune` half printed in fourteen styles (`training/render_hallmark.py`), these five
  among them: the entries are new to it, the styles are not. Needs `../shared/eval/hallmark-dev`
  (left out without it).

Three readers are scored:

- `rules`: the punctuation rules alone (`refstring.parse` with the model off);
- `crf`: the model alone (`crf.read`), its fields as the reader would take them;
- `combined`: what the text reader does (`refstring.parse`): certain rules, then the model.

A field is right when: title, fuzzy ratio >= 90 of the case-folded, punctuation-free text;
first author, the same family name (accents and case aside), both sides through the one name
splitter and parser (`people.split_authors`, `auditor.names.parse`); year, equal; venue (the
`journal` or `container-title`), fuzzy ratio >= 90. Each share is over the strings whose gold
has the field. "wrong when sure" is the share of the fields read with confidence >= `WEAK_BELOW`
(which may carry a flag, `auditor.unreadable`) that are wrong; "sure" is the share of gold fields
read that confidently.

Usage: `PYTHONPATH=$PWD python benchmarks/refstrings.py [--write-results FILE]`.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rapidfuzz import fuzz

from auditor.load.documents import crf, refstring
from auditor.load.documents.people import split_authors
from auditor.names import parse as parse_name
from auditor.unreadable import WEAK_BELOW
from benchmarks.documents import write_section
from training.labelled import Sequence, read_sequences

GOLD = Path(__file__).parent / "corpora" / "anystyle-gold.xml"
FIELDS = ("title", "first_author", "year", "venue")
TARGETS = {"title": 0.90, "first_author": 0.95, "year": 0.97}
_YEAR_RE = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_PUNCT_RE = re.compile(r"[^\w\s]+")
_IN_RE = re.compile(r"^in:?\s+", re.I)


@dataclass(frozen=True)
class Reading:
    """One reader's fields of one string, with each field's confidence."""

    title: str | None
    first_author: str | None
    year: int | None
    venue: str | None
    confidence: dict[str, float]


def _fold(text: str | None) -> str:
    t = unicodedata.normalize("NFKD", text or "")
    t = "".join(ch for ch in t if not unicodedata.combining(ch)).casefold()
    return " ".join(_PUNCT_RE.sub(" ", t).split())


def _family(authors: list[str]) -> str | None:
    if not authors:
        return None
    name = parse_name(authors[0])
    return _fold(name.family) if name is not None and name.family else None


def truth(seq: Sequence) -> Reading:
    """The gold fields of one labelled string (the first of each kind)."""
    first: dict[str, str] = {}
    for tag, text in seq.fields:
        first.setdefault(tag, text)
    year = _YEAR_RE.search(first.get("date", ""))
    venue = first.get("journal") or first.get("container-title")
    return Reading(
        title=first.get("title"),
        first_author=_family(split_authors(first.get("author"))[0]),
        year=int(year.group(1)) if year else None,
        venue=_IN_RE.sub("", venue) if venue else None,
        confidence={},
    )


def by_rules(text: str) -> Reading:
    """The rules alone."""
    return _of_parsed(refstring.parse(text, model=False))


def combined(text: str) -> Reading:
    """The text reader as it runs: certain rules, then the model."""
    return _of_parsed(refstring.parse(text))


def _of_parsed(ref: refstring.ParsedReference) -> Reading:
    c = ref.confidence
    return Reading(
        title=ref.title,
        first_author=_family(ref.authors),
        year=ref.year,
        venue=ref.container_title,
        confidence={
            "title": c.get("title", 0.0),
            "first_author": c.get("authors", 0.0),
            "year": c.get("year", 0.0),
            "venue": c.get("container_title", 0.0),
        },
    )


def by_model(text: str) -> Reading:
    """The model alone, its spans taken as the reader takes them."""
    got = crf.read(text)
    if got is None:
        sys.exit("no model: run training/train_refstrings.py")
    s, c = got.spans, got.confidence
    return Reading(
        title=s.get("title"),
        first_author=_family(split_authors(s.get("author"))[0]),
        year=got.year,
        venue=_IN_RE.sub("", s["container"]) if "container" in s else None,
        confidence={
            "title": c.get("title", 0.0),
            "first_author": c.get("author", 0.0),
            "year": c.get("date", 0.0),
            "venue": c.get("container", 0.0),
        },
    )


def right(name: str, got: Reading, gold: Reading) -> bool:
    """Whether `got` has field `name` right against `gold` (see the module docstring)."""
    g, p = getattr(gold, name), getattr(got, name)
    if p is None:
        return False
    if name in ("title", "venue"):
        return fuzz.ratio(_fold(g), _fold(p)) >= 90
    return bool(g == p)


def score(
    reader: Callable[[str], Reading], data: list[tuple[str, Reading]]
) -> dict[str, dict[str, float]]:
    """Per field: `right` share, `sure` share and `wrong_sure` share (module docstring)."""
    counts = {f: {"n": 0, "right": 0, "sure": 0, "sure_wrong": 0} for f in FIELDS}
    t0 = time.perf_counter()
    for text, gold in data:
        got = reader(text)
        for f in FIELDS:
            if getattr(gold, f) is None:
                continue
            ok = right(f, got, gold)
            sure = getattr(got, f) is not None and got.confidence.get(f, 0.0) >= WEAK_BELOW
            k = counts[f]
            k["n"] += 1
            k["right"] += ok
            k["sure"] += sure
            k["sure_wrong"] += sure and not ok
    elapsed = time.perf_counter() - t0
    out = {
        f: {
            "n": k["n"],
            "right": k["right"] / k["n"],
            "sure": k["sure"] / k["n"],
            "wrong_sure": k["sure_wrong"] / k["sure"] if k["sure"] else 0.0,
        }
        for f, k in counts.items()
    }
    out["_time"] = {"ms_per_string": 1000 * elapsed / len(data)}
    return out


def report(
    results: dict[str, dict[str, dict[str, dict[str, float]]]], sizes: dict[str, int]
) -> str:
    """The markdown section for `RESULTS.md`."""
    lines = [
        "## reference strings",
        "",
        "Command: `PYTHONPATH=$PWD python benchmarks/refstrings.py --write-results "
        "benchmarks/RESULTS.md`  ",
        f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()} (shared with other jobs while measured)",
        "",
        f"Sets, neither trained on: `gold`, AnyStyle's `gold.xml`, {sizes['gold']} hand-labelled "
        "strings (the model learns from AnyStyle's `core.xml` less the strings the two share); "
        f"`rendered`, {sizes['rendered']} strings: the HALLMARK dev entries of the holdout half "
        "printed in IEEE, APA, Vancouver, Harvard and ACM (`documents_styles.py`), truth from the "
        "entries (the model learns from the tune half in fourteen styles, these five among them). "
        "Right = title and venue fuzzy >= 90 (case and punctuation aside), first author's "
        "family name equal, year equal; over the strings whose truth has the field. "
        f"Sure = confidence >= {WEAK_BELOW} (a field that may carry a flag); wrong when sure = "
        "the share of sure fields that are wrong.",
        "",
        "| set | reader | title | first author | year | venue | title wrong when sure (sure) "
        "| author wrong when sure (sure) | ms/string |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, by_reader in results.items():
        for reader, r in by_reader.items():
            lines.append(
                f"| {name} | {reader} | {r['title']['right']:.3f} "
                f"| {r['first_author']['right']:.3f} | {r['year']['right']:.3f} "
                f"| {r['venue']['right']:.3f} "
                f"| {r['title']['wrong_sure']:.3f} ({r['title']['sure']:.2f}) "
                f"| {r['first_author']['wrong_sure']:.3f} ({r['first_author']['sure']:.2f}) "
                f"| {r['_time']['ms_per_string']:.2f} |"
            )
    for name, by_reader in results.items():
        best = by_reader["combined"]
        met = [
            f"{f.replace('_', ' ')} {best[f]['right']:.3f} "
            f"({'met' if best[f]['right'] >= t else 'missed'}, target {t})"
            for f, t in TARGETS.items()
        ]
        lines += ["", f"Targets on `{name}` (combined): " + "; ".join(met) + "."]
    return "\n".join(lines) + "\n"


def rendered() -> list[tuple[str, Reading]]:
    """The `rendered` set: `(string, truth)` per entry and style; empty without the data."""
    from benchmarks.documents import CORPUS
    from benchmarks.documents_styles import STYLES, entries
    from benchmarks.styles import split_of

    bib = CORPUS / "dev_public.bib"
    if not bib.exists():
        return []
    rows = [e for e in entries(bib) if split_of(e["key"]) == "holdout"]
    out: list[tuple[str, Reading]] = []
    for style in STYLES.values():
        for n, e in enumerate(rows, start=1):
            gold = Reading(
                title=e["title"],
                first_author=_family(e["authors"][:1]),
                year=int(e["year"]),
                venue=e.get("container_title") or None,
                confidence={},
            )
            out.append((style(n, e), gold))
    return out


def main(argv: list[str] | None = None) -> int:
    """Score the three readers on both sets and print (or write) the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write-results", type=Path, help="RESULTS.md to update")
    args = ap.parse_args(argv)
    gold = [(seq.text, truth(seq)) for seq in read_sequences(GOLD)]
    sets = {"gold": gold, "rendered": rendered()}
    readers = {"rules": by_rules, "crf": by_model, "combined": combined}
    results = {
        name: {r: score(reader, data) for r, reader in readers.items()}
        for name, data in sets.items()
        if data
    }
    text = report(results, {k: len(v) for k, v in sets.items()})
    print(text)
    if args.write_results:
        write_section(args.write_results, text, "## reference strings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
