"""The stages on a Dask cluster: `auditor audit --engine dask`.

Workers read, audit and write their own pieces (`auditor.partitions`): the driver plans from
file metadata, gathers only totals, and never holds the references. What spans pieces
(duplicate groups, the checklist's order) is a distributed step; live registers are asked
through one lookup service for the whole cluster, at one pace per host
(`partitions.lookups`), and `--offline` asks none. See `docs/cluster.md`.

The cluster is `settings.scheduler` (`--scheduler`, `AUDITOR_SCHEDULER`), else Dask's own
`scheduler-address` config (`DASK_SCHEDULER_ADDRESS`), else a local cluster of
`settings.workers` processes of `settings.threads` threads, started for the run.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from auditor.partitions.run import ClusterRun
from auditor.partitions.totals import RunTotals
from auditor.pipeline import closed_legs
from auditor.settings import Settings

__all__ = ["audit_on_cluster", "cluster_client", "print_totals"]


@contextmanager
def cluster_client(settings: Settings) -> Iterator[Any]:
    """A Dask client: `settings.scheduler`, else Dask's `scheduler-address` config, else a local
    cluster of `settings.workers` processes (`settings.threads` threads each) on loopback with
    its HTTP server on any free loopback port (8787 collides between runs)."""
    import dask
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.WARNING)
    address = settings.scheduler or dask.config.get("scheduler-address", None)
    if address:
        with Client(address) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=settings.workers,
            threads_per_worker=settings.threads,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            # Arrow on the system allocator, which hands freed memory back (the nanny sets
            # `MALLOC_TRIM_THRESHOLD_`): with mimalloc a piece's peak was 25-35% higher and the
            # RSS stayed up between tasks (`benchmarks/RESULTS.md`, cluster).
            env={"ARROW_DEFAULT_MEMORY_POOL": "system"},
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        yield client


def audit_on_cluster(
    paths: Sequence[str],
    settings: Settings,
    out: Path,
    *,
    input_format: str | None = None,
    csv_map: Mapping[str, str] | None = None,
    max_findings: int = 20,
) -> ClusterRun:
    """`auditor audit --engine dask`: every piece read, audited and written by a worker into
    `out` (`partitions.run.run_partitioned`); live lookups through one service for the cluster
    (`partitions.lookups`) unless `settings.offline`. Returns the run (its totals; the whole
    result when it is small); raises `InputError`/`ConfigError`."""
    from auditor.partitions.read import ReadOptions
    from auditor.partitions.run import run_partitioned

    settings = dataclasses.replace(settings, title_workers=False)
    options = ReadOptions(
        input_format, csv_map, settings.encoding, closed_legs(settings), settings.criteria
    )
    with cluster_client(settings) as client:
        run = run_partitioned(
            paths, settings, out, client, options=options,
            partition_rows=settings.partition_rows, max_findings=max_findings,
        )  # fmt: skip
    return run


def print_totals(totals: RunTotals, out: Path, err: Any, stdout: Any) -> None:
    """The cluster run's summary on `err`, its worst findings on `stdout` (escaped)."""
    from auditor.report.findings import safe_text

    verdicts = ", ".join(f"{k} {v}" for k, v in totals.counts["by_verdict"].items() if v)
    err.print(f"{totals.counts['rows']} rows: {verdicts}", markup=False, highlight=False)
    for f in totals.findings:
        where = f"{f.path}:{f.line}" if f.line is not None else f.path
        stdout.print(
            f"{safe_text(where)}  {safe_text(f.key)}  {f.verdict}  {safe_text(f.reason)}",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
    if totals.more:
        stdout.print(f"… {totals.more} more in {safe_text(out / 'verdicts')}", markup=False)
