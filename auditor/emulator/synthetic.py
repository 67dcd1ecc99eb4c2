"""Generated bibliographies with a matching corpus, for benchmarks and load tests.

`synthetic` makes `n_doi` DOI, `n_pmid` PMID and `n_arxiv` arXiv references in the shapes the
real registers use; a `missing` fraction of each kind is left out of the corpus (so the registers
answer "no such record"), spread evenly. Spare records (`spares`) exist in the corpus but are cited
by no reference, so a benchmark can edit a reference to point at one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from auditor.emulator.corpus import Corpus

#: A prefix reserved for examples by the DOI Foundation; registered with Crossref in the corpus.
PREFIX = "10.5555"

_WORDS = [
    "adaptive",
    "bayesian",
    "cortical",
    "dynamics",
    "ensemble",
    "fractional",
    "genomic",
    "hierarchical",
    "inference",
    "kinetic",
    "latent",
    "metabolic",
    "neural",
    "oscillatory",
    "protein",
    "quantum",
    "regression",
    "spectral",
    "synaptic",
    "thermal",
    "variational",
    "cohort",
    "lattice",
    "membrane",
]
_SURNAMES = [
    "Smith",
    "Garcia",
    "Chen",
    "Müller",
    "Okafor",
    "Tanaka",
    "Rossi",
    "Novak",
    "Silva",
    "Kowalski",
    "Ivanova",
    "Dubois",
]
_GIVEN = [
    "Ada",
    "Wei",
    "Lena",
    "Omar",
    "Yuki",
    "Marco",
    "Ines",
    "Jan",
    "Paulo",
    "Anna",
    "Olga",
    "Luc",
]


@dataclass(frozen=True)
class Reference:
    """One generated bibliography entry."""

    key: str
    kind: str
    """`doi`, `pmid` or `arxiv`."""
    identifier: str
    title: str
    authors: tuple[str, ...]
    """"Family, Given" as BibTeX writes them."""
    year: int
    exists: bool
    """False for the `missing` fraction the corpus leaves out."""


@dataclass
class Synthetic:
    """A corpus and the references citing it."""

    corpus: Corpus
    references: list[Reference]
    spares: dict[str, list[str]] = field(default_factory=dict)
    """Kind → identifiers in the corpus that no reference cites."""


def _title(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 9))).capitalize()


def _people(rng: random.Random) -> list[tuple[str, str]]:
    return [(rng.choice(_SURNAMES), rng.choice(_GIVEN)) for _ in range(rng.randint(1, 4))]


def _crossref(doi: str, title: str, people: list[tuple[str, str]], year: int) -> dict[str, Any]:
    return {
        "DOI": doi,
        "type": "journal-article",
        "title": [title],
        "container-title": ["Journal of Generated Results"],
        "author": [
            {"given": g, "family": f, "sequence": "first" if i == 0 else "additional"}
            for i, (f, g) in enumerate(people)
        ],
        "issued": {"date-parts": [[year, 3, 1]]},
        "published": {"date-parts": [[year, 3, 1]]},
        "volume": str(year - 1990),
        "page": "1-10",
        "publisher": "Emulated Press",
    }


def _esummary(pmid: str, title: str, people: list[tuple[str, str]], year: int) -> dict[str, Any]:
    return {
        "uid": pmid,
        "pubdate": f"{year} Mar",
        "epubdate": "",
        "source": "J Gen Res",
        "authors": [
            {"name": f"{f} {g[0]}", "authtype": "Author", "clusterid": ""} for f, g in people
        ],
        "title": f"{title}.",
        "volume": str(year - 1990),
        "issue": "1",
        "pages": "1-10",
        "lang": ["eng"],
        "pubstatus": "4",
        "articleids": [{"idtype": "pubmed", "idtypen": 1, "value": pmid}],
    }


def _arxiv(title: str, people: list[tuple[str, str]], year: int) -> dict[str, Any]:
    stamp = f"{year}-03-01T12:00:00Z"
    return {
        "title": title,
        "authors": [f"{g} {f}" for f, g in people],
        "published": stamp,
        "updated": stamp,
        "summary": "Generated abstract.",
        "version": 1,
    }


def _identifier(kind: str, i: int) -> str:
    if kind == "doi":
        return f"{PREFIX}/gen.{i:05d}"
    if kind == "pmid":
        return str(31000000 + i)
    return f"2101.{i:05d}"


def synthetic(
    n_doi: int = 300,
    n_pmid: int = 150,
    n_arxiv: int = 50,
    missing: float = 0.05,
    seed: int = 0,
    spares: int = 3,
) -> Synthetic:
    """Generate the references and corpus (deterministic for a given seed)."""
    rng = random.Random(seed)
    corpus = Corpus(agencies={PREFIX: "Crossref"})
    refs: list[Reference] = []
    spare_ids: dict[str, list[str]] = {}
    for kind, count in (("doi", n_doi), ("pmid", n_pmid), ("arxiv", n_arxiv)):
        absent = round(count * missing)
        # Spread the missing ids evenly so every batch holds some.
        gone = {int((j + 0.5) * count / absent) for j in range(absent)} if absent else set()
        for i in range(count + spares):
            ident = _identifier(kind, i)
            title, people, year = _title(rng), _people(rng), rng.randint(1995, 2025)
            exists = i not in gone
            if exists and kind == "doi":
                corpus.crossref[ident.lower()] = _crossref(ident, title, people, year)
            elif exists and kind == "pmid":
                corpus.pubmed[ident] = _esummary(ident, title, people, year)
            elif exists:
                corpus.arxiv[ident] = _arxiv(title, people, year)
            if i >= count:
                spare_ids.setdefault(kind, []).append(ident)
                continue
            authors = tuple(f"{f}, {g}" for f, g in people)
            refs.append(Reference(f"{kind}{i}", kind, ident, title, authors, year, exists))
    return Synthetic(corpus, refs, spare_ids)


def to_bibtex(references: list[Reference]) -> str:
    """The references as a BibTeX file (one `@article` each, identifier in its own field)."""
    field_of = {"doi": "doi", "pmid": "pmid", "arxiv": "eprint"}
    out = []
    for ref in references:
        extra = "  archivePrefix = {arXiv},\n" if ref.kind == "arxiv" else ""
        out.append(
            f"@article{{{ref.key},\n"
            f"  title = {{{ref.title}}},\n"
            f"  author = {{{' and '.join(ref.authors)}}},\n"
            f"  year = {{{ref.year}}},\n"
            f"  {field_of[ref.kind]} = {{{ref.identifier}}},\n"
            f"{extra}"
            "}\n"
        )
    return "\n".join(out)
