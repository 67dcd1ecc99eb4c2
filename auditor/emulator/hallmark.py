"""The HALLMARK evaluation corpus (`dev_public.corpus.json`) as an emulator `Corpus`.

HALLMARK's file keeps the registers' own record shapes under its own section names: `crossref`
(DOI → `/works/{doi}` message), `pubmed` (PMID → esummary document), `arxiv` (id → `{id, title,
authors, published}`), `dois` (DOI → registration agency), `prefixes` (prefix → agency) and
`search` (index → hits with a `text`). Agencies fold into the emulator's `agencies`; every DOI
the file registers is also a Handle, so the DOI system knows it whichever agency holds it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from auditor.emulator.corpus import Corpus

#: Sections of a HALLMARK corpus file; anything else is refused rather than ignored.
HALLMARK_SECTIONS: frozenset[str] = frozenset(
    {"crossref", "pubmed", "arxiv", "dois", "prefixes", "search"}
)


def _arxiv(records: dict[str, Any]) -> dict[str, dict[str, Any]]:
    # HALLMARK holds one version per paper; the emulator needs to know which it serves.
    return {key: {"version": 1, **rec} for key, rec in records.items()}


def hallmark_corpus(obj: dict[str, Any]) -> Corpus:
    """A `Corpus` from a parsed HALLMARK corpus; `ValueError` naming an unknown section."""
    unknown = set(obj) - HALLMARK_SECTIONS
    if unknown:
        raise ValueError(f"unknown HALLMARK corpus sections: {sorted(unknown)}")
    dois: dict[str, str] = obj.get("dois", {})
    agencies = {**obj.get("prefixes", {}), **dois}
    return Corpus(
        crossref=obj.get("crossref", {}),
        pubmed=obj.get("pubmed", {}),
        arxiv=_arxiv(obj.get("arxiv", {})),
        agencies=agencies,
        handles=set(dois),
        search=obj.get("search", {}),
    )


def load_hallmark(path: str | Path) -> Corpus:
    """`hallmark_corpus` of the JSON file at `path` (`OSError`, `ValueError` on a bad file)."""
    return hallmark_corpus(json.loads(Path(path).read_text(encoding="utf-8")))
