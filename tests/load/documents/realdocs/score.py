"""Aligning the rows read from a real document to its truth entries, and scoring them.

A row aligns with a truth entry when its `reference_text` holds the entry's title (four fifths
of the title's words, or the title's letters unbroken) and, for a title of fewer than four
words, the first author's family name too; an entry with no title aligns on family name and
year, as does an entry whose title the row does not hold (styles that print no title, such as
APS), at the lowest score. Pairs are taken best first, one row per entry. Extraction recall is
the share of entries aligned; spurious rows are rows aligned with none; field accuracy is over
aligned pairs (the year over entries that have one).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from tests.load.documents.realdocs.truth import Truth


def words(text: str | None) -> list[str]:
    """Lower-case ASCII words of `text` (accents dropped, LaTeX braces ignored)."""
    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", plain.lower())


@dataclass(frozen=True)
class Score:
    """One document's figures."""

    truth: int
    rows: int
    aligned: int
    spurious: int
    title_ok: int
    author_ok: int
    year_ok: int
    year_total: int
    missed: tuple[str, ...]
    """Keys of the truth entries no row aligned with."""
    spurious_text: tuple[str, ...]
    """`reference_text` of the rows aligned with no entry."""
    wrong: tuple[tuple[str, str, str, str], ...]
    """(key, field, read, truth) for each field read wrong on an aligned pair."""

    @property
    def recall(self) -> float:
        return self.aligned / self.truth if self.truth else 1.0

    def share(self, ok: int, total: int | None = None) -> float:
        total = self.aligned if total is None else total
        return ok / total if total else 1.0

    def figures(self) -> dict[str, float | int]:
        """The figures a test pins: recall, spurious rows, field accuracies."""
        return {
            "truth": self.truth,
            "rows": self.rows,
            "recall": round(self.recall, 3),
            "spurious": self.spurious,
            "title": round(self.share(self.title_ok), 3),
            "first_author": round(self.share(self.author_ok), 3),
            "year": round(self.share(self.year_ok, self.year_total), 3),
        }


def _match(entry: Truth, text: list[str], joined: str) -> float:
    """How well a row's text words hold `entry` (0 when they do not)."""
    family = words(entry.first_family)
    has_family = bool(family) and family[-1] in text
    title = words(entry.title)
    year_in = entry.year is not None and entry.year in text
    # styles that print no title (APS, some Vancouver): family name and year, weakest match
    fallback = 0.3 if has_family and year_in else 0.0
    if not title:
        return fallback
    present = set(text)
    cover = sum(w in present for w in title) / len(title)
    if "".join(title) in joined:
        cover = 1.0
    if cover < 0.8 or (len(title) < 4 and not has_family):
        return fallback
    return cover + (0.1 if has_family else 0.0)


def align(rows: list[dict[str, Any]], truth: list[Truth]) -> list[tuple[int, int]]:
    """(row index, truth index) pairs, best match first, each row and entry used once."""
    texts = [words(r.get("reference_text")) for r in rows]
    joined = ["".join(t) for t in texts]
    scored = []
    for ti, entry in enumerate(truth):
        for ri, text in enumerate(texts):
            s = _match(entry, text, joined[ri])
            if s > 0:
                scored.append((-s, abs(ri - ti), ri, ti))
    scored.sort()
    used_r: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for _, _, ri, ti in scored:
        if ri not in used_r and ti not in used_t:
            used_r.add(ri)
            used_t.add(ti)
            pairs.append((ri, ti))
    return pairs


def _title_ok(read: str | None, truth: str | None) -> bool:
    a, b = " ".join(words(read)), " ".join(words(truth))
    return bool(a) and SequenceMatcher(None, a, b).ratio() >= 0.9


def _author_ok(row: dict[str, Any], family: str | None) -> bool:
    want = words(family)
    names = row.get("author_names") or []
    got = words(names[0].get("family")) if names and names[0].get("family") else []
    if not got and row.get("authors"):
        got = words(row["authors"][0])
    return bool(want) and (want[-1] in got or " ".join(want) == " ".join(got))


def score(rows: list[dict[str, Any]], truth: list[Truth]) -> Score:
    """Every figure of one document: `rows` as `load_files` read them against `truth`."""
    pairs = align(rows, truth)
    aligned_r = {ri for ri, _ in pairs}
    aligned_t = {ti for _, ti in pairs}
    title_ok = author_ok = year_ok = year_total = 0
    wrong = []
    for ri, ti in pairs:
        row, entry = rows[ri], truth[ti]
        if _title_ok(row.get("title"), entry.title):
            title_ok += 1
        else:
            wrong.append((entry.key, "title", str(row.get("title")), str(entry.title)))
        if _author_ok(row, entry.first_family):
            author_ok += 1
        else:
            wrong.append((entry.key, "author", str(row.get("authors")), str(entry.first_family)))
        if entry.year is not None:
            year_total += 1
            if str(row.get("year") or "") == entry.year:
                year_ok += 1
            else:
                wrong.append((entry.key, "year", str(row.get("year")), entry.year))
    return Score(
        truth=len(truth),
        rows=len(rows),
        aligned=len(pairs),
        spurious=len(rows) - len(aligned_r),
        title_ok=title_ok,
        author_ok=author_ok,
        year_ok=year_ok,
        year_total=year_total,
        missed=tuple(truth[i].key for i in range(len(truth)) if i not in aligned_t),
        spurious_text=tuple(
            str(rows[i].get("reference_text"))[:200] for i in range(len(rows)) if i not in aligned_r
        ),
        wrong=tuple(wrong),
    )
