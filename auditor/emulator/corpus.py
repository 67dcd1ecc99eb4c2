"""What the loopback registers know: one `Corpus` of records per service, loadable from JSON.

Keys are normalized the way the real services match them: DOIs case-insensitively (stored
lowercase), PMIDs as digit strings, arXiv ids by their base id (no `vN`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The corpus sections, each also the name of a file `Corpus.from_dir` reads (`<name>.json`).
SECTIONS: tuple[str, ...] = (
    "crossref",
    "datacite",
    "pubmed",
    "arxiv",
    "agencies",
    "csl",
    "handles",
    "esearch",
    "search",
    "grobid",
)

#: The title-search indexes a corpus may hold, each served by its own search endpoint.
SEARCH_INDEXES: tuple[str, ...] = ("crossref", "dblp", "arxiv", "s2", "pubmed")


def doi_prefix(doi: str) -> str:
    """The registrant prefix of `doi` (`10.1038/x` → `10.1038`); `doi` itself if it has no `/`."""
    return doi.split("/", 1)[0]


@dataclass
class Corpus:
    """Records served by the emulator, keyed as the real services match them.

    Keys are normalized when the corpus is built; a test that adds records to a running
    emulator's corpus uses lowercase DOIs itself.
    """

    crossref: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Lowercase DOI → the Crossref work `message` object."""
    datacite: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Lowercase DOI → the DataCite JSON:API `attributes` object (its DOI's agency is DataCite)."""
    pubmed: dict[str, dict[str, Any]] = field(default_factory=dict)
    """PMID → the esummary document object (`uid`, `title`, `authors`, `pubdate`, …)."""
    arxiv: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Base id → {title, authors: [names], published, updated, summary, doi?, journal_ref?,
    comment?, category? (default cs.IT), version: int}."""
    agencies: dict[str, str] = field(default_factory=dict)
    """DOI prefix or full DOI → RA name as doiRA spells it (Crossref, DataCite, ISTIC, …)."""
    csl: dict[str, dict[str, Any]] = field(default_factory=dict)
    """DOI → CSL-JSON served through doi.org content negotiation."""
    handles: set[str] = field(default_factory=set)
    """DOIs registered in the Handle system (every crossref/csl DOI is too, implicitly)."""
    esearch: dict[str, list[str]] = field(default_factory=dict)
    """Exact ESearch term → PMIDs."""
    search: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Index name (`SEARCH_INDEXES`) → the works a title search over it can return. Each entry
    has a `text` (title, author names, venue) the emulator ranks by token overlap, and the hit
    itself: `info` (DBLP hit `info`), `paper` (Semantic Scholar paper), `doi` (a pointer into
    `crossref`), `id` (into `arxiv`) or `pmid` (into `pubmed`)."""
    grobid: list[dict[str, Any]] = field(default_factory=list)
    """The references the emulated GROBID reads from any PDF, in order: `title`, `authors`
    (`[given, family]` pairs), `year`, `venue` (`venue_level` `j` journal, `m` proceedings or
    book), `volume`, `issue`, `pages` (`first-last`), `doi`, `raw` (the string as printed)."""

    def __post_init__(self) -> None:
        # DOIs are case-insensitive (DOI Handbook §2.4): normalize keys once, here.
        self.crossref = {k.lower(): v for k, v in self.crossref.items()}
        self.datacite = {k.lower(): v for k, v in self.datacite.items()}
        self.agencies = {k.lower(): v for k, v in self.agencies.items()}
        self.csl = {k.lower(): v for k, v in self.csl.items()}
        self.handles = {h.lower() for h in self.handles}
        self.pubmed = {str(k): v for k, v in self.pubmed.items()}
        unknown = set(self.search) - set(SEARCH_INDEXES)
        if unknown:
            raise ValueError(f"unknown search indexes: {sorted(unknown)}")

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Corpus:
        """Build from a mapping of section name → section; unknown sections raise `ValueError`."""
        unknown = set(obj) - set(SECTIONS)
        if unknown:
            raise ValueError(f"unknown corpus sections: {sorted(unknown)}")
        data = dict(obj)
        if "handles" in data:
            data["handles"] = set(data["handles"])
        return cls(**data)

    @classmethod
    def from_dir(cls, path: str | Path) -> Corpus:
        """Load `corpus.json` and/or one `<section>.json` per section from the folder `path`.

        Section files override the same section in `corpus.json`. A missing folder raises
        `FileNotFoundError`.
        """
        root = Path(path)
        if not root.is_dir():
            raise FileNotFoundError(f"corpus folder not found: {root}")
        obj: dict[str, Any] = {}
        whole = root / "corpus.json"
        if whole.is_file():
            obj.update(json.loads(whole.read_text(encoding="utf-8")))
        for name in SECTIONS:
            part = root / f"{name}.json"
            if part.is_file():
                obj[name] = json.loads(part.read_text(encoding="utf-8"))
        return cls.from_json(obj)

    def to_json(self) -> dict[str, Any]:
        """The inverse of `from_json` (handles as a sorted list)."""
        return {
            "crossref": self.crossref,
            "datacite": self.datacite,
            "pubmed": self.pubmed,
            "arxiv": self.arxiv,
            "agencies": self.agencies,
            "csl": self.csl,
            "handles": sorted(self.handles),
            "esearch": self.esearch,
            "search": self.search,
            "grobid": self.grobid,
        }

    def write_dir(self, path: str | Path) -> None:
        """Write the corpus as `path/corpus.json` (creating the folder)."""
        root = Path(path)
        root.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1)
        (root / "corpus.json").write_text(text, encoding="utf-8")

    def doi_exists(self, doi: str) -> bool:
        """Whether the DOI system knows `doi` (Crossref, CSL, Handle or a full-DOI agency row)."""
        key = doi.lower()
        return (
            key in self.crossref
            or key in self.datacite
            or key in self.csl
            or key in self.handles
            or key in self.agencies
        )

    def agency_of(self, name: str) -> str | None:
        """The RA doiRA reports for a prefix or full DOI, or None for "DOI does not exist"."""
        key = name.lower()
        if "/" in key:
            if not self.doi_exists(key):
                return None
            if key in self.agencies:
                return self.agencies[key]
            prefix = doi_prefix(key)
            if prefix in self.agencies:
                return self.agencies[prefix]
            if key in self.datacite:
                return "DataCite"
            return "Crossref" if key in self.crossref else None
        if key in self.agencies:
            return self.agencies[key]
        if any(doi_prefix(d) == key for d in self.crossref):
            return "Crossref"
        if any(doi_prefix(d) == key for d in self.datacite):
            return "DataCite"
        return None
