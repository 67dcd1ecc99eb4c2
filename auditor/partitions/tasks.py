"""The tasks a worker runs on its own piece: audit and stage it, then finish it into outputs.

`stage_piece` reads the piece (`read.read_piece`), runs the one stage order on it
(`stages.audit_tables`, without duplicate groups: they span pieces), and writes its tables and
its links by bucket into the staging folder. `finish_piece`, after the duplicate step, applies
what spans pieces to its rows (group ids, duplicate items, the record another piece found for an
unasked row), writes `verdicts/part-N.parquet` and `checklist/<priority>/part-N.parquet`, and
returns the piece's totals. Each task holds one piece; nothing but totals goes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.checklist import priority_rank
from auditor.checklist.priority import PRIORITY_ORDER
from auditor.partitions import layout, prejoin
from auditor.partitions.dupes import bucket_links
from auditor.partitions.plan import Piece
from auditor.partitions.read import ReadOptions, read_piece
from auditor.partitions.totals import PieceTotals, piece_totals
from auditor.result import AuditResult
from auditor.settings import Settings

__all__ = ["finish_piece", "ordered_checklist", "read_task", "stage_piece"]


@dataclasses.dataclass(frozen=True)
class Staged:
    """What `stage_piece` hands back: small, whatever the piece's size."""

    index: int
    rows: int
    inputs: tuple[Any, ...]
    """`InputFile`s of the piece (a table's digest only from its first piece)."""
    problems: tuple[Any, ...]
    """`Problem`s the loaders reported."""
    tiers: tuple[str, ...]
    search_use: tuple[Any, ...] = ()
    """`SearchUse`s of the piece's title search (`totals.search_use` sums them)."""


def _audit(
    references: pa.Table, settings: Settings, lookups: Any, found: Sequence[str] | None = None
) -> Any:
    """The stages on one piece; `found` are its snapshot hits joined beforehand (`prejoin`),
    or `None` to join the snapshot here."""
    from auditor.stages import audit_tables
    from auditor.transport.snapshot import prejoined

    # Never a title-worker pool inside a worker: the workers are the parallelism (#29 item 5).
    settings = dataclasses.replace(settings, title_workers=False)

    async def run() -> Any:
        if lookups is None:
            offline = dataclasses.replace(settings, offline=True)
            return await audit_tables(references, offline, None, duplicates=False)
        from auditor.partitions.lookups import remote_net

        async with remote_net(settings, lookups) as net:
            return await audit_tables(references, settings, net, duplicates=False)

    scope = prejoined(found) if found is not None else contextlib.nullcontext()
    with scope:
        return asyncio.run(run())


def read_task(piece: Piece, options: ReadOptions, out: str) -> Staged:
    """Read `piece` (`read.read_piece`) and stage its references and its distinct keys for the
    run's snapshot join (`prejoin.write_keys`); `tiers` stay empty until `stage_piece`."""
    root = Path(out)
    loaded = read_piece(piece, options)
    layout.write_part(layout.staged(root, "refs", piece.index), loaded.table)
    prejoin.write_keys(root, piece.index, loaded.table)
    return Staged(piece.index, loaded.table.num_rows, loaded.inputs, loaded.problems, ())


def stage_piece(
    piece: Piece,
    settings: Settings,
    out: str,
    buckets: int,
    lookups: Any = None,
    prejoined: bool = False,
) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """Audit `piece`'s staged references and stage its tables and links; returns the tiers
    that answered and the `SearchUse`s of its title search. `lookups` is the cluster's lookup
    service (`lookups.LookupService` actor), or `None` for an offline run; `prejoined`: the
    snapshot was joined for the whole run (`prejoin.join_chunk`), so the piece reads its own
    hits only."""
    root = Path(out)
    refs = layout.read_part(layout.staged(root, "refs", piece.index))
    found = prejoin.found_files(root, piece.index) if prejoined else None
    made = _audit(refs, settings, lookups, found)
    for kind, table in (
        ("records", made.records),
        ("verdicts", made.verdicts),
        ("checklist", made.checklist),
    ):
        layout.write_part(layout.staged(root, kind, piece.index), table)
    for bucket, links in enumerate(bucket_links(refs, made.records, buckets)):
        if links.num_rows:
            layout.write_part(layout.bucket_path(root, bucket, piece.index), links)
    tiers = tuple(sorted(set(made.records["tier"].drop_null().to_pylist())))
    return tiers, tuple(made.search_use)


def ordered_checklist(checklist: pa.Table) -> pa.Table:
    """Items by priority (P0 first), then input order: Arrow's sort is stable, like Python's."""
    keyed = checklist.append_column("_rank", priority_rank(checklist["priority"]))
    order = pc.sort_indices(keyed, sort_keys=[("_rank", "ascending"), ("row_id", "ascending")])
    return checklist.take(order)


def _unasked(out: Path, verdicts: pa.Table) -> tuple[pa.Table, pa.Table]:
    """`(record_key patch, records it names)` for rows with an identifier that name no record:
    the record another piece found, looked up in every piece's staged records (few rows)."""
    import pyarrow.dataset as ds

    from auditor.patches import empty_patch, relied_on

    open_ = pc.and_(pc.is_null(verdicts["record_key"]), pc.is_valid(verdicts["identifier"]))
    rows = verdicts.filter(open_)
    if rows.num_rows == 0:
        return empty_patch(), tables.empty(tables.RECORDS)
    folder = out / layout.STAGING / "records"
    wanted = pc.unique(rows["identifier"])
    found = ds.dataset(sorted(str(p) for p in folder.glob("part-*.parquet")), format="parquet")
    records = found.to_table(filter=pc.field("identifier").isin(wanted))
    named = pa.table({"row_id": rows["row_id"], "record_key": relied_on(records, rows)})
    return named.filter(pc.is_valid(named["record_key"])), records


def _split_by_priority(root: Path, index: int, checklist: pa.Table) -> None:
    for name in (*PRIORITY_ORDER, layout.OTHER_PRIORITY):
        if name == layout.OTHER_PRIORITY:
            mine = checklist.filter(
                pc.invert(
                    pc.fill_null(pc.is_in(checklist["priority"], pa.array(PRIORITY_ORDER)), False)
                )
            )
        else:
            mine = checklist.filter(pc.fill_null(pc.equal(checklist["priority"], name), False))
        if mine.num_rows:
            layout.write_part(root / "checklist" / name / layout.part_name(index), mine)


def finish_piece(
    piece: Piece, out: str, settings: Settings, max_findings: int, grouped: Any = None
) -> PieceTotals:
    """Apply what spans pieces to `piece`'s staged rows, write its outputs, return its totals.

    `grouped` is the duplicate step's `grouping.Grouped` (passed so the task runs after it);
    the piece's groups are read from the staging folder (`grouping.piece_groups`).
    """
    from auditor.partitions.grouping import piece_groups
    from auditor.patches import merge
    from auditor.report.view import build_view
    from auditor.stages import group_patch

    root = Path(out)
    refs = layout.read_part(layout.staged(root, "refs", piece.index))
    records = layout.read_part(layout.staged(root, "records", piece.index))
    verdicts = layout.read_part(layout.staged(root, "verdicts", piece.index))
    checklist = layout.read_part(layout.staged(root, "checklist", piece.index))
    mine, items = piece_groups(out, piece.index, refs)
    patch, others = _unasked(root, verdicts)
    verdicts = merge(verdicts, patch, group_patch(mine))
    checklist = ordered_checklist(pa.concat_tables([checklist, items]))
    result = AuditResult(refs, _with(records, others), verdicts, checklist, mine)
    view = build_view(result)
    layout.write_part(root / "verdicts" / layout.part_name(piece.index), view.rows)
    # Kept until the run ends: a small run is read back whole for its report set (`small`).
    layout.write_part(layout.staged(root, "final", piece.index), verdicts)
    layout.write_part(layout.staged(root, "final_checklist", piece.index), checklist)
    _split_by_priority(root, piece.index, checklist)
    return piece_totals(result, view, settings, max_findings)


def _with(records: pa.Table, others: pa.Table) -> pa.Table:
    """`records` and the first of each record of `others` it lacks (by `record_key`)."""
    from auditor.patches import record_keys

    if others.num_rows == 0:
        return records
    own = record_keys(records["register"], records["id_type"], records["identifier"])
    keys = record_keys(others["register"], others["id_type"], others["identifier"])
    new = others.filter(pc.invert(pc.fill_null(pc.is_in(keys, value_set=own), False)))
    new_keys = record_keys(new["register"], new["id_type"], new["identifier"])
    first = pc.index_in(pc.unique(new_keys), value_set=new_keys)
    return pa.concat_tables(
        [records, new.take(first).select(records.column_names).cast(records.schema)]
    )
