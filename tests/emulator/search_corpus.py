"""A small corpus with every search index filled, in the shapes HALLMARK's corpus uses."""

from __future__ import annotations

from typing import Any

from auditor.emulator import Corpus
from tests.emulator.conftest import crossref_message, esummary_doc

TITLE = "Attention Is All You Need"


def dblp_info(title: str, authors: list[str], venue: str, year: str) -> dict[str, Any]:
    """A DBLP hit `info` as HALLMARK's corpus stores it (authors always a list)."""
    return {
        "authors": {"author": [{"@pid": f"p/{i}", "text": a} for i, a in enumerate(authors)]},
        "title": title + ".",
        "venue": venue,
        "year": year,
        "type": "Conference and Workshop Papers",
    }


def search_corpus() -> Corpus:
    """Three works, each in every index (and in Crossref, arXiv and PubMed by id)."""
    works = [
        ("10.5555/attn", TITLE, ["Ashish Vaswani", "Noam Shazeer"], "NeurIPS", "2017"),
        (
            "10.5555/bert",
            "BERT: Pre-training of Deep Bidirectional Transformers",
            ["J Devlin"],
            "NAACL",
            "2019",
        ),
        ("10.5555/gan", "Generative Adversarial Nets", ["Ian Goodfellow"], "NeurIPS", "2014"),
    ]
    search: dict[str, list[dict[str, Any]]] = {
        "crossref": [],
        "dblp": [],
        "s2": [],
        "arxiv": [],
        "pubmed": [],
    }
    crossref, arxiv, pubmed = {}, {}, {}
    for n, (doi, title, authors, venue, year) in enumerate(works):
        text = f"{title} {' '.join(authors)} {venue}"
        crossref[doi] = crossref_message(doi, title)
        arxiv[f"1706.0{n}762"] = {
            "title": title,
            "authors": authors,
            "published": f"{year}-06-12T00:00:00Z",
            "version": 2,
        }
        pubmed[str(100 + n)] = esummary_doc(str(100 + n), title + ".")
        search["crossref"].append({"text": text, "doi": doi})
        search["dblp"].append({"text": text, "info": dblp_info(title, authors, venue, year)})
        search["s2"].append(
            {
                "text": title,
                "paper": {
                    "paperId": f"p{n}",
                    "title": title,
                    "authors": [{"authorId": None, "name": a} for a in authors],
                    "year": int(year),
                    "venue": venue,
                    "externalIds": {"DOI": doi},
                },
            }
        )
        search["arxiv"].append({"text": text, "id": f"1706.0{n}762"})
        search["pubmed"].append({"text": text, "pmid": str(100 + n)})
    return Corpus(crossref=crossref, arxiv=arxiv, pubmed=pubmed, search=search)
