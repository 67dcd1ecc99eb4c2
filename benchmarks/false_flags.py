"""False flags of auditor/v2's rules on real references, rule by rule.

Usage: `python benchmarks/false_flags.py [--realdata DIR] [--verdicts VERDICTS.parquet
--labels LABELS.csv] [--show N]`.

Three probes, each counting the findings every rule raises where none is due:

1. **Same work, two exports.** The real bibliographies in `realdata/bibs` hold the same works
   exported by different tools (Embase CSV and RIS, Ovid and Zotero, the GB/T 7714 2015 and 2025
   example sets, a manubot BibTeX and RIS). Entries are paired by their normalized title; one
   side is compared as the citation and the other as the register record (surnames taken before
   the comma, else the last word). Name forms, venue spellings and markup must never differ;
   what differs is printed, so a real difference (another edition's year) can be told apart.
2. **Real register bodies cited as people cite them.** Every Crossref `/works` body in
   `realdata/bodies/crossref` is read by the real register parser, then cited in three name
   forms (`Family, Given`, `Given Family`, Vancouver `Family GI`), and in each form as its
   first three names and `and others` when it has more, with the title lowercased,
   the journal as its ISO 4 `short-container-title` and the latest year the record holds.
3. **VALID entries of a labelled split** (optional): the findings on the rows labelled VALID in
   a verdicts table of an audited split (`benchmarks/hallmark.py --keep DIR`).
4. **arXiv `journal_ref` stand-ins** (optional, with `--split DIR`, the HALLMARK dev split): the
   split's arXiv records carry no `journal_ref`, so the entries that cite an arXiv id are given,
   as their record's `journal_ref`, the venue the split's DBLP and Semantic Scholar indexes hold
   for the same title (a preprint server excepted), and `journal_ref_rule` is applied: every
   finding on a VALID entry is a false flag; on a `wrong_venue` entry it is a catch.

The data is read where it lies; nothing is copied into the project.
"""

from __future__ import annotations

import argparse
import collections
import csv
import glob
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor.classify import classify  # noqa: E402
from auditor.compare import v2  # noqa: E402
from auditor.errors import AuditorError  # noqa: E402
from auditor.load import load_files  # noqa: E402
from auditor.markup import strip_markup  # noqa: E402
from auditor.registers.crossref import work_row  # noqa: E402
from auditor.text import normalize_text  # noqa: E402

YEAR = datetime.now(UTC).year


def _surname(name: str) -> str:
    if "," in name:
        return name.split(",")[0].strip()
    words = name.split()
    return words[-1] if words else ""


def _fields(claimed: dict[str, Any], record: dict[str, Any]) -> dict[str, v2.Field]:
    return {
        "title": v2.title_rule(claimed.get("title"), record.get("title")),
        "authors": v2.authors_rule(
            claimed.get("authors"), claimed.get("authors_et_al"), record.get("surnames")
        ),
        "venue": v2.venue_rule(
            claimed.get("container_title"),
            record.get("container_title"),
            register_is_preprint=False,
            by_title=False,
        ),
        "year": v2.year_rule(claimed.get("year"), record.get("years") or [], YEAR),
    }


def exports(realdata: Path, show: int) -> tuple[int, collections.Counter[str]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(glob.glob(str(realdata / "bibs" / "*"))):
        try:
            rows += classify(load_files([path]).table).to_pylist()
        except AuditorError:
            continue
    by_title: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for row in rows:
        if row["title"]:
            by_title[normalize_text(row["title"])[:50]].append(row)
    found: collections.Counter[str] = collections.Counter()
    pairs = 0
    for group in by_title.values():
        for a in group:
            for b in group:
                if a is b or a["source_path"] == b["source_path"]:
                    continue
                pairs += 1
                record = {
                    "title": b["title"],
                    "surnames": [_surname(n) for n in b["authors"] or []],
                    "container_title": b["container_title"],
                    "years": [b["year"]],
                }
                for name, field in _fields(a, record).items():
                    if field.finding:
                        found[str(field.finding)] += 1
                        if found[str(field.finding)] <= show:
                            print(f"  {field.finding}: {Path(a['source_path']).name} vs "
                                  f"{Path(b['source_path']).name}: {a[_COLUMN[name]]!r} / "
                                  f"{b[_COLUMN[name]]!r}")  # fmt: skip
    return pairs, found


_COLUMN = {"title": "title", "authors": "authors", "venue": "container_title", "year": "year"}


def bodies(realdata: Path, show: int) -> tuple[int, collections.Counter[str]]:
    found: collections.Counter[str] = collections.Counter()
    citations = 0
    for path in sorted(glob.glob(str(realdata / "bodies" / "crossref" / "*.json"))):
        try:
            message = json.loads(Path(path).read_text("utf-8")).get("message")
            record = work_row(message["DOI"].lower(), message, "-")
        except (ValueError, KeyError, TypeError, AttributeError, AuditorError):
            continue
        people = [a for a in message.get("author", []) if isinstance(a, dict) and a.get("family")]
        forms = {
            "family_given": [f"{a['family']}, {a.get('given', '')}".strip(", ") for a in people],
            "given_family": [f"{a.get('given', '')} {a['family']}".strip() for a in people],
            "vancouver": [
                f"{a['family']} "
                + "".join(w[0] for w in a.get("given", "").replace("-", " ").split())
                for a in people
            ],
        }
        short = (message.get("short-container-title") or [None])[0]
        title = strip_markup(record["title"])
        # The first three and `and others` (issue 39): a shortened list is no finding.
        cut = {f"{k}_et_al": v[:3] for k, v in forms.items() if len(v) > 3}
        for form, names in {**forms, **cut}.items():
            citations += 1
            claimed = {
                "title": title.lower() if title else None,
                "authors": names,
                "authors_et_al": form.endswith("_et_al"),
                "container_title": short or record.get("container_title"),
                "year": (record.get("years") or [None])[-1],
            }
            for field in _fields(claimed, record).values():
                if field.finding:
                    found[str(field.finding)] += 1
                    if found[str(field.finding)] <= show:
                        print(f"  {field.finding}: {message['DOI']}")
    return citations, found


def valid_rows(verdicts: Path, labels: Path) -> tuple[int, collections.Counter[str]]:
    import pyarrow.parquet as pq

    valid = {
        row["key"]
        for row in csv.DictReader(labels.open(encoding="utf-8"))
        if row["label"] == "VALID" and row["status"] != "truth_unknown"
    }
    table = pq.read_table(verdicts, columns=["key", "verdict", "reason", "findings"]).to_pylist()
    found: collections.Counter[str] = collections.Counter()
    rows = [r for r in table if r["key"] in valid]
    for row in rows:
        for finding in row["findings"] or (
            [row["reason"]] if row["verdict"] == "NOT FOUND" else []
        ):
            found[finding] += 1
    return len(rows), found


def journal_refs(split: Path) -> dict[str, tuple[int, collections.Counter[str]]]:
    """Probe 4: per label (VALID, wrong_venue, other), entries tried and the rule's findings."""
    corpus = json.loads((split / "dev_public.corpus.json").read_text("utf-8"))
    venues: dict[str, set[str]] = collections.defaultdict(set)
    for hit in corpus["search"]["dblp"]:
        info = hit.get("info") or {}
        if info.get("title") and info.get("venue"):
            venues[normalize_text(info["title"])].add(str(info["venue"]))
    for hit in corpus["search"]["s2"]:
        paper = hit.get("paper") or {}
        if paper.get("title") and paper.get("venue"):
            venues[normalize_text(paper["title"])].add(str(paper["venue"]))
    labels = {row["key"]: row for row in csv.DictReader((split / "dev_public.labels.csv").open())}
    refs = classify(load_files([str(split / "dev_public.bib")]).table).to_pylist()
    out: dict[str, tuple[int, collections.Counter[str]]] = {}
    for ref in refs:
        label = labels.get(ref["key"])
        if label is None or ref.get("id_type") != "arxiv" or not ref.get("title"):
            continue
        kind = "VALID" if label["label"] == "VALID" else label["type"]
        kind = kind if kind in ("VALID", "wrong_venue") else "other"
        tried, found = out.get(kind, (0, collections.Counter()))
        for venue in sorted(venues.get(normalize_text(ref["title"]), ())):
            if v2.is_preprint_record(None, None, venue):
                continue
            tried += 1
            field = v2.journal_ref_rule(ref.get("container_title"), venue)
            if field.finding:
                found[str(field.finding)] += 1
        out[kind] = (tried, found)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realdata", type=Path, default=Path("/work/shared/realdata"))
    parser.add_argument("--verdicts", type=Path)
    parser.add_argument("--labels", type=Path)
    parser.add_argument("--show", type=int, default=3, help="examples printed per rule")
    parser.add_argument("--split", type=Path, help="HALLMARK dev split folder (probe 4)")
    args = parser.parse_args()
    print("1. same work, two exports")
    pairs, found = exports(args.realdata, args.show)
    print(f"   {pairs} pairs; findings: {dict(found) or 'none'}")
    print("2. real Crossref bodies cited in three name forms")
    citations, found = bodies(args.realdata, args.show)
    print(f"   {citations} citations; findings: {dict(found) or 'none'}")
    if args.verdicts and args.labels:
        print("3. VALID rows of the labelled split")
        rows, found = valid_rows(args.verdicts, args.labels)
        print(f"   {rows} VALID rows; findings: {dict(found) or 'none'}")
    if args.split:
        print("4. arXiv-id entries against a journal_ref stand-in (the work's indexed venue)")
        for kind, (tried, found) in sorted(journal_refs(args.split).items()):
            print(f"   {kind}: {tried} (entry, venue) pairs; findings: {dict(found) or 'none'}")


if __name__ == "__main__":
    main()
