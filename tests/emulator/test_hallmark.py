"""The HALLMARK corpus file serves id lookups through the emulator's real endpoints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from auditor.emulator import start_emulator
from auditor.emulator.hallmark import hallmark_corpus, load_hallmark

DOI = "10.1109/CVPR52729.2023.00373"


def hallmark_obj() -> dict[str, Any]:
    """A HALLMARK-shaped corpus: one Crossref work, one arXiv paper, a DataCite DOI."""
    return {
        "crossref": {
            DOI.lower(): {
                "DOI": DOI.lower(),
                "type": "journal-article",
                "title": ["BiasAdv: Bias-Adversarial Augmentation for Model Debiasing"],
                "author": [{"given": "Jongin", "family": "Lim", "sequence": "first"}],
                "container-title": ["CVPR"],
                "published": {"date-parts": [[2023]]},
            }
        },
        "pubmed": {},
        "arxiv": {
            "2602.12271": {
                "id": "2602.12271",
                "title": "MonarchRT",
                "authors": ["Krish Agarwal"],
                "published": "2026-01-15T00:00:00Z",
            }
        },
        "dois": {DOI.lower(): "Crossref", "10.5281/zenodo.1": "DataCite"},
        "prefixes": {"10.1109": "Crossref", "10.5281": "DataCite"},
        "search": {"dblp": [{"text": "BiasAdv Jongin Lim CVPR", "info": {"title": "BiasAdv."}}]},
    }


def test_sections_map_onto_the_emulator_corpus() -> None:
    corpus = hallmark_corpus(hallmark_obj())
    assert DOI.lower() in corpus.crossref
    assert corpus.arxiv["2602.12271"]["version"] == 1
    assert corpus.agency_of("10.5281/zenodo.1") == "DataCite"
    assert corpus.doi_exists("10.5281/zenodo.1")
    assert not corpus.doi_exists("10.1109/fabricated.2023.1")
    assert corpus.search["dblp"][0]["text"] == "BiasAdv Jongin Lim CVPR"


def test_unknown_section_is_refused() -> None:
    with pytest.raises(ValueError, match="surprise"):
        hallmark_corpus({**hallmark_obj(), "surprise": {}})


async def test_served_by_id_endpoints(tmp_path: Path) -> None:
    path = tmp_path / "dev.corpus.json"
    path.write_text(json.dumps(hallmark_obj()), encoding="utf-8")
    emu = await start_emulator(load_hallmark(path))
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{emu.base_urls['crossref_url']}/works/{DOI}") as resp:
                assert resp.status == 200
                assert (await resp.json())["message"]["container-title"] == ["CVPR"]
            url = f"{emu.base_urls['arxiv_url']}/api/query?id_list=2602.12271"
            async with http.get(url) as resp:
                assert "MonarchRT" in await resp.text()
            url = f"{emu.base_urls['doi_url']}/doiRA/10.1109/fabricated.1,10.5281/zenodo.1"
            async with http.get(url) as resp:
                rows = await resp.json()
        assert rows[0]["status"] == "DOI does not exist"
        assert rows[1]["RA"] == "DataCite"
    finally:
        await emu.close()
