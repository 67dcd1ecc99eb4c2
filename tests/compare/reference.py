"""A plain per-row reference implementation of reference-resolution/v1, for the tests.

Written to be obviously correct rather than fast: one function per rule, read straight off the
criteria text, with `Fraction` thresholds and a character-by-character `normalize_text`. The
vectorized core in `auditor.compare` must agree with it on every field and verdict.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from auditor.markup import strip_markup
from auditor.text import han_title_form, has_han

JACCARD_MIN = Fraction(85, 100)
SUBSET_MIN = Fraction(60, 100)
FOUND_MIN = Fraction(2, 3)
ET_AL = {"et al", "etal", "others", "and others"}


def normalize(s: str | None) -> str:
    """NFKD → strip combining marks → lowercase → keep letters/numbers/whitespace → collapse."""
    if not s:
        return ""
    decomposed = unicodedata.normalize("NFKD", s)
    no_marks = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    lowered = no_marks.lower()
    kept = "".join(c for c in lowered if unicodedata.category(c)[0] in ("L", "N") or c.isspace())
    return " ".join(kept.split())


def surname(name: str | None) -> str:
    """Part before a comma, else the last whitespace token; then normalized."""
    if not name:
        return ""
    if "," in name:
        part = name[: name.index(",")]
    else:
        words = name.split()
        part = words[-1] if words else ""
    return normalize(part)


def title_decision(claimed: str | None, register: str | None) -> tuple[bool, float | None, bool]:
    """(match, Jaccard or None, either side empty); markup is not text (removed first)."""
    claimed, register = strip_markup(claimed), strip_markup(register)
    a = set(normalize(claimed).split())
    b = set(normalize(register).split())
    union = a | b
    score = Fraction(len(a & b), len(union)) if union else None
    match = False
    if score is not None and score >= JACCARD_MIN:
        match = True
    if b and a <= b and Fraction(len(a), len(b)) >= SUBSET_MIN:
        match = True
    if has_han(claimed) and has_han(register):
        match = han_title_form(claimed) == han_title_form(register)
    return match, (None if score is None else float(score)), (not a or not b)


def authors_decision(claimed: list[str] | None, register: list[str] | None) -> bool | None:
    """None when no claimed author remains; else the first-author and 2/3 multiset rule."""
    names = [n for n in (claimed or []) if normalize(n) not in ET_AL]
    if not names:
        return None
    mine = [surname(n) for n in names]
    theirs = [normalize(s) for s in (register or [])]
    first_equal = bool(theirs) and mine[0] != "" and mine[0] == theirs[0]
    if len(mine) == 1:
        return first_equal
    pool = Counter(s for s in theirs if s != "")
    found = 0
    for s in mine:
        if s != "" and pool[s] > 0:
            pool[s] -= 1
            found += 1
    return first_equal and Fraction(found, len(mine)) >= FOUND_MIN


def year_decision(claimed: int | None, register: int | None) -> bool | None:
    """None when no year is claimed; else integer equality (a missing register year differs)."""
    if claimed is None:
        return None
    return register is not None and claimed == register


@dataclass
class Expected:
    """What the oracle says about one reference."""

    verdict: str
    reason: str | None
    title_match: bool | None
    title_score: float | None
    authors_match: bool | None
    year_match: bool | None


def expected(ref: dict[str, Any], rec: dict[str, Any] | None) -> Expected:
    """The oracle's outcome for one reference and its record (or None)."""
    if ref.get("row_state") is not None:
        return Expected(ref["row_state"], ref.get("row_reason"), None, None, None, None)
    if rec is None:
        return Expected("UNCHECKED", "not_looked_up", None, None, None, None)
    status = rec["status"]
    if status != "found":
        verdict = {"not_found": "DOES-NOT-RESOLVE", "not_covered": "NOT COVERED"}.get(
            status, "UNCHECKED"
        )
        return Expected(verdict, rec.get("reason"), None, None, None, None)
    t_match, score, empty = title_decision(ref.get("title"), rec.get("title"))
    a_match = authors_decision(ref.get("authors"), rec.get("surnames"))
    y_match = year_decision(ref.get("year"), rec.get("year"))
    reason = None
    if not t_match:
        reason = "title_empty" if empty else "title_differs"
    elif a_match is False:
        reason = "authors_differ"
    elif y_match is False:
        reason = "year_differs"
    verdict = "RESOLVES-AND-MATCHES" if reason is None else "RESOLVES-BUT-DIFFERS"
    return Expected(verdict, reason, t_match, score, a_match, y_match)


def expected_v2(ref: dict[str, Any], rec: dict[str, Any] | None) -> dict[str, Any]:
    """auditor/v2's outcome for one reference: the row rules of `auditor.compare.v2` applied
    straight, with no fast path, no column kernel and no de-duplication."""
    from datetime import UTC, datetime

    from auditor.compare import v2

    base = expected(ref, rec)
    out: dict[str, Any] = {
        "verdict": base.verdict,
        "reason": base.reason,
        "findings": None,
        "title_match": None,
        "title_score": None,
        "authors_match": None,
        "year_match": None,
        "venue_match": None,
    }
    if rec is None or ref.get("row_state") is not None or rec["status"] != "found":
        return out
    by_title = ref.get("id_type") == v2.SEARCH_ID_TYPE
    arxiv = rec.get("register") == "arxiv"
    preprint = v2.is_preprint_record(
        rec.get("register"), rec.get("work_type"), rec.get("container_title")
    )
    fields = {
        "title": v2.title_rule(strip_markup(ref.get("title")), strip_markup(rec.get("title"))),
        "authors": v2.authors_rule(
            ref.get("authors"), ref.get("authors_et_al"), rec.get("surnames")
        ),
        "venue": v2.journal_ref_rule(ref.get("container_title"), rec.get("container_title"))
        if arxiv and not by_title
        else v2.venue_rule(
            ref.get("container_title"),
            rec.get("container_title"),
            register_is_preprint=preprint,
            by_title=by_title,
        ),
        "year": v2.year_rule(
            ref.get("year"),
            [rec.get("year"), *(rec.get("years") or [])],
            datetime.now(UTC).year,
            arxiv=arxiv,
        ),
        "arxiv": v2.arxiv_version_rule(ref.get("id_raw"), rec.get("version"))
        if arxiv and not by_title
        else v2.Field(False, None),
    }
    findings = [str(f.finding) for f in fields.values() if f.finding]
    out.update(
        verdict="RESOLVES-BUT-DIFFERS" if findings else "RESOLVES-AND-MATCHES",
        reason=findings[0] if findings else None,
        findings=findings,
        title_match=fields["title"].match,
        title_score=fields["title"].score,
        authors_match=fields["authors"].match,
        year_match=fields["year"].match,
        venue_match=fields["venue"].match,
    )
    return out
