"""The rules' reading of a reference string and the model's, merged field by field (#35 item 2).

`with_model(ref, rest)` takes the rules' `ParsedReference` and what the model
(`model_fields`) reads of the same string (without its label and identifiers) and keeps, for
each of authors, title, year and venue, the reading the evidence favours; each field's
confidence says how far the two readers agree, so a field they dispute cannot carry a flag
(`auditor.unreadable`). A quoted title or a GB/T type tag is certain: the model never
replaces such a title.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rapidfuzz import fuzz

from auditor.load.documents.model_fields import model_fields
from auditor.load.documents.parsed import ParsedReference
from auditor.load.documents.people import split_authors
from auditor.load.documents.venue_part import entry_type, venue_fields

__all__ = ["with_model"]

_SURE = 0.8  # a model marginal this high is as sure as a year after the names marks the split
_OVERRIDE = 0.9  # the model overrules a marked split of the rules only when this sure


def with_model(ref: ParsedReference, rest: str) -> ParsedReference:
    """`ref` with what the model read of `rest`, field by field (`ref` itself without a model):

    - where the two agree (names and venues alike but for punctuation and case, titles at
      fuzzy ratio 90), the rules' text, as sure as the surer of them;
    - where they differ, the model's reading when the rules' split was unmarked or the model
      is sure (`_OVERRIDE`), else the rules'; either way no surer than the other reader's
      doubt of its own (the two readings exclude each other), so a field the readers dispute
      with any conviction cannot carry a flag (`auditor.unreadable`);
    - a field the model did not label keeps the rules' reading.

    `sure` also when the model is confident of both authors and title."""
    m = model_fields(rest)
    if m is None or not (m.title or m.authors):
        return ref
    conf = dict(ref.confidence)
    changes: dict[str, Any] = {}

    def take(name: str, agree: bool) -> bool:
        return _take(name, agree, conf, m.confidence, ref.sure)

    if m.authors:
        authors, et_al = split_authors(m.authors)
        if take("authors", [_fold(a) for a in authors] == [_fold(a) for a in ref.authors]):
            changes.update(authors=authors, et_al=et_al)
    title = m.title
    # a quoted title or a GB/T type tag marks the title's ends for certain: that rule stands
    certain = ref.style in ("quoted", "gbt7714")
    if title and not certain and take("title", _alike(title, ref.title)):
        changes["title"] = title
    if m.year is not None and take("year", m.year == ref.year):
        changes["year"] = m.year
    same_venue = _fold(m.container_title) == _fold(ref.container_title)
    if m.container_title and take("container_title", same_venue):
        fields = venue_fields(m.venue)
        fields["container_title"] = m.container_title
        changes.update(fields, entry_type=entry_type(m.venue, fields, ref.ids))
    authors, title = changes.get("authors", ref.authors), changes.get("title", ref.title)
    marked = min(conf.get("title", 0.0), conf.get("authors", 0.0)) >= _SURE
    sure = bool(authors) and bool(title) and (ref.sure or marked)
    return replace(ref, **changes, sure=sure, confidence=conf)


def _take(
    name: str, agree: bool, conf: dict[str, float], model: dict[str, float], marked: bool
) -> bool:
    """Whether the model's reading of field `name` replaces the rules' (see `with_model`);
    sets the field's confidence in `conf`. `marked`: the rules' split was marked."""
    rule = conf.get(name, 0.0)
    if agree:
        conf[name] = max(rule, model[name])
        return False
    # the two readings exclude each other: the one taken is no surer than the other's reader
    # doubts its own
    if not marked or model[name] >= _OVERRIDE:
        conf[name] = min(model[name], 1.0 - rule)
        return True
    conf[name] = min(rule, 1.0 - model[name])
    return False


def _alike(a: str, b: str | None) -> bool:
    """Whether two readings of a title name the same work: alike at fuzzy ratio >= 90
    without case and punctuation (`Drivlme: A benchmark, 2023` and `Drivlme: A benchmark`), as
    a search would take either for the other."""
    return fuzz.ratio(_fold(a), _fold(b)) >= _ALIKE


_ALIKE = 90


def _fold(text: str | None) -> str:
    """`text` without case, spaces or punctuation: what two readings must share to agree."""
    return "".join(ch for ch in (text or "").casefold() if ch.isalnum())
