"""The same stages on a Dask cluster: `auditor audit --engine dask`.

The references are cut into partitions of `PARTITION_ROWS` rows; each worker runs, on its
partitions, the stage order the single-process path runs (`stages.audit_tables` against the
snapshots: tables in, tables out) and hands back its tables. What spans partitions is then done
once, on the whole run (`stages.join_partitions`): duplicate references (two keys of one work
may sit in different partitions), their checklist items, and the checklist's order. So the
verdicts equal the single-process run's, row for row (`tests/test_cluster.py`).

A cluster run is offline by construction: every worker gets the settings with `offline` set
and no `Net`, so it answers from the snapshots and the cache only and never calls a live
register (their pace is per host and cannot be shared by workers on many machines). The driver
says so on the console.

The scheduler is Dask's own setting, `scheduler-address` (environment variable
`DASK_SCHEDULER_ADDRESS`, or the Dask config file); without one, a local cluster of two worker
processes is started for the run.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.checklist import priority_rank
from auditor.files import atomic_write_parquet
from auditor.load import load_files
from auditor.partitions.totals import RunTotals
from auditor.pipeline import closed_legs, run_info
from auditor.result import AuditResult
from auditor.settings import Settings
from auditor.stages import AuditTables, audit_tables, join_partitions

__all__ = ["OFFLINE_NOTE", "PARTITION_ROWS", "audit_partition", "run_audit_on_dask"]

#: Rows per partition: one task's share of the run.
PARTITION_ROWS = 100_000
#: What the console says about a cluster run.
OFFLINE_NOTE = (
    "cluster run: offline by construction (workers answer from snapshots and the cache; "
    "live registers are never called from workers)"
)


def audit_partition(references: pa.Table, settings: Settings) -> AuditTables:
    """`stages.audit_tables` for one partition, offline, without duplicate groups.

    `references` is a slice of the classified `references` table. The checklist holds every item
    but those of duplicate groups (the driver adds them for the whole run).
    """
    # Never a title worker pool inside a partition: the workers are the parallelism.
    offline = dataclasses.replace(settings, offline=True, title_workers=False)
    return asyncio.run(audit_tables(references, offline, None, duplicates=False))


def _partitions(table: pa.Table, rows: int) -> list[pa.Table]:
    return [table.slice(start, rows) for start in range(0, max(table.num_rows, 1), rows)]


def _distinct_records(records: pa.Table) -> pa.Table:
    """The first record of each `(register, id_type, identifier)` (partitions may repeat one)."""
    key = pc.binary_join_element_wise(
        records["register"], records["id_type"], records["identifier"], "\x1f"
    )
    first = pc.index_in(pc.unique(key), value_set=key)
    return records.take(pc.sort_indices(first))


def _ordered_checklist(checklist: pa.Table) -> pa.Table:
    """Items by priority (P0 first), then input order: Arrow's sort is stable, like Python's."""
    keyed = checklist.append_column("_rank", priority_rank(checklist["priority"]))
    order = pc.sort_indices(keyed, sort_keys=[("_rank", "ascending"), ("row_id", "ascending")])
    return checklist.take(order)


@contextmanager
def _client() -> Iterator[Any]:
    """A Dask client: the configured scheduler, else a local cluster of two worker processes."""
    import dask
    from distributed import Client, LocalCluster

    # Dask logs every scheduler and worker event at INFO on stderr: noise beside our summary.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    address = dask.config.get("scheduler-address", None)
    if address:
        with Client(address) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        yield client


def run_audit_on_dask(
    paths: Sequence[str],
    settings: Settings,
    *,
    input_format: str | None = None,
    csv_map: Mapping[str, str] | None = None,
    partition_rows: int = PARTITION_ROWS,
    client: Any = None,
) -> AuditResult:
    """Audit `paths` with the stages mapped over partitions on Dask; offline by construction.

    `client` is a `distributed.Client` the caller owns; without one, `_client()` opens one.
    Raises only `InputError`/`ConfigError`, like `pipeline.run_audit`.
    """
    started = datetime.now(UTC).isoformat(timespec="seconds")
    settings = dataclasses.replace(settings, offline=True)
    loaded = load_files(
        paths,
        fmt=input_format,
        encoding=settings.encoding,
        csv_map=csv_map,
        closed_legs=closed_legs(settings),
    )
    references = loaded.table
    parts = _partitions(references, partition_rows)
    if client is None:
        with _client() as own:
            results = _map(own, parts, settings)
    else:
        results = _map(client, parts, settings)
    joined = AuditTables(
        records=_distinct_records(pa.concat_tables([r.records for r in results])),
        verdicts=pa.concat_tables([r.verdicts for r in results]),
        checklist=pa.concat_tables([r.checklist for r in results]),
        duplicates=tables.empty(tables.DUPLICATES),
    )
    made = join_partitions(references, joined)
    # Offline by construction: workers never call a live register, so no base URL was used.
    run = run_info(loaded, made.records, settings, started, base_urls={}, offline=True)
    return AuditResult(
        references=references,
        records=made.records,
        verdicts=made.verdicts,
        checklist=_ordered_checklist(made.checklist),
        duplicates=made.duplicates,
        run=run,
    )


def _map(client: Any, parts: list[pa.Table], settings: Settings) -> list[AuditTables]:
    # Scattered first: the partitions travel to the workers as data, not inside the task graph.
    scattered = client.scatter(parts)
    futures = client.map(audit_partition, scattered, settings=settings, pure=False)
    return list(client.gather(futures))


def write_partitions(rows: pa.Table, out_dir: Path, partition_rows: int) -> list[Path]:
    """`out_dir/verdicts/part-NNNNN.parquet`: the report's verdict `rows` (`ReportView.rows`),
    one file per partition."""
    written = []
    for n, part in enumerate(_partitions(rows, partition_rows)):
        written.append(atomic_write_parquet(out_dir / "verdicts" / f"part-{n:05d}.parquet", part))
    return written


@contextmanager
def cluster_client(settings: Settings) -> Iterator[Any]:
    """A Dask client: `settings.scheduler`, else Dask's `scheduler-address` config, else a local
    cluster of `settings.workers` processes (`settings.threads` threads each) on loopback with
    no dashboard (its fixed port collides between runs)."""
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
            dashboard_address=None,
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
) -> RunTotals:
    """`auditor audit --engine dask`: every piece read, audited and written by a worker into
    `out` (`partitions.run.run_partitioned`); live lookups through one service for the cluster
    (`partitions.lookups`) unless `settings.offline`. Returns the run's
    totals; raises `InputError`/`ConfigError`."""
    from auditor.partitions.read import ReadOptions
    from auditor.partitions.run import run_partitioned

    settings = dataclasses.replace(settings, title_workers=False)
    options = ReadOptions(input_format, csv_map, settings.encoding, closed_legs(settings))
    with cluster_client(settings) as client:
        run = run_partitioned(
            paths, settings, out, client, options=options,
            partition_rows=settings.partition_rows, max_findings=max_findings,
        )  # fmt: skip
    return run.totals


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
