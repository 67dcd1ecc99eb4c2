"""The Chinese-literature waterfall stage: gate → triage → ISTIC / CNKI / coordinates → outcomes.

Work goes in phases over the distinct identifiers of all gated rows at once (never per row):
agency triage of the cited DOIs' prefixes, the PubMed coordinate branch of the DOI-less rows, triage
of the candidates' DOIs, CSL content negotiation for every distinct ISTIC DOI, then the Handle probe
for CNKI DOIs and CSL 404s. A failure to look marks only the rows that depended on it `UNCHECKED`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from auditor import tables
from auditor.chinese.bridge import load_bridge
from auditor.chinese.coordinates_branch import coordinate_rows
from auditor.chinese.doi_branch import doi_rows
from auditor.chinese.gate import gate
from auditor.chinese.outcomes import OUTCOMES, RowOutcome, outcome_row
from auditor.chinese.report import build_items, outcome_patch
from auditor.chinese.steps import Run, known_facts
from auditor.errors import Reason
from auditor.patches import empty_patch, merge
from auditor.settings import Settings

if TYPE_CHECKING:
    from auditor.transport.net import Net

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WaterfallResult:
    """What the stage hands back to the pipeline."""

    verdicts: pa.Table
    """VERDICTS: the gated rows updated to their outcome's verdict, other rows untouched."""
    items: pa.Table
    """CHECKLIST rows for the gated rows' applicable non-matched outcomes."""
    outcomes: pa.Table
    """`outcomes.OUTCOMES`: one row per gated row."""
    requests: tuple[str, ...] = ()
    """Every distinct question asked of a register (`kind key`), in order (for budgets)."""
    patch: pa.Table = field(default_factory=empty_patch)
    """The verdict patch (`auditor.patches`) that made `verdicts` from the verdicts given."""


def _outcome_for(
    ref: dict[str, Any], known_agencies: Mapping[int, str] | None
) -> tuple[dict[str, Any], RowOutcome]:
    """The gated reference `ref` with its undecided outcome: its cited DOI (the DOI branch)
    or none (the coordinate branch), and an agency the caller already knows."""
    doi = ref.get("doi") or (ref.get("identifier") if ref.get("id_type") == "doi" else None)
    out = RowOutcome(row_id=ref["row_id"], doi=doi)
    if known_agencies and ref["row_id"] in known_agencies:
        out.agency = known_agencies[ref["row_id"]]
    return ref, out


async def run_waterfall(
    references: pa.Table,
    verdicts: pa.Table,
    records: pa.Table,
    settings: Settings,
    net: Net | None,
    *,
    known_agencies: Mapping[int, str] | None = None,
) -> WaterfallResult:
    """Run the waterfall over the rows the Stage 0 gate admits; zero requests for the others.

    `net` is the run's transport (`auditor.transport.net.Net`); with `net=None` (or offline
    settings) any row that needs a request becomes `UNCHECKED` (`offline`). `known_agencies`
    maps `row_id` to an agency the caller already established: it admits a romanized row with a
    Chinese agency through the gate and spares its doiRA request. Before any CSL request the
    snapshot's `istic` rows, then `net.cache` (unless `settings.refresh`), are consulted; a live
    definitive CSL answer is cached. Raises only `ConfigError` (a bad `journal_map` file) and
    `InputError` (an unreadable snapshot, which the resolve stage reports first).
    """
    # `chinese_waterfall` off: the stage admits no row (the reference-check contract's rule).
    mask = gate(references, known_agencies)
    gated = references.filter(mask).to_pylist() if settings.chinese_waterfall else []
    if not gated:
        return WaterfallResult(verdicts, tables.empty(tables.CHECKLIST), tables.empty(OUTCOMES))
    bridge = load_bridge(settings.journal_map)
    known = known_facts(records)
    cache = net.cache if net is not None else None
    run = Run(settings, net, bridge, known, cache=cache)
    outcomes = [_outcome_for(ref, known_agencies) for ref in gated]
    with_doi = [(ref, out) for ref, out in outcomes if out.doi]
    coord_rows = [(ref, out) for ref, out in outcomes if not out.doi]
    if with_doi and not settings.doi_leg:
        for _, out in with_doi:
            out.give_up(Reason.LEG_CLOSED.value, "the DOI leg is closed")
    # The branches pace on independent throttles (doi.org/Handle vs NCBI): run them side by side.
    with net.retry_batch() if net is not None else nullcontext():  # one budget a host
        await asyncio.gather(
            doi_rows(run, with_doi, known.agencies), coordinate_rows(run, coord_rows)
        )
    table = pa.Table.from_pylist(
        [outcome_row(out, ref.get("key")) for ref, out in outcomes], schema=OUTCOMES
    )
    # Offline, nothing was sent (a refused question is still listed), so nothing is live.
    sent = bool(run.asked) and run.online
    as_of = datetime.now(UTC).isoformat(timespec="seconds") if sent else None
    patch = outcome_patch(verdicts, records, outcomes, as_of)
    new_verdicts = merge(verdicts, patch)
    items = build_items(outcomes, new_verdicts)
    return WaterfallResult(new_verdicts, items, table, tuple(run.asked), patch)
