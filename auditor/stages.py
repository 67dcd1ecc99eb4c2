"""The stage order of an audit, written once: resolve → compare → waterfall → search → checklist.

`audit_tables` maps a classified `references` table to the run's other tables. Every caller runs
the stages through it: `pipeline.run_audit` (and so `auditor serve`'s uploads), each piece of a
Dask run (`partitions.tasks`, with `duplicates=False`: duplicate groups span pieces, so the
cluster finds them in a distributed step of its own, `partitions.dupes`),
`auditor check` (`auditor.single.check_tables`) and `auditor serve`'s `/check` and `/precheck`
(`auditor.serve.stages.compare_many`, on records its shared lookups resolved, with the settings
the reference-check contract fixes: no waterfall, no title search).

compare writes each verdict; the waterfall, the title search and the duplicate groups each
return a patch of the rows they decide, and one `patches.merge` applies them in stage order.

Only resolve, the waterfall and the title search wait on registers; the CPU stages (compare,
the duplicate search, the checklist) run in `asyncio.to_thread`, so a server's event loop keeps
answering while they work.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pyarrow as pa

from auditor import tables
from auditor.checklist import build_checklist, duplicate_items
from auditor.chinese.waterfall import run_waterfall
from auditor.compare import compare
from auditor.memory import give_back
from auditor.overlap.duplicates import find_duplicates
from auditor.patches import empty_patch, merge
from auditor.resolve import resolve
from auditor.result import SearchUse
from auditor.search import title_search
from auditor.settings import Settings
from auditor.transport.net import Net
from auditor.unreadable import unreadable_patch

__all__ = ["AuditTables", "audit_tables", "compare_in_thread", "group_patch"]


@dataclass(frozen=True)
class AuditTables:
    """The tables the stages make from one `references` table."""

    records: pa.Table
    """`RECORDS`: what resolve found, then the title search's chosen candidates."""
    verdicts: pa.Table
    """`VERDICTS`, one row per reference in input order (`group_id` filled when duplicates)."""
    checklist: pa.Table
    """`CHECKLIST`, sorted by priority then input order."""
    duplicates: pa.Table
    """`DUPLICATES` (empty when the caller asked for none)."""
    search_use: tuple[SearchUse, ...] = ()
    """What each title-search index cost (`SearchResult.use`)."""


def group_patch(duplicates: pa.Table) -> pa.Table:
    """The verdict patch (`auditor.patches`) setting `group_id` on the rows of a duplicate
    group (a row in two groups takes the lower id)."""
    if duplicates.num_rows == 0:
        return empty_patch()
    members = duplicates.group_by("row_id").aggregate([("group_id", "min")])
    return pa.table(
        {"row_id": members["row_id"], "group_id": members["group_id_min"].cast(pa.int32())}
    )


async def compare_in_thread(
    references: pa.Table, records: pa.Table, criteria: str, *, title_workers: bool = False
) -> pa.Table:
    """`compare.compare` in a worker thread (whole columns; the event loop stays free), with
    the memory that loading, the snapshot join and then compare itself freed given back."""
    give_back()
    verdicts = await asyncio.to_thread(
        compare, references, records, criteria, title_workers=title_workers
    )
    give_back()
    return verdicts


async def audit_tables(
    references: pa.Table,
    settings: Settings,
    net: Net | None,
    *,
    duplicates: bool = True,
    records: pa.Table | None = None,
) -> AuditTables:
    """Run every stage after load on the classified `references`; raises only
    `InputError`/`ConfigError` (failures of registers are rows).

    `net=None` answers from snapshots and the cache only. With `duplicates=False` (one partition
    of a larger run) no duplicate groups are searched: `duplicates` is empty, `group_id` null and
    the checklist has no duplicate items (the cluster's `partitions.dupes` adds them for the run).
    `records` given is the resolve stage's answer already made (the server's shared lookups,
    `auditor check --record`): resolve is not run again.
    """
    if records is None:
        records = await resolve(references, settings, net)
    # Duplicates need only the references and their records: found in a thread beside compare
    # (NumPy sorts let go of the GIL); again below only when the title search adds records.
    early = (
        asyncio.ensure_future(asyncio.to_thread(find_duplicates, references, records))
        if duplicates
        else None
    )
    try:
        base = await compare_in_thread(
            references, records, settings.criteria, title_workers=settings.title_workers
        )
        waterfall = await run_waterfall(references, base, records, settings, net)
        searched = await title_search(
            references, waterfall.verdicts, settings, net, settings.criteria
        )
    except BaseException:
        if early is not None:
            early.cancel()
        raise
    found = tables.empty(tables.DUPLICATES) if early is None else await early
    if searched.records.num_rows:
        records = pa.concat_tables([records, searched.records])
        if duplicates:
            found = await asyncio.to_thread(find_duplicates, references, records)
    # Each verdict written once: compare's, then each later stage's, in order (`unreadable`: #35)
    decided = merge(base, waterfall.patch, searched.patch)
    verdicts = merge(decided, unreadable_patch(references, decided), group_patch(found))
    extra = waterfall.items
    if duplicates:
        extra = pa.concat_tables([extra, duplicate_items(found, references)])
    checklist = await asyncio.to_thread(build_checklist, references, verdicts, extra=extra)
    return AuditTables(records, verdicts, checklist, found, searched.use)
