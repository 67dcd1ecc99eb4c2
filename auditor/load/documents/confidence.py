"""How sure the rule reader is of each field it read from a reference string (#35).

The `field_confidence` column: a weak field may not make a row a suspect
(`auditor.unreadable`). A model that reads strings puts its own marginals here instead.
"""

from __future__ import annotations

__all__ = ["rule_confidence"]


# What each rule's reading is worth: a quoted title or a GB/T type tag marks the title's ends
# for certain; a year right after the authors marks their end; a plain `. ` split is a guess.
_TITLE_CERTAINTY = {"quoted": 0.95, "gbt7714": 0.9, "author_year": 0.85, "plain": 0.6}


def rule_confidence(
    style: str,
    sure: bool,
    title: str | None,
    authors: list[str],
    year: int | None,
    year_marked: bool,
    fields: dict[str, str | None],
) -> dict[str, float]:
    """The rules' certainty of each field read (`ParsedReference.confidence`): how well the
    string's own marks (quotes, a year after the names, a type tag) fixed each field's ends."""
    marked = _TITLE_CERTAINTY.get(style, 0.3) if sure else 0.3
    out: dict[str, float] = {}
    if title:
        out["title"] = marked
    if authors:
        # a "name" without a letter is what a lost character left (`and .`)
        named = all(any(ch.isalpha() for ch in a) for a in authors)
        out["authors"] = marked if named else min(marked, 0.2)
    if year is not None:
        # a year found only in the tail may be a page number or a volume's year
        out["year"] = 0.95 if year_marked else 0.7
    if fields.get("container_title"):
        out["container_title"] = min(marked, 0.6)
    return out
