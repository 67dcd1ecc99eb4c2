"""A world in which the registers hold every reference a real document prints (#35, "done when").

The document's own `.bib` entries, filtered to what it cites, become Crossref works, written
as the public data file's JSON Lines and imported by `auditor snapshot import crossref` (records
and title index). The document is then audited offline against that snapshot alone. Every
reference it prints is held by the register exactly as its authors wrote it, so a flag on an
aligned row is the document reader's doing: a misread title, author list, year or venue. An
entry without a DOI gets one under the test prefix `10.5555`, and only the title search can
find it, as in the real world.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from auditor.cli import app
from tests.load.documents.realdocs.corpus import DocSpec
from tests.load.documents.realdocs.score import align
from tests.load.documents.realdocs.truth import Truth, cited_entries, read_truth

#: What the checklist counts as flagged: a verdict that accuses the reference.
FLAGGED = frozenset({"RESOLVES-BUT-DIFFERS", "DOES-NOT-RESOLVE", "NOT FOUND"})

_TYPES = {"article": "journal-article", "inproceedings": "proceedings-article", "book": "book"}


def _work(row: dict[str, Any], doi: str) -> dict[str, Any]:
    """The Crossref `/works` message of one `.bib` row."""
    names = row.get("author_names") or []
    authors = [
        {"family": n.get("family") or "", "given": n.get("given") or "", "sequence": "additional"}
        for n in names
        if isinstance(n, dict) and n.get("family")
    ]
    if not authors:  # a name the parse could not split: its whole text as the family
        authors = [{"family": str(a), "sequence": "additional"} for a in row.get("authors") or []]
    year = re.search(r"\d{4}", str(row.get("year") or ""))
    work: dict[str, Any] = {
        "DOI": doi,
        "type": _TYPES.get(str(row.get("entry_type") or "").lower(), "journal-article"),
        "title": [row.get("title") or ""],
        "author": authors,
    }
    if year:
        work["issued"] = {"date-parts": [[int(year.group())]]}
    if row.get("container_title"):
        work["container-title"] = [row["container_title"]]
    for field, key in (("volume", "volume"), ("issue", "issue"), ("pages", "page")):
        if row.get(field):
            work[key] = str(row[field])
    return work


@dataclass(frozen=True)
class WorldScore:
    """The audit of one document against its own references."""

    aligned: int
    """Rows aligned with a reference the document prints (and its `.bib` holds)."""
    flagged: int
    """Of those, rows the audit flagged (`FLAGGED`): false flags, every one."""
    spurious_flagged: int
    """Flags on rows aligned with no reference (a fragment, a caption, a split reference)."""
    flags: tuple[tuple[str, str, str], ...]
    """`(key, verdict, reason)` of each false flag, for the report."""


def audit_in_world(spec: DocSpec, work: Path) -> WorldScore:
    """Audit `spec`'s document offline against a snapshot of its own cited entries."""
    bibs = [spec.local(b) for b in spec.bibs]
    bbl = spec.local(spec.bbl) if spec.bbl else None
    texs = [spec.local(t) for t in spec.texs]
    entries = [(k, r) for k, r in cited_entries(bibs, bbl, texs) if r is not None]
    dump = work / "works.jsonl"
    with dump.open("w", encoding="utf-8") as out:
        for n, (_key, row) in enumerate(entries):
            doi = str(row.get("doi") or f"10.5555/realdocs.{spec.id}.{n}").lower()
            out.write(json.dumps(_work(row, doi)) + "\n")
    runner = CliRunner()
    snapshot = work / "snapshot"
    done = runner.invoke(
        app, ["snapshot", "import", "crossref", str(dump), "--out", str(snapshot), "--quiet"]
    )
    assert done.exit_code == 0, done.output
    report = work / "report"
    audit = [
        "audit", str(spec.local(spec.document)), "--offline", "--snapshot", str(snapshot),
        "--out", str(report), "--cache-dir", str(work / "cache"), "--fail-on", "none", "--quiet",
    ]  # fmt: skip
    done = runner.invoke(app, audit)
    if done.exit_code == 2 and "no references section" in done.output:
        return WorldScore(0, 0, 0, ())  # the reader found no list: every reference missed
    assert done.exit_code == 0, done.output
    rows = pq.read_table(report / "verdicts.parquet").to_pylist()
    truth: list[Truth] = read_truth(bibs, bbl, texs)
    held = {t.key for t, (_, r) in zip(truth, cited_entries(bibs, bbl, texs), strict=True) if r}
    pairs = align(rows, truth)
    aligned = [(rows[ri], truth[ti]) for ri, ti in pairs if truth[ti].key in held]
    paired = {ri for ri, _ in pairs}
    flags = tuple(
        (t.key, str(r["verdict"]), str(r.get("reason") or ""))
        for r, t in aligned
        if r["verdict"] in FLAGGED
    )
    spurious = sum(1 for i, r in enumerate(rows) if i not in paired and r["verdict"] in FLAGGED)
    return WorldScore(len(aligned), len(flags), spurious, flags)
