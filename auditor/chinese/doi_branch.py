"""Stage 1 of the waterfall for rows with a DOI: agency triage, then ISTIC content negotiation
(title check) or the CNKI Handle probe; a CSL 404 also goes to the Handle probe. An agency outside
ISTIC/CNKI is out of scope and a DOI without an agency stays unresolved: neither ever falls back to
DOI-less coordinates."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from auditor.chinese import istic, triage
from auditor.chinese.outcomes import Outcome, RowOutcome
from auditor.chinese.steps import Run, fail
from auditor.errors import RegisterError

#: A gated row with its cited DOI (known to be of DOI form).
Cited = tuple[dict[str, Any], RowOutcome, str]

_BY_CHECK = {
    istic.TitleCheck.MATCH: Outcome.DOI_TITLE_VERIFIED,
    istic.TitleCheck.MISMATCH: Outcome.DOI_TITLE_MISMATCH,
    istic.TitleCheck.UNVERIFIABLE: Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE,
}


def _well_formed(rows: list[tuple[dict[str, Any], RowOutcome]]) -> list[Cited]:
    """Rows whose DOI may be asked about; the others are decided without a request."""
    cited: list[Cited] = []
    for ref, out in rows:
        if out.doi is not None and triage.is_doi(out.doi):
            cited.append((ref, out, out.doi))
        else:
            out.attempts.append("no request: the DOI field is not a DOI")
            out.decide(Outcome.DOI_RA_UNRESOLVED)
    return cited


async def _route(run: Run, cited: list[Cited], preset: Mapping[str, str]) -> list[Cited]:
    """Establish every open row's agency (known, from resolve, or by batched doiRA).

    Agencies register whole prefixes, so one DOI the resolve stage placed answers for its prefix.
    """
    for known_doi, agency in preset.items():
        if triage.is_doi(known_doi):
            run.agency.setdefault(triage.prefix_of(known_doi), agency)
    for _, out, doi in cited:
        if out.agency:
            run.agency.setdefault(triage.prefix_of(doi), out.agency)
        elif doi.lower() in preset:
            out.agency = preset[doi.lower()]
    await run.route_agencies(doi for _, out, doi in cited if out.open and not out.agency)
    routed: list[Cited] = []
    for ref, out, doi in cited:
        if not out.open:
            continue
        if not out.agency:
            out.attempts.append(f"doi.org/doiRA/{triage.prefix_of(doi)}")
            ra = run.agency_of(doi)
            if isinstance(ra, RegisterError):
                fail(out, ra, "agency triage")
                continue
            out.agency = ra
        routed.append((ref, out, doi))
    return routed


async def doi_rows(
    run: Run, rows: list[tuple[dict[str, Any], RowOutcome]], preset: Mapping[str, str]
) -> None:
    """Decide every gated row that cites a DOI (see the module docstring)."""
    istic_rows: list[Cited] = []
    handle_rows: list[Cited] = []
    for ref, out, doi in await _route(run, _well_formed(rows), preset):
        name = (out.agency or "").lower()
        if not name:
            out.decide(Outcome.DOI_RA_UNRESOLVED)
        elif name == "istic":
            istic_rows.append((ref, out, doi))
        elif name == "cnki":
            handle_rows.append((ref, out, doi))
        else:
            out.decide(Outcome.DOI_RA_OUT_OF_SCOPE)
    # CSL for ISTIC and the Handle probe for CNKI go to different throttles: ask side by side.
    records, exists = await asyncio.gather(
        run.csl(doi for _, _, doi in istic_rows), run.handles(doi for _, _, doi in handle_rows)
    )
    not_found: list[Cited] = []
    for ref, out, doi in istic_rows:
        stored = run.csl_stored.get(doi)
        if stored is None:
            out.attempts.append(f"doi.org content negotiation (CSL-JSON) for {doi}")
        else:  # no request: the answer of an earlier look, disclosed as such
            out.attempts.append(f"ISTIC CSL-JSON for {doi} from the {stored.tier}")
            out.stored_tier, out.stored_at = str(stored.tier), stored.retrieved_at
        rec = records[doi]
        if isinstance(rec, RegisterError):
            fail(out, rec, "content negotiation")
        elif rec is None:
            not_found.append((ref, out, doi))  # 404: does the DOI exist at all?
        else:
            out.register_title = rec.title
            out.decide(_BY_CHECK[istic.check_title(ref.get("title"), rec)])
    exists.update(await run.handles(doi for _, _, doi in not_found))
    for _, out, doi in [*handle_rows, *not_found]:
        out.attempts.append(f"hdl.handle.net/api/handles/{doi}")
        if doi in run.handle_probed:  # a live answer now shares in the outcome
            out.stored_tier = out.stored_at = None
        answer = exists[doi]
        if isinstance(answer, RegisterError):
            fail(out, answer, "Handle probe")
        else:
            out.decide(Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE if answer else Outcome.DOI_REFUTED)
