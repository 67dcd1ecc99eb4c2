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
DOIS = [f"10.5555/cluster.{n}" for n in range(24)]


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
