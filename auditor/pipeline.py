"""The stage order of an audit: the only place where the stages meet.

load → classify → resolve → compare → chinese waterfall → overlap → checklist. Each stage maps
tables to tables; only resolve and the waterfall are async and talk to registers, through one
`Net` opened here. Reports are written by the caller from the returned `AuditResult`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.compute as pc

from auditor import __version__, tables
from auditor.checklist import build_checklist, duplicate_items
from auditor.chinese.waterfall import run_waterfall
from auditor.compare import compare
from auditor.load import LoadOutcome, load_files
from auditor.overlap.duplicates import find_duplicates
from auditor.registers import registry
from auditor.resolve import resolve
from auditor.result import AuditResult, LoadProblem, RunInfo
from auditor.search import title_search
from auditor.settings import Settings
from auditor.transport.net import Net, open_net

Progress = Callable[[str, int, int], None]
"""`progress(register, done, total)`: stages report, the console draws."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def run_info(
    loaded: LoadOutcome,
    records: pa.Table,
    settings: Settings,
    started: str,
    *,
    base_urls: dict[str, str],
    offline: bool | None = None,
) -> RunInfo:
    """The run's metadata for the reports, ended now (`offline` defaults to the setting)."""
    tiers = sorted(set(records["tier"].drop_null().to_pylist())) if records.num_rows else []
    return RunInfo(
        tool_version=__version__,
        started_at=started,
        finished_at=_now(),
        inputs=loaded.inputs,
        base_urls=base_urls,
        tiers_used=tuple(tiers),
        offline=settings.offline if offline is None else offline,
        criteria_id=settings.criteria,
        load_problems=tuple(
            LoadProblem(p.path, p.line, p.message, p.severity) for p in loaded.problems
        ),
    )


def closed_legs(settings: Settings) -> frozenset[str]:
    """The identifier types whose leg the settings close (criteria D1 rule)."""
    legs = {"doi": settings.doi_leg, "pmid": settings.pmid_leg, "arxiv": settings.arxiv_leg}
    return frozenset(name for name, is_open in legs.items() if not is_open)


def attach_groups(verdicts: pa.Table, duplicates: pa.Table) -> pa.Table:
    """Fill `group_id` on verdict rows that belong to a duplicate group."""
    if duplicates.num_rows == 0:
        return verdicts
    members = duplicates.group_by("row_id").aggregate([("group_id", "min")])
    index = pc.index_in(verdicts["row_id"], value_set=members["row_id"])
    group = pc.take(members["group_id_min"], index).cast(pa.int32())
    column = verdicts.schema.get_field_index("group_id")
    return verdicts.set_column(column, tables.VERDICTS.field("group_id"), group)


@asynccontextmanager
async def _net_for(
    settings: Settings, net: Net | None, progress: Progress | None
) -> AsyncIterator[Net]:
    if net is not None:
        yield net
        return
    async with open_net(settings, registry.hosts(), progress=progress) as own:
        yield own


async def run_audit(
    paths: Sequence[str],
    settings: Settings,
    *,
    input_format: str | None = None,
    csv_map: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    net: Net | None = None,
) -> AuditResult:
    """Audit `paths` end to end and return every table; raises only `InputError`/`ConfigError`.

    `net` is a `Net` the caller owns (the server's, shared by every request); without one, the
    run opens its own.
    """
    started = _now()
    # Parsing is the longest stage without a network wait: in a worker thread, a server's event
    # loop (`auditor serve` runs audits of uploads) keeps answering while a file loads.
    # Classified once, inside the load stage, with the legs the settings close.
    loaded = await asyncio.to_thread(
        load_files,
        paths,
        fmt=input_format,
        encoding=settings.encoding,
        csv_map=csv_map,
        closed_legs=closed_legs(settings),
    )
    references = loaded.table
    async with _net_for(settings, net, progress) as net:
        records = await resolve(references, settings, net)
        # Duplicates need only the references and their records: found in a thread (NumPy
        # sorts, which let go of the GIL) while the compare stage runs; again below only when
        # the title search adds records.
        early = asyncio.get_running_loop().run_in_executor(
            None, find_duplicates, references, records
        )
        verdicts = compare(
            references, records, settings.criteria, title_workers=settings.title_workers
        )
        waterfall = await run_waterfall(references, verdicts, records, settings, net)
        searched = await title_search(
            references, waterfall.verdicts, settings, net, settings.criteria
        )
    duplicates = await early
    if searched.records.num_rows:
        records = pa.concat_tables([records, searched.records])
        duplicates = find_duplicates(references, records)
    verdicts = attach_groups(searched.verdicts, duplicates)
    extra = pa.concat_tables([waterfall.items, duplicate_items(duplicates, references)])
    checklist = build_checklist(references, verdicts, extra=extra)
    base_urls = {r.name: r.host.base_url(settings) for r in registry.REGISTERS}
    run = run_info(loaded, records, settings, started, base_urls=base_urls)
    return AuditResult(
        references=references,
        records=records,
        verdicts=verdicts,
        checklist=checklist,
        duplicates=duplicates,
        run=run,
    )
