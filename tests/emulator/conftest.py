"""A small corpus in the real register shapes, and a running emulator per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator

DOI = "10.1371/journal.pone.0033693"
ISTIC_DOI = "10.3969/j.issn.0376-2491.2023.48.012"
PMID = "30939045"
TA = "Zhonghua Yi Xue Za Zhi"
COORD_TERM = f'"{TA}"[ta] AND 88[vi] AND 801[pg]'


def crossref_message(doi: str, title: str) -> dict[str, Any]:
    """A Crossref work `message` with the fields real records carry."""
    return {
        "DOI": doi,
        "type": "journal-article",
        "title": [title],
        "container-title": ["PLoS ONE"],
        "author": [{"given": "Ada", "family": "Lovelace", "sequence": "first"}],
        "issued": {"date-parts": [[2012, 3, 21]]},
        "published": {"date-parts": [[2012, 3, 21]]},
        "volume": "7",
        "issue": "3",
        "page": "e33693",
        "publisher": "Public Library of Science (PLoS)",
    }


def esummary_doc(pmid: str, title: str, source: str = "Circ Genom Precis Med") -> dict[str, Any]:
    """An esummary document object as PubMed JSON has it."""
    return {
        "uid": pmid,
        "pubdate": "2019 May",
        "epubdate": "",
        "source": source,
        "authors": [{"name": "Peloso GM", "authtype": "Author", "clusterid": ""}],
        "title": title,
        "volume": "12",
        "issue": "5",
        "pages": "e002376",
        "lang": ["eng"],
        "pubstatus": "4",
        "articleids": [{"idtype": "pubmed", "idtypen": 1, "value": pmid}],
    }


@pytest.fixture
def corpus() -> Corpus:
    """Two Crossref works, three PubMed documents, two arXiv papers, an ISTIC DOI."""
    return Corpus(
        crossref={
            DOI: crossref_message(DOI, "A study of slashes"),
            "10.1038/srep16696": crossref_message("10.1038/srep16696", "Second work"),
        },
        pubmed={
            PMID: esummary_doc(PMID, "Rare variants in lipids."),
            "36723951": esummary_doc("36723951", "Another paper."),
            "18589007": esummary_doc("18589007", "[Chinese shadow title].", source=TA),
        },
        arxiv={
            "1707.08567": {
                "title": "Proceedings of Workshop AEW10",
                "authors": ["Kees A. Schouhamer Immink", "Stan Baggen"],
                "published": "2017-07-27T08:18:33Z",
                "updated": "2017-07-27T08:18:33Z",
                "summary": "The 10th Asia-Europe workshop <&> more.",
                "version": 1,
            },
            "astro-ph/0601001": {
                "title": "Old style",
                "authors": ["A. Author"],
                "published": "2006-01-01T00:00:00Z",
                "summary": "s",
                "journal_ref": "ActaAstron.56:1-50,2006",
                "comment": "50 pages",
                "category": "astro-ph",
                "doi": "10.1016/j.actaastro.2004.09.001",
                "version": 2,
            },
        },
        agencies={"10.3969": "ISTIC", "10.1371": "Crossref", "10.5281": "DataCite"},
        csl={ISTIC_DOI: {"DOI": ISTIC_DOI, "type": "article-journal", "title": "宫颈腺癌"}},
        handles={"10.5281/zenodo.8242099"},
        esearch={COORD_TERM: ["18589007"]},
    )


@pytest.fixture
async def emu(corpus: Corpus) -> AsyncIterator[Emulator]:
    """The emulator on 127.0.0.1 with no latency, limits or faults."""
    emulator = await start_emulator(corpus, EmulatorConfig())
    yield emulator
    await emulator.close()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """A client session that does not follow redirects unless asked."""
    async with aiohttp.ClientSession() as session:
        yield session
