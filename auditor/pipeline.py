"""An audit of files: load (classified inside), then `stages.audit_tables`, then the run's info.

The stage order itself is `auditor.stages.audit_tables`; this module loads the inputs, opens the
run's one `Net` (unless the caller gives its own) and hands back an `AuditResult`, from which the
caller writes the reports.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from contextvars import copy_context
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from auditor import __version__
from auditor.load import LoadOutcome, load_files
from auditor.memory import map_large_blocks
from auditor.registers import registry
from auditor.result import AuditResult, LoadProblem, RunInfo, SearchUse
from auditor.settings import Settings

if TYPE_CHECKING:
    from auditor.transport.net import Net

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
    search_use: tuple[SearchUse, ...] = (),
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
        search_use=search_use,
    )


def closed_legs(settings: Settings) -> frozenset[str]:
    """The identifier types whose leg the settings close (criteria D1 rule)."""
    legs = {"doi": settings.doi_leg, "pmid": settings.pmid_leg, "arxiv": settings.arxiv_leg}
    return frozenset(name for name, is_open in legs.items() if not is_open)


@asynccontextmanager
async def _net_for(
    settings: Settings, net: Net | None, progress: Progress | None
) -> AsyncIterator[Net]:
    if net is not None:
        yield net
        return
    from auditor.transport.net import open_net  # aiohttp: imported with the stages, above

    hosts = registry.hosts()
    if settings.grobid_url:
        from auditor.grobid import with_grobid

        hosts = with_grobid(settings, hosts)
    async with open_net(settings, hosts, progress=progress) as own:
        yield own


async def run_audit(
    paths: Sequence[str],
    settings: Settings,
    *,
    input_format: str | None = None,
    csv_map: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    net: Net | None = None,
    within: Path | None = None,
) -> AuditResult:
    """Audit `paths` end to end and return every table; raises only `InputError`/`ConfigError`.

    `net` is a `Net` the caller owns (the server's, shared by every request); without one, the
    run opens its own. `within` is a folder no manuscript may read outside (`load_files`).
    """
    from auditor.load.documents.limits import limits_from

    started = _now()
    map_large_blocks()  # a large run's NumPy temporaries freed to the system, not the heap
    async with AsyncExitStack() as stack:
        grobid = None
        if settings.grobid_url:
            # GROBID is asked through the run's one `Net`, so it opens before the inputs load.
            from auditor.grobid import ask_about_pdfs

            net = await stack.enter_async_context(_net_for(settings, net, progress))
            grobid = await ask_about_pdfs(paths, input_format, net)
        # Parsing is the longest stage without a network wait: in a worker thread, a server's
        # event loop (`auditor serve` runs audits of uploads) keeps answering while a file
        # loads. Classified once, inside the load stage, with the legs the settings close.
        read = partial(
            load_files,
            paths,
            fmt=input_format,
            encoding=settings.encoding,
            csv_map=csv_map,
            closed_legs=closed_legs(settings),
            grobid=grobid,
            criteria=settings.criteria,
            within=within,
            limits=limits_from(settings),
        )
        # Submitted now (`asyncio.to_thread` would start it at the first await, after the
        # imports below), in a copy of this context as `to_thread` runs it.
        loop = asyncio.get_running_loop()
        loading = loop.run_in_executor(None, partial(copy_context().run, read))
        # The later stages' modules (half a second of imports on a small machine, aiohttp among
        # them) are imported while the inputs load: the loader's kernels let go of the lock.
        from auditor.stages import audit_tables

        loaded = await loading
        references = loaded.table
        if grobid is None:
            net = await stack.enter_async_context(_net_for(settings, net, progress))
        assert net is not None
        made = await audit_tables(references, settings, net)
    base_urls = {r.name: r.host.base_url(settings) for r in registry.REGISTERS}
    run = run_info(
        loaded, made.records, settings, started, base_urls=base_urls, search_use=made.search_use
    )
    return AuditResult(
        references=references,
        records=made.records,
        verdicts=made.verdicts,
        checklist=made.checklist,
        duplicates=made.duplicates,
        run=run,
    )
