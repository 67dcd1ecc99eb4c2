"""A cluster run, driven: plan, then tasks that read, audit and write their own pieces.

The driver reads only file metadata (Parquet footers, file sizes) and small answers (row
counts, two flags per bucket, the number of duplicate groups, each piece's totals); the
references, records and verdicts stay on the workers and in `out`, which every worker must reach
(a local folder for a local cluster; a shared file system on many machines, see
`docs/cluster.md`).

Steps: (1) plan the pieces (`plan.plan_pieces`; bibliography files counted on the workers);
(2) `tasks.read_task` per piece, `prejoin.join_chunk` per snapshot chunk (the snapshot joined
once for the run), then `tasks.stage_piece` per piece; (3) two tasks per value bucket
(`grouping.flag_task`, then `grouping.share_task`: link pairs); (4) one task closing the pairs
into groups (`grouping.component_task`); (5) `tasks.finish_piece` per piece;
(6) `grouping.order_task` per range of groups (`duplicates/`); (7) the totals combined here
(`totals.combine`) and `parts.json` written.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from auditor.files import atomic_write_text
from auditor.partitions import layout
from auditor.partitions.grouping import component_task, flag_task, order_task, share_task
from auditor.partitions.plan import Piece, plan_pieces, with_counts
from auditor.partitions.prejoin import join_chunk, plan_chunks
from auditor.partitions.read import ReadOptions, count_rows
from auditor.partitions.small import read_back
from auditor.partitions.tasks import Staged, finish_piece, read_task, stage_piece
from auditor.partitions.totals import RunTotals, combine, search_use
from auditor.result import AuditResult
from auditor.settings import Settings

__all__ = ["BYTES_PER_ROW", "MANIFEST", "ClusterRun", "run_partitioned"]

#: Bibliography bytes that stand for one row when files are grouped by size (a BibTeX entry
#: is 300–800 bytes): a piece of files is about `partition_rows` entries.
BYTES_PER_ROW = 500
#: Value buckets of the duplicate step: each piece writes up to this many link files, and
#: each bucket task reads one share of all links (a few values a row).
MAX_BUCKETS = 64
#: The dataset manifest inside `--out` (`manifest.json` is the report set's own).
MANIFEST = "parts.json"


@dataclass(frozen=True)
class ClusterRun:
    """What a cluster run hands back to the command: small, whatever the run's size."""

    pieces: tuple[Piece, ...]
    staged: tuple[Staged, ...]
    totals: RunTotals
    out: Path
    result: AuditResult | None = None
    """The whole run read back, for a run of at most `report.LISTED_ROWS` rows (else `None`)."""

    def search_use(self) -> list[dict[str, Any]]:
        """Each title-search index's use, summed over the pieces, as JSON objects."""
        return [dataclasses.asdict(u) for u in search_use([s.search_use for s in self.staged])]


def _manifest(run: ClusterRun) -> str:
    root = run.out
    files = sorted(
        str(p.relative_to(root))
        for folder in ("verdicts", "checklist", "duplicates")
        for p in (root / folder).rglob("part-*.parquet")
    )
    doc = {
        "schema_version": 1,
        "complete": True,
        "pieces": [
            {
                "index": p.index,
                "paths": list(p.paths),
                "row_groups": list(p.row_groups),
                "rows": s.rows,
                "first_row_id": p.offset,
            }
            for p, s in zip(run.pieces, run.staged, strict=True)
        ],  # fmt: skip
        "files": files,
        "totals": run.totals.counts,
        "search_use": run.search_use(),
        "exit_code": run.totals.exit_code,
    }
    return json.dumps(doc, indent=2) + "\n"


def run_partitioned(
    inputs: Sequence[str],
    settings: Settings,
    out: Path,
    client: Any,
    *,
    options: ReadOptions,
    partition_rows: int,
    max_findings: int = 20,
) -> ClusterRun:
    """Audit `inputs` on `client`'s cluster, every piece read and written by its worker.

    Unless `settings.offline`, one `lookups.LookupService` actor asks the live registers for
    every worker (one pace per host, each identifier once). Raises `InputError` (an input that
    names nothing or cannot be read).
    """
    from auditor.partitions.lookups import start_lookups

    out.mkdir(parents=True, exist_ok=True)
    # A run before may have written more pieces: its parts must not pass for this run's.
    for name in ("verdicts", "checklist", "duplicates", layout.STAGING):
        shutil.rmtree(out / name, ignore_errors=True)
    (out / "duplicates.parquet").unlink(missing_ok=True)  # this step's one file before #29
    lookups = None if settings.offline else start_lookups(client, settings)
    try:
        return _run(inputs, settings, out, client, options, partition_rows, max_findings, lookups)
    finally:
        if lookups is not None:
            lookups.close().result()


def _run(
    inputs: Sequence[str],
    settings: Settings,
    out: Path,
    client: Any,
    options: ReadOptions,
    partition_rows: int,
    max_findings: int,
    lookups: Any,
) -> ClusterRun:
    from auditor.report import LISTED_ROWS

    started = datetime.now(UTC).isoformat(timespec="seconds")
    pieces = plan_pieces(inputs, partition_rows, partition_rows * BYTES_PER_ROW)
    if pieces and not pieces[0].is_table:
        pieces = _counted(client, pieces, options, partition_rows * BYTES_PER_ROW)
    buckets = max(1, min(len(pieces), MAX_BUCKETS))
    staged = client.gather(client.map(read_task, pieces, options=options, out=str(out), pure=False))
    # The snapshot joined once, by chunk, for every piece (`prejoin`): not once per piece.
    chunks = plan_chunks(settings.snapshots) if settings.snapshots else []
    client.gather(client.map(join_chunk, chunks, out=str(out), pure=False))
    made = client.gather(
        client.map(
            stage_piece,
            pieces,
            settings=settings,
            out=str(out),
            buckets=buckets,
            lookups=lookups,
            prejoined=bool(chunks),
            pure=False,
        )  # fmt: skip
    )
    staged = [
        dataclasses.replace(s, tiers=t, search_use=u)
        for s, (t, u) in zip(staged, made, strict=True)
    ]
    grouped = _group(client, pieces, out, buckets, partition_rows)
    parts = client.gather(
        client.map(
            finish_piece,
            pieces,
            out=str(out),
            settings=settings,
            max_findings=max_findings,
            grouped=grouped,
            pure=False,
        )  # fmt: skip
    )
    done = grouped.result()  # a count and the group ranges: small
    ranges = list(done.ranges)
    client.gather(client.map(order_task, range(len(ranges)), ranges, out=str(out), pure=False))
    totals = combine(parts, max_findings, done.groups)
    result = None
    if totals.counts["rows"] <= LISTED_ROWS:
        result = read_back(out, staged, settings, started)
    run = ClusterRun(tuple(pieces), tuple(staged), totals, out, result)
    atomic_write_text(out / MANIFEST, _manifest(run))
    shutil.rmtree(out / layout.STAGING, ignore_errors=True)
    return run


def _counted(client: Any, pieces: list[Piece], options: ReadOptions, target: int) -> list[Piece]:
    """Bibliography pieces with their rows: a large BibTeX file cut into ranges
    (`ranges.split_files`), the other pieces counted by loading them on the workers."""
    from auditor.partitions.ranges import split_files

    split = split_files(client, pieces, options, target)
    pieces = [dataclasses.replace(p, index=n) for n, (p, _) in enumerate(split)]
    todo = [p for p, (_, rows) in zip(pieces, split, strict=True) if rows is None]
    counted = iter(client.gather(client.map(count_rows, todo, options=options, pure=False)))
    return with_counts(pieces, [next(counted) if rows is None else rows for _, rows in split])


def _group(client: Any, pieces: Sequence[Piece], out: Path, buckets: int, rows: int) -> Any:
    """The duplicate step up to the groups (`grouping`): the future of its `Grouped`."""
    flags = client.map(flag_task, range(buckets), out=str(out), pure=False)
    shared = client.map(share_task, range(buckets), out=str(out), flags=flags, pure=False)
    spans = [(p.index, p.offset, p.rows or 0) for p in pieces]
    return client.submit(component_task, str(out), spans, rows, shared, pure=False)
