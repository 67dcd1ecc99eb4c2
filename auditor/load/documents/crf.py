"""Read a reference string with the learned model: tokens labelled, fields with confidences.

The model (`refstring.crfsuite` beside this file, rebuilt by `training/train_refstrings.py`) is
a linear-chain CRF over the string's white-space tokens (`crf_features`), as AnyStyle and
GROBID read references. `read(text)` labels the tokens and returns the fields as printed:
the first run of each label is that field (a second run of `title` is a subtitle's or a
series' and is left out). A field's confidence is the smallest of its tokens' marginal
probabilities of its label and of its two neighbours' marginals of not having it: one doubtful
token, or one doubtful edge, makes a doubtful field, because a title with one word too many or
too few is a wrong title. Returns `None` when the model file cannot be read (a broken
install), so the rules go on alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import pycrfsuite

from auditor.load.documents.crf_features import features, tokens

__all__ = ["CrfReading", "read"]

_MODEL = "refstring.crfsuite"
_YEAR_RE = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


@dataclass(frozen=True)
class CrfReading:
    """What the model read of one string: each field's text as printed and its confidence."""

    spans: dict[str, str] = field(default_factory=dict)
    """Label -> the text of its first run of tokens (`author`, `title`, `date`, `container`,
    `volume`, `pages`, `publisher`, `location`, `editor`, `label`, `id`, `note`)."""
    confidence: dict[str, float] = field(default_factory=dict)
    """Label -> how sure the model is of the run, its tokens and its two edges, 0..1."""
    labels: list[str] = field(default_factory=list)
    """One label per token, in order."""
    tokens: list[str] = field(default_factory=list)

    @property
    def year(self) -> int | None:
        """The year printed in the `date` field, if one is."""
        m = _YEAR_RE.search(self.spans.get("date", ""))
        return int(m.group(1)) if m else None

    def after(self, label: str) -> str:
        """The tokens after the first run of `label`, joined (the venue part after a title)."""
        start = _first_run(self.labels, label)
        if start is None:
            return ""
        end = start[1]
        return " ".join(self.tokens[end:])


# The model is read once per process and never changes: a read-only lookup table, not state.
@lru_cache(maxsize=1)
def _tagger() -> pycrfsuite.Tagger | None:
    tagger = pycrfsuite.Tagger()
    try:
        with resources.as_file(resources.files(__package__) / _MODEL) as path:
            tagger.open(str(path))
    except (OSError, ValueError):
        return None
    return tagger


def _first_run(labels: list[str], label: str) -> tuple[int, int] | None:
    """`(start, end)` of the first run of `label` in `labels`."""
    try:
        start = labels.index(label)
    except ValueError:
        return None
    end = start
    while end < len(labels) and labels[end] == label:
        end += 1
    return start, end


def read(text: str) -> CrfReading | None:
    """The model's reading of `text` (see the module docstring); `None` without a model."""
    tagger = _tagger()
    if tagger is None:
        return None
    toks = tokens(text)
    if not toks:
        return CrfReading()
    labels = list(tagger.tag(features(toks)))
    spans: dict[str, str] = {}
    confidence: dict[str, float] = {}
    for label in dict.fromkeys(labels):
        run = _first_run(labels, label)
        assert run is not None  # every label in `labels` has a first run
        start, end = run
        spans[label] = " ".join(toks[start:end])
        inside = [tagger.marginal(label, i) for i in range(start, end)]
        edges = [1.0 - tagger.marginal(label, i) for i in (start - 1, end) if 0 <= i < len(toks)]
        confidence[label] = min(inside + edges)
    return CrfReading(spans=spans, confidence=confidence, labels=labels, tokens=toks)
