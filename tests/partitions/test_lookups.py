"""Live lookups from a cluster: one service asks the register for every worker, at its pace,
each identifier once (the emulator's log is the witness)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.emulator import Corpus, EmulatorConfig, run_emulator
from auditor.partitions.read import ReadOptions
from auditor.partitions.run import run_partitioned
from auditor.registers import registry

RATE = 4.0  # Crossref requests a second: its throttle's interval is 0.25 s
DOIS = [f"10.5555/cluster.{n}" for n in range(12)]


def _work(doi: str, n: int) -> dict[str, Any]:
    return {
        "DOI": doi,
        "type": "journal-article",
        "title": [f"Cluster work number {n} on shared registers"],
        "author": [{"given": "A.", "family": f"Author{n}", "sequence": "first"}],
        "issued": {"date-parts": [[2020, 1, 1]]},
        "container-title": ["Journal of Examples"],
    }


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        yield client


def _references(folder: Path) -> None:
    # Four pieces, each citing every DOI: the workers ask for the same ids at the same time.
    rows = [
        {"key": f"r{p}-{n}", "doi": doi, "title": f"Cluster work number {n} on shared registers",
         "authors": [f"Author{n}, A."], "year": 2020, "entry_type": "article"}
        for p in range(4) for n, doi in enumerate(DOIS)
    ]  # fmt: skip
    pq.write_table(pa.Table.from_pylist(rows), folder / "refs.parquet", row_group_size=len(DOIS))


def _dois_asked(log: list[Any]) -> Counter[str]:
    asked: Counter[str] = Counter()
    for entry in log:
        text = entry.url + " " + " ".join(entry.params.values())
        asked.update(d.lower() for d in re.findall(r"10\.5555/cluster\.\d+", text, re.I))
    return asked


def test_one_pace_and_one_ask_for_the_whole_cluster(client: Any, tmp_path: Path) -> None:
    corpus = Corpus(crossref={doi: _work(doi, n) for n, doi in enumerate(DOIS)})
    _references(tmp_path)
    with run_emulator(corpus, EmulatorConfig()) as emu:
        base = registry.settings(
            cache_dir=str(tmp_path / "cache"), fail_on=("none",),
            **emu.base_urls,
        )  # fmt: skip
        # One DOI a request: the log shows each ask on its own.
        settings = dataclasses.replace(base, batching=False, registers=_with_rate(base, RATE))
        run = run_partitioned(
            [str(tmp_path / "refs.parquet")], settings, tmp_path / "out", client,
            options=ReadOptions(), partition_rows=len(DOIS),
        )  # fmt: skip
        log = [e for e in emu.log if e.endpoint.startswith("crossref")]
    assert len(run.pieces) == 4
    assert run.totals.counts["by_verdict"]["RESOLVES-AND-MATCHES"] == 4 * len(DOIS)
    asked = _dois_asked(log)
    assert set(asked) == {d.lower() for d in DOIS}
    assert max(asked.values()) == 1  # no identifier asked twice, whichever worker wanted it
    # The register saw no more than its pace: arrivals at least one interval apart, less a
    # loopback jitter allowance (the throttle spaces the starts; nothing here sleeps).
    arrivals = sorted(e.arrived for e in log)
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:], strict=False)]
    assert len(arrivals) == len(DOIS)
    assert min(gaps) >= 0.5 / RATE


def _with_rate(settings: Any, rate: float) -> dict[str, Any]:
    registers = dict(settings.registers)
    registers["crossref"] = dataclasses.replace(registers["crossref"], rate=rate)
    return registers


def test_title_search_use_is_summed_over_the_pieces(client: Any, tmp_path: Path) -> None:
    import asyncio

    from auditor.pipeline import run_audit
    from tests.emulator.search_corpus import TITLE, search_corpus

    # Title-only references, one a piece: each piece searches its own titles.
    rows = [
        {"key": "real", "title": TITLE, "authors": ["Vaswani, Ashish"], "year": 2017,
         "entry_type": "inproceedings", "container": "NeurIPS"},
        {"key": "gan", "title": "Generative Adversarial Nets", "authors": ["Goodfellow, Ian"],
         "year": 2014, "entry_type": "inproceedings", "container": "NeurIPS"},
        {"key": "fake", "title": "Recursive Attention Graphs for Zero-Shot Protein Folding",
         "authors": ["Okafor, Chidi"], "year": 2022, "entry_type": "inproceedings",
         "container": "ICML"},
    ]  # fmt: skip
    refs = tmp_path / "titles.parquet"
    pq.write_table(pa.Table.from_pylist(rows), refs, row_group_size=1)
    with run_emulator(search_corpus(), EmulatorConfig()) as emu:
        fast = {"search_fast_pace": 2000.0, "crossref_rate": 5000.0, "openalex_rate": 5000.0,
                "ncbi_rate": 5000.0, "dblp_rate": 1000.0, "s2_rate": 1000.0,
                "arxiv_rate": 1000.0, "max_retries": 0, "timeout": 2.0}  # fmt: skip
        base = registry.settings(
            cache_dir=str(tmp_path / "one"), fail_on=("none",), **fast, **emu.base_urls
        )
        # Each piece searched on its own in one process (a batch routes its own titles).
        alone = []
        for n, row in enumerate(rows):
            one = tmp_path / f"one-{n}.parquet"
            pq.write_table(pa.Table.from_pylist([row]), one)
            solo = dataclasses.replace(base, cache_dir=str(tmp_path / f"cache-{n}"))
            result = asyncio.run(run_audit([str(one)], solo))
            assert result.run is not None
            alone.append(result.run.search_use)
        spread = dataclasses.replace(base, cache_dir=str(tmp_path / "many"))
        run = run_partitioned(
            [str(refs)], spread, tmp_path / "out", client, options=ReadOptions(),
            partition_rows=1,
        )  # fmt: skip
    assert len(run.pieces) == 3
    want: dict[str, list[int]] = {}
    for uses in alone:
        for u in uses:
            got = want.setdefault(u.index, [0, 0])
            got[0] += u.requests
            got[1] += u.free
    assert sum(r for r, _ in want.values()) >= 3  # the search really asked, piece by piece
    assert run.result is not None and run.result.run is not None
    summed = run.result.run.search_use
    assert {u.index: [u.requests, u.free] for u in summed} == want
    assert [u.index for u in summed] == list(want)  # indexes in first-seen order
    import json

    manifest = json.loads((tmp_path / "out" / "parts.json").read_text())
    assert {u["index"]: [u["requests"], u["free"]] for u in manifest["search_use"]} == want
