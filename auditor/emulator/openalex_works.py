"""The OpenAlex works an emulator corpus implies: its Crossref, arXiv and search-list records.

OpenAlex merges Crossref (and DataCite) DOIs, arXiv, and conference papers that have no DOI; so
the emulated OpenAlex holds every Crossref record of the corpus, every arXiv record, and every
Semantic Scholar search entry whose work is not already there (by DOI, else by title), each
turned into an OpenAlex work object with the fields the real API answers (`id`, `doi`, `title`,
`display_name`, `publication_year`, `ids`, `primary_location.source`, `type`, `type_crossref`,
`authorships[]` with `author.display_name` and `raw_author_name`, `biblio`, `is_retracted`).
The set is built once per corpus state (the corpus is read-only while served).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from auditor.emulator.corpus import Corpus

#: Crossref `type` → OpenAlex `type` (OpenAlex keeps Crossref's in `type_crossref`).
_TYPES: dict[str, str] = {
    "journal-article": "article",
    "proceedings-article": "article",
    "posted-content": "preprint",
    "book-chapter": "book-chapter",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "dissertation": "dissertation",
    "report": "report",
    "dataset": "dataset",
    "standard": "standard",
}


def work_id(key: str) -> str:
    """A stable OpenAlex-looking id (`https://openalex.org/W…`) for `key`."""
    number = int(hashlib.sha256(key.encode()).hexdigest()[:12], 16)
    return f"https://openalex.org/W{number}"


def _authorships(names: Iterable[str]) -> list[dict[str, Any]]:
    listed = [n for n in names if n]
    out = []
    for i, name in enumerate(listed):
        position = "first" if i == 0 else "last" if i == len(listed) - 1 else "middle"
        out.append(
            {
                "author_position": position,
                "author": {"id": work_id("A" + name), "display_name": name, "orcid": None},
                "institutions": [],
                "countries": [],
                "is_corresponding": False,
                "raw_author_name": name,
                "raw_affiliation_strings": [],
            }
        )
    return out


def _work(
    key: str,
    title: str,
    names: Iterable[str],
    year: int | None,
    source: str | None,
    **extra: Any,
) -> dict[str, Any]:
    doi = extra.pop("doi", None)
    pmid = extra.pop("pmid", None)
    ids: dict[str, str] = {"openalex": work_id(key)}
    if doi:
        ids["doi"] = f"https://doi.org/{doi}"
    if pmid:
        ids["pmid"] = f"https://pubmed.ncbi.nlm.nih.gov/{pmid}"
    return {
        "id": work_id(key),
        "doi": ids.get("doi"),
        "title": title,
        "display_name": title,
        "publication_year": year,
        "ids": ids,
        "language": "en",
        "primary_location": {
            "is_oa": False,
            "landing_page_url": ids.get("doi"),
            "source": {"id": work_id("S" + source), "display_name": source} if source else None,
        },
        "authorships": _authorships(names),
        "is_retracted": False,
        "is_paratext": False,
        "cited_by_count": 0,
        "type": "article",
        "type_crossref": "journal-article",
        **extra,
    }


def _first(value: object) -> str | None:
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return value if isinstance(value, str) else None


def _year(message: Mapping[str, Any]) -> int | None:
    for name in ("published", "issued", "published-print", "published-online"):
        parts = (message.get(name) or {}).get("date-parts") or [[None]]
        if parts and parts[0] and isinstance(parts[0][0], int):
            return int(parts[0][0])
    return None


def _retracted(message: Mapping[str, Any]) -> bool:
    updates = message.get("updated-by") or []
    return any(isinstance(u, Mapping) and u.get("type") == "retraction" for u in updates)


def from_crossref(doi: str, message: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAlex work of one Crossref message."""
    names = [
        " ".join(p for p in (a.get("given"), a.get("family")) if p) or a.get("name", "")
        for a in message.get("author") or []
        if isinstance(a, Mapping)
    ]
    kind = str(message.get("type") or "journal-article")
    pages = str(message.get("page") or "")
    first, _, last = pages.partition("-")
    return _work(
        doi,
        _first(message.get("title")) or "",
        names,
        _year(message),
        _first(message.get("container-title")),
        doi=doi,
        type=_TYPES.get(kind, "other"),
        type_crossref=kind,
        is_retracted=_retracted(message),
        biblio={
            "volume": message.get("volume"),
            "issue": message.get("issue"),
            "first_page": first or None,
            "last_page": last or None,
        },
    )


def from_arxiv(base: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAlex work of one arXiv record (OpenAlex gives arXiv preprints DataCite DOIs)."""
    published = str(record.get("published") or "")
    year = int(published[:4]) if published[:4].isdigit() else None
    return _work(
        "arxiv:" + base,
        str(record.get("title") or ""),
        [str(a) for a in record.get("authors") or []],
        year,
        "arXiv (Cornell University)",
        doi=f"10.48550/arxiv.{base}".lower(),
        type="preprint",
        type_crossref="posted-content",
    )


def from_s2(paper: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAlex work of one Semantic Scholar paper object (a search-list entry)."""
    ids = paper.get("externalIds") or {}
    names = [a.get("name", "") for a in paper.get("authors") or [] if isinstance(a, Mapping)]
    doi = str(ids.get("DOI") or "").lower() or None
    year = paper.get("year") if isinstance(paper.get("year"), int) else None
    return _work(
        "s2:" + str(paper.get("paperId") or paper.get("title")),
        str(paper.get("title") or ""),
        names,
        year,
        paper.get("venue") or None,
        doi=doi,
        pmid=ids.get("PubMed"),
    )


@dataclass(frozen=True)
class Works:
    """The emulated OpenAlex: works by lower-cased DOI, and the search index over all works."""

    by_doi: dict[str, dict[str, Any]]
    index: list[dict[str, Any]]
    """`{"text": title, "work": work}` entries, ranked by `ranking.rank`."""


_BUILT: dict[int, tuple[tuple[int, ...], Works]] = {}


def _state(corpus: Corpus) -> tuple[int, ...]:
    s2 = corpus.search.get("s2", [])
    return (id(corpus.crossref), len(corpus.crossref), len(corpus.arxiv), id(s2), len(s2))


def works(corpus: Corpus) -> Works:
    """The OpenAlex works of `corpus` (see the module docstring), built once per corpus state."""
    known = _BUILT.get(id(corpus))
    if known is not None and known[0] == _state(corpus):
        return known[1]
    all_works = [from_crossref(d, m) for d, m in corpus.crossref.items()]
    all_works += [from_arxiv(b, r) for b, r in corpus.arxiv.items()]
    dois = {str(w["ids"].get("doi", "")).lower() for w in all_works}
    titles = {str(w["title"]).casefold() for w in all_works}
    for entry in corpus.search.get("s2", []):
        work = from_s2(entry.get("paper") or {})
        title = str(work["title"]).casefold()
        if not title or title in titles or str(work["ids"].get("doi", "")).lower() in dois - {""}:
            continue
        titles.add(title)
        all_works.append(work)
    by_doi = {
        str(w["ids"]["doi"]).removeprefix("https://doi.org/").lower(): w
        for w in all_works
        if w["ids"].get("doi")
    }
    built = Works(by_doi, [{"text": w["title"], "work": w} for w in all_works if w["title"]])
    _BUILT[id(corpus)] = (_state(corpus), built)
    return built
