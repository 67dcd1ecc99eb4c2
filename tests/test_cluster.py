"""The cluster path (`--engine dask`) gives the single-process run's verdicts, row for row."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest

from auditor.cluster import run_audit_on_dask
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.settings import load_settings

SAMPLES = Path(__file__).resolve().parents[1] / "sample_bibs"
INPUTS = [
    str(SAMPLES / "thesis.bib"),
    str(SAMPLES / "screening.ris"),
    str(SAMPLES / "submissions.csv"),
]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        # The scheduler always serves HTTP (metrics) and would ask for port 8787; another
        # cluster on the machine then draws a warning (an error here): any free loopback port.
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            dashboard_address="127.0.0.1:0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_two_workers_give_the_single_process_verdicts_row_for_row(
    client: Any, tmp_path: Path
) -> None:
    settings = load_settings({}, inputs=INPUTS, registers=registry.settings_defaults())
    settings = dataclasses.replace(settings, offline=True, cache_dir=str(tmp_path / "cache"))
    single = asyncio.run(run_audit(INPUTS, settings))
    # Partitions of 7 rows: duplicate groups and the checklist order cross partitions.
    spread = run_audit_on_dask(INPUTS, settings, partition_rows=7, client=client)
    assert single.verdicts.num_rows > 14  # several partitions
    assert spread.verdicts.to_pylist() == single.verdicts.to_pylist()
    assert spread.checklist.to_pylist() == single.checklist.to_pylist()
    assert spread.duplicates.to_pylist() == single.duplicates.to_pylist()
    assert spread.run is not None and spread.run.offline
    assert spread.duplicates.num_rows and spread.checklist.num_rows  # both really compared
