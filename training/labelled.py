"""Labelled reference strings in AnyStyle's XML shape, as token and label sequences.

A file is `<dataset><sequence><author>…</author><title>…</title>…</sequence>…</dataset>`: each
child of a sequence is one field of one reference, in printed order. `read_sequences(path)`
returns each reference as its white-space tokens (`crf_features.tokens` of each field's text)
and one label per token, AnyStyle's field names folded into the labels the model learns
(`LABELS`). Parsed with defusedxml: no DTD, no entities.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import defusedxml.ElementTree as safe_et

from auditor.load.documents.crf_features import tokens

__all__ = ["LABELS", "Sequence", "read_sequences"]

# AnyStyle field -> model label. The model learns what the audit compares (author, title, year,
# venue) apart, and folds the rest into a few kinds that fix where those end.
LABELS = {
    "author": "author",
    "editor": "editor",
    "translator": "editor",
    "director": "editor",
    "producer": "editor",
    "title": "title",
    "date": "date",
    "journal": "container",
    "container-title": "container",
    "volume": "volume",
    "pages": "pages",
    "publisher": "publisher",
    "location": "location",
    "citation-number": "label",
    "url": "id",
    "doi": "id",
    "isbn": "id",
}
_OTHER = "note"  # note, genre, medium, source, edition, collection-title


@dataclass(frozen=True)
class Sequence:
    """One labelled reference: its tokens, one label each, and its fields as printed."""

    tokens: list[str]
    labels: list[str]
    fields: list[tuple[str, str]]
    """`(AnyStyle field name, text)` in printed order."""

    @property
    def text(self) -> str:
        """The reference as one string."""
        return " ".join(self.tokens)


def read_sequences(path: Path) -> list[Sequence]:
    """Every sequence of the AnyStyle XML file at `path`."""
    root = safe_et.parse(str(path)).getroot()
    out: list[Sequence] = []
    for seq in root.iter("sequence"):
        toks: list[str] = []
        labels: list[str] = []
        fields: list[tuple[str, str]] = []
        for child in seq:
            text = " ".join((child.text or "").split())
            if not text:
                continue
            fields.append((child.tag, text))
            got = tokens(text)
            toks += got
            labels += [LABELS.get(child.tag, _OTHER)] * len(got)
        if toks:
            out.append(Sequence(toks, labels, fields))
    return out
