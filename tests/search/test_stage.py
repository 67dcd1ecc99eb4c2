"""The title-search stage end to end: run_audit against the loopback emulator's indexes."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditor.emulator import Emulator, EmulatorConfig, start_emulator
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.settings import Settings
from auditor.tables import CRITERIA_V1
from auditor.transport.cache import RecordCache
from auditor.transport.snapshot import write_snapshot
from tests.emulator.conftest import crossref_message
from tests.emulator.search_corpus import TITLE, search_corpus

SEARCHES = (
    "crossref_search",
    "openalex_search",
    "dblp_search",
    "arxiv_search",
    "s2_match",
    "esearch",
)
SLOW = {"dblp", "s2"}

BIB = """
@inproceedings{real,
  author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need},
  booktitle = {NeurIPS}, year = {2017},
}
@inproceedings{fake,
  author = {Okafor, Chidi},
  title = {Recursive Attention Graphs for Zero-Shot Protein Folding},
  booktitle = {ICML}, year = {2022},
}
@book{book, author = {Knuth, Donald}, title = {The TeXbook}, year = {1984}}
@inproceedings{notitle, author = {Nobody, A.}, year = {2020}, booktitle = {ICML}}
@article{old, author = {Erdos, Paul}, title = {Unknown Graphs of Long Ago}, year = {1947},
  journal = {Publicationes Mathematicae}}
"""


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = await start_emulator(search_corpus(), EmulatorConfig())
    yield emulator
    await emulator.close()


def settings(emu: Emulator, tmp_path: Path, **kw: Any) -> Settings:
    base = {
        "cache_dir": str(tmp_path / "cache"),
        "max_retries": 0,
        "timeout": 2.0,
        # No waits: every pace high, and DBLP, S2 and arXiv still slow beside the others.
        "search_fast_pace": 2000.0,
        "crossref_rate": 5000.0,
        "openalex_rate": 5000.0,
        "ncbi_rate": 5000.0,
        "dblp_rate": 1000.0,
        "s2_rate": 1000.0,
        "arxiv_rate": 1000.0,
        **emu.base_urls,
    }
    return registry.settings(**{**base, **kw})


async def audit(tmp_path: Path, s: Settings, text: str = BIB) -> dict[str, dict[str, Any]]:
    bib = tmp_path / "refs.bib"
    bib.write_text(text, encoding="utf-8")
    result = await run_audit([str(bib)], s)
    return {r["key"]: r for r in result.verdicts.to_pylist()}


def searches(emu: Emulator) -> int:
    return sum(emu.counts[e] for e in SEARCHES)


async def test_rows_are_found_not_found_or_not_indexed(emu: Emulator, tmp_path: Path) -> None:
    rows = await audit(tmp_path, settings(emu, tmp_path))
    real, fake = rows["real"], rows["fake"]
    assert real["verdict"] == "RESOLVES-AND-MATCHES" and real["queried_by"] == "title"
    # OpenAlex first (it holds only the arXiv version: not confident for a NeurIPS claim), then
    # one slow index settles it; Crossref, fast but not covering NeurIPS, may have been asked.
    assert real["register"] in SLOW and real["searched"][0] == "openalex_search"
    assert len(set(real["searched"]) & SLOW) == 1
    assert real["title_register"] == TITLE and real["tier"] == "live"
    assert fake["verdict"] == "NOT FOUND" and fake["reason"] == "no_index_match"
    # Two covering "no"s: OpenAlex and one slow index; the other slow one is never asked.
    assert fake["searched"][0] == "openalex_search" and len(set(fake["searched"]) & SLOW) == 1
    assert fake["nearest"] and all("[" in n for n in fake["nearest"])
    assert rows["book"]["verdict"] == "NOT COVERED"
    assert rows["book"]["reason"] == "not_indexed_type"
    assert rows["notitle"]["verdict"] == "INVALID"
    # Searched, but a miss before 1950 proves nothing: no finding.
    assert rows["old"]["verdict"] == "NOT COVERED" and rows["old"]["reason"] == "not_indexed_type"
    assert rows["old"]["queried_by"] == "title"
    assert rows["old"]["searched"] == ["crossref_search", "openalex_search"]
    # Each index asked costs one request per row; slow ones only for rows left open.
    assert emu.counts["openalex_search"] == 3
    assert emu.counts["dblp_search"] + emu.counts["s2_match"] == 2
    assert emu.counts["arxiv_search"] == emu.counts["esearch"] == 0


async def test_a_rerun_is_served_from_the_cache(emu: Emulator, tmp_path: Path) -> None:
    s = settings(emu, tmp_path)
    first = await audit(tmp_path, s)
    emu.reset_counts()
    again = await audit(tmp_path, s)
    assert searches(emu) == 0
    assert again["real"]["tier"] == "cache"
    assert {k: v["verdict"] for k, v in again.items()} == {
        k: v["verdict"] for k, v in first.items()
    }


async def test_offline_never_searches_and_a_miss_is_unchecked(
    emu: Emulator, tmp_path: Path
) -> None:
    rows = await audit(tmp_path, settings(emu, tmp_path, offline=True))
    assert searches(emu) == 0
    assert rows["real"]["verdict"] == "UNCHECKED" and rows["real"]["reason"] == "offline"
    assert rows["fake"]["verdict"] == "UNCHECKED"


async def test_a_down_index_is_unchecked_never_not_found(emu: Emulator, tmp_path: Path) -> None:
    emu.config = EmulatorConfig(down={"dblp", "s2", "crossref", "openalex"})
    rows = await audit(tmp_path, settings(emu, tmp_path))
    assert rows["fake"]["verdict"] == "UNCHECKED" and rows["fake"]["reason"] == "http_5xx"
    assert rows["real"]["verdict"] == "UNCHECKED"


async def test_two_covering_noes_make_not_found_though_another_index_is_down(
    emu: Emulator, tmp_path: Path
) -> None:
    emu.config = EmulatorConfig(down={"openalex"})
    rows = await audit(tmp_path, settings(emu, tmp_path))
    assert rows["fake"]["verdict"] == "NOT FOUND"
    assert {"dblp", "s2"} <= set(rows["fake"]["searched"])
    emu.config = EmulatorConfig(down={"openalex", "s2"})
    again = await audit(tmp_path, settings(emu, tmp_path, cache_dir=str(tmp_path / "fresh")))
    # DBLP alone said no (Crossref does not cover NeurIPS venues): not enough for NOT FOUND.
    assert again["fake"]["verdict"] == "UNCHECKED" and again["fake"]["reason"] == "http_5xx"


async def test_exported_snapshot_replays_offline(emu: Emulator, tmp_path: Path) -> None:
    s = settings(emu, tmp_path)
    first = await audit(tmp_path, s)
    cache = RecordCache.open(s.cache_dir, ttl_days=30)
    snap = tmp_path / "snap.parquet"
    write_snapshot(list(cache.rows()), str(snap))
    cache.close()
    emu.reset_counts()
    offline = settings(emu, tmp_path, offline=True, cache_dir=str(tmp_path / "empty"))
    replay = await audit(tmp_path, dataclasses.replace(offline, snapshots=(str(snap),)))
    assert emu.total_requests == 0
    assert replay["real"]["tier"] == "snapshot"
    assert {k: v["verdict"] for k, v in replay.items()} == {
        k: v["verdict"] for k, v in first.items()
    }


async def test_v1_criteria_search_nothing(emu: Emulator, tmp_path: Path) -> None:
    rows = await audit(tmp_path, settings(emu, tmp_path, criteria=CRITERIA_V1))
    assert searches(emu) == 0
    assert rows["real"]["verdict"] == "NOT COVERED" and rows["real"]["reason"] == "no_identifier"


async def test_references_with_identifiers_make_no_search(emu: Emulator, tmp_path: Path) -> None:
    for i in range(500):
        emu.corpus.crossref[f"10.5555/w{i}"] = crossref_message(f"10.5555/w{i}", f"Work {i}")
    entries = "".join(
        f"@article{{r{i}, title = {{Work {i}}}, author = {{A, B}}, year = {{2001}},"
        f" doi = {{10.5555/w{i}}}}}\n"
        for i in range(500)
    )
    rows = await audit(tmp_path, settings(emu, tmp_path, crossref_rate=1000.0), entries)
    assert len(rows) == 500 and searches(emu) == 0


async def test_an_unresolved_doi_says_whether_the_title_exists(
    emu: Emulator, tmp_path: Path
) -> None:
    text = """
@inproceedings{wrongdoi, author = {Vaswani, Ashish}, title = {Attention Is All You Need},
  booktitle = {NeurIPS}, year = {2017}, doi = {10.5555/nope}}
@inproceedings{madeup, author = {Okafor, Chidi}, title = {Zzqx Wvvy Frobnication},
  booktitle = {NeurIPS}, year = {2017}, doi = {10.5555/nope2}}
"""
    bib = tmp_path / "refs.bib"
    bib.write_text(text, encoding="utf-8")
    quiet = await run_audit([str(bib)], settings(emu, tmp_path))
    assert searches(emu) == 0  # by default an identifier that does not resolve is not searched
    assert all(r["searched"] is None for r in quiet.verdicts.to_pylist())
    result = await run_audit([str(bib)], settings(emu, tmp_path, search_unresolved=True))
    rows = {r["key"]: r for r in result.verdicts.to_pylist()}
    items = {r["key"]: r["text"] for r in result.checklist.to_pylist()}
    assert rows["wrongdoi"]["verdict"] == rows["madeup"]["verdict"] == "DOES-NOT-RESOLVE"
    assert rows["wrongdoi"]["nearest"][0].startswith(TITLE)
    assert "A work with this title exists" in items["wrongdoi"]
    assert rows["madeup"]["nearest"] == [] and rows["madeup"]["searched"]
    assert "No index holds a work with this title either" in items["madeup"]


async def test_a_fabricated_paper_typed_misc_is_not_found(emu: Emulator, tmp_path: Path) -> None:
    # a language model's @misc for a paper that does not exist (#25); a @misc web page stays
    text = """
@misc{fakemisc,
  title = {Recursive Attention Graphs for Zero-Shot Protein Folding},
  author = {Okafor, Chidi and Lee, Min}, year = {2022},
}
@misc{realmisc,
  author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need}, year = {2017},
}
@misc{page, title = {Our Lab Homepage and News Items}, author = {Lee, Min}, year = {2020},
  url = {https://example.org/lab}}
"""
    rows = await audit(tmp_path, settings(emu, tmp_path), text)
    assert rows["fakemisc"]["verdict"] == "NOT FOUND"
    assert rows["fakemisc"]["reason"] == "no_index_match"
    assert rows["realmisc"]["verdict"] == "RESOLVES-AND-MATCHES"
    assert rows["page"]["verdict"] == "NOT COVERED" and rows["page"]["reason"] == "not_indexed_type"


async def test_placeholders_and_noise_are_flagged_never_matched(
    emu: Emulator, tmp_path: Path
) -> None:
    # the noise generated entries carry (#25), each on a title the indexes hold
    real = "title = {Attention Is All You Need}, year = {2017}"
    text = f"""
@inproceedings{{ph1, author = {{Firstname Lastname}}, {real}, booktitle = {{NeurIPS}}}}
@inproceedings{{ph2, author = {{John Doe and Jane Smith}}, {real}, booktitle = {{NeurIPS}}}}
@inproceedings{{ph3, author = {{X}}, {real}, booktitle = {{NeurIPS}}}}
@inproceedings{{yr, author = {{Vaswani, Ashish}}, booktitle = {{NeurIPS}}, year = {{2017}},
  title = {{Attention Is All You Need, 2017}}}}
@inproceedings{{bt, author = {{Vaswani, Ashish and Shazeer, Noam}}, {real},
  booktitle = {{Vaswani, A. and Shazeer, N. Attention is all you need. In Advances in Neural
  Information Processing Systems, pages 5998--6008, 2017}}}}
@article{{ax, author = {{Vaswani, Ashish and Shazeer, Noam}}, {real}, journal = {{arXiv}}}}
@article{{axfake, author = {{Okafor, Chidi}}, journal = {{arXiv}}, year = {{2022}},
  title = {{Recursive Attention Graphs for Zero-Shot Protein Folding}}}}
"""
    rows = await audit(tmp_path, settings(emu, tmp_path), text)
    found = {k: (v["verdict"], v["reason"]) for k, v in rows.items()}
    assert found == {
        "ph1": ("RESOLVES-BUT-DIFFERS", "authors_placeholder"),
        "ph2": ("RESOLVES-BUT-DIFFERS", "authors_placeholder"),
        "ph3": ("RESOLVES-BUT-DIFFERS", "authors_placeholder"),
        "yr": ("RESOLVES-BUT-DIFFERS", "title_near_miss"),
        "bt": ("RESOLVES-BUT-DIFFERS", "venue_is_citation"),
        "ax": ("RESOLVES-AND-MATCHES", None),  # a real preprint, found on arXiv
        "axfake": ("NOT FOUND", "no_index_match"),
    }
