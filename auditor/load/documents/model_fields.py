"""The fields the reference-string model reads, in the shape the rule reader uses (#35 item 2).

`model_fields(rest)` runs the model (`documents.crf`) on a string already without its label
and identifiers (the certain rules took those off) and returns the author part as printed
(for `people.split_authors`), the title, the year, the venue and the part after the title
(for `venue_part.venue_fields`), each with the model's confidence under the names of
`ParsedReference.confidence`. `None` when no model could be read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from auditor.load.documents import crf

__all__ = ["ModelFields", "model_fields"]

_IN_RE = re.compile(r"^(?:[Ii]n|IN)\s*:?\s+")
_EDGE = " ,;:"
_QUOTES = '“”"‘’«» '
# the full stop that ends a title, not one of an abbreviation (`… in the U.S.`)
_TITLE_STOP_RE = re.compile(r"(?<=[\w)?!]{2})\.+$")
# A string in which the model found neither names nor a date is no reference reading to stand
# behind, however sure its labels: its fields stay as weak as the rules' unmarked split.
_NO_FRAME = 0.3


@dataclass(frozen=True)
class ModelFields:
    """One string as the model read it; `None` where it labelled no such field."""

    authors: str | None = None
    """The author part as printed (`Smith, J., & Lee, K.`)."""
    title: str | None = None
    year: int | None = None
    container_title: str | None = None
    venue: str = ""
    """Everything after the title, for volume, issue and pages."""
    confidence: dict[str, float] = field(default_factory=dict)
    """`title`, `authors`, `year`, `container_title` -> the model's confidence, 0..1."""


def model_fields(rest: str) -> ModelFields | None:
    """The model's reading of `rest` (see the module docstring)."""
    got = crf.read(rest)
    if got is None:
        return None
    spans, conf = got.spans, got.confidence
    confidence: dict[str, float] = {}
    authors = spans.get("author", "").strip(_EDGE) or None
    if authors:
        confidence["authors"] = conf["author"]
    title = (
        _TITLE_STOP_RE.sub("", spans.get("title", "").strip(_EDGE)).strip(_QUOTES + _EDGE) or None
    )
    if title:
        confidence["title"] = conf["title"]
    year = got.year
    if year is not None:
        confidence["year"] = conf["date"]
    container = _IN_RE.sub("", spans.get("container", "")).strip(_EDGE + ".") or None
    if container:
        confidence["container_title"] = conf["container"]
    if not authors and year is None:
        confidence = {k: min(v, _NO_FRAME) for k, v in confidence.items()}
    return ModelFields(
        authors=authors,
        title=title,
        year=year,
        container_title=container,
        venue=got.after("title") if title else rest,
        confidence=confidence,
    )
