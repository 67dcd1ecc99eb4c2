"""The DOI-less branch of the waterfall: journal bridge → PubMed coverage → coordinate query →
candidate DOI → agency → ISTIC CSL title. A coordinate miss is never negative evidence (P1, not a
verdict); a single hit is promoted only by an exact Chinese title over the allowlisted path.
"""

from __future__ import annotations

import logging
from typing import Any

from auditor.chinese import pubmed_coords as pc_
from auditor.chinese.bridge import BridgeRow
from auditor.chinese.outcomes import Outcome, RowOutcome, pubmed_link, pubmed_search_link
from auditor.chinese.steps import Run, each, fail
from auditor.compare.text import han_titles_equal, has_han
from auditor.errors import Reason, RegisterError

log = logging.getLogger(__name__)
Row = tuple[dict[str, Any], RowOutcome]


def _prepare(
    run: Run, rows: list[Row]
) -> list[tuple[dict[str, Any], RowOutcome, BridgeRow, pc_.Coordinates]]:
    """Local steps only (no request): bridge row and usable coordinates, or an outcome."""
    ready = []
    for ref, out in rows:
        journal = run.bridge.lookup(ref.get("container_title"))
        if journal is None:
            out.attempts.append("journal bridge: no row for the journal name")
            out.decide(Outcome.NO_ISSN_MAPPING)
            continue
        out.attempts.append(f"journal bridge: {journal.journal} → ISSN {journal.issn}")
        if journal.nlm_ta is None:
            out.attempts.append("journal bridge: catalogued without PubMed records")
            out.decide(Outcome.JOURNAL_NOT_INDEXED)
            continue
        coords = pc_.coordinates(
            ref.get("volume"), ref.get("pages"), ref.get("authors"), ref.get("year")
        )
        if coords.refused:
            out.attempts.append(f"no request: refused {coords.refused} (Entrez syntax)")
            out.message = f"refused {coords.refused}: it could inject Entrez query syntax"
            out.decide(Outcome.INSUFFICIENT_PUBMED_COORDINATES)
        elif not (coords.by_volume_page or coords.by_author_year):
            out.attempts.append("no request: neither volume + first page nor author + year")
            out.decide(Outcome.INSUFFICIENT_PUBMED_COORDINATES)
        else:
            ready.append((ref, out, journal, coords))
    return ready


async def coordinate_rows(run: Run, rows: list[Row]) -> None:
    """Decide every DOI-less gated row (see the module docstring)."""
    ready = _prepare(run, rows)
    if not ready:
        return
    if not run.s.pmid_leg:
        for _, out, _, _ in ready:
            out.give_up(Reason.LEG_CLOSED.value, "the PMID leg is closed: PubMed not asked")
        return
    if not run.s.ncbi_email:
        message = "no NCBI email configured (--ncbi-email): PubMed was not asked"
        log.warning("chinese waterfall: %s for %d reference(s)", message, len(ready))
        for _, out, _, _ in ready:
            out.give_up(Reason.NCBI_EMAIL_MISSING.value, message)
        return
    ident = pc_.ncbi_params(run.s.ncbi_email, run.s.ncbi_api_key)
    base = run.s.eutils_url
    tas = [j.nlm_ta for _, _, j, _ in ready]
    coverage = await each(
        tas, lambda ta: pc_.esearch(run.lookups, base, pc_.coverage_term(ta), 0, ident)
    )
    queried = []
    for ref, out, journal, coords in ready:
        out.attempts.append(f"PubMed esearch {pc_.coverage_term(journal.nlm_ta)}")  # type: ignore[arg-type]
        answer = coverage[journal.nlm_ta]  # type: ignore[index]
        if isinstance(answer, RegisterError):
            fail(out, answer, "PubMed coverage")
        elif answer[0] < 1:
            out.decide(Outcome.JOURNAL_NOT_INDEXED)
        else:
            queried.append(
                (
                    ref,
                    out,
                    journal,
                    coords,
                    pc_.coordinate_term(
                        journal.nlm_ta,  # type: ignore[arg-type]
                        coords,
                    ),
                )
            )
    hits = await each(
        (q[4] for q in queried),
        lambda t: pc_.esearch(run.lookups, base, t, pc_.COORD_RETMAX, ident),
    )
    single = []
    for ref, out, journal, coords, term in queried:
        out.attempts.append(f"PubMed esearch {term}")
        out.links.append(pubmed_search_link(term))
        answer = hits[term]
        if isinstance(answer, RegisterError):
            fail(out, answer, "PubMed coordinate query")
        elif answer[0] == 0:
            out.decide(Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS)
        elif answer[0] > 1:
            out.decide(Outcome.PUBMED_COORDINATE_AMBIGUOUS)
        else:
            out.candidate_pmid = answer[1][0]
            out.links.append(pubmed_link(out.candidate_pmid))
            single.append((ref, out, journal, coords))
    await _promote(run, single, ident)


async def _promote(run: Run, single: list[Any], ident: dict[str, str]) -> None:
    """A single hit: esummary → conflicts → candidate DOI → agency → ISTIC CSL title."""
    docs = await each(
        (o.candidate_pmid for _, o, _, _ in single),
        lambda p: pc_.esummary(run.lookups, run.s.eutils_url, p, ident),
    )
    with_doi = []
    for ref, out, journal, coords in single:
        out.attempts.append(f"PubMed esummary {out.candidate_pmid}")
        cand = docs[out.candidate_pmid]
        if isinstance(cand, RegisterError):
            fail(out, cand, "PubMed esummary")
            continue
        clash = pc_.conflicts(
            cand, issn=journal.issn, year=ref.get("year"), c=coords, volume=ref.get("volume")
        )
        out.candidate_doi = cand.doi
        if clash:
            out.message = "candidate conflicts with the citation on " + ", ".join(clash)
            out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        elif cand.doi is None:
            out.message = "candidate has no DOI: its Chinese title cannot be obtained"
            out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        else:
            with_doi.append((ref, out))
    await run.route_agencies(o.candidate_doi for _, o in with_doi)
    istic_rows = []
    for ref, out in with_doi:
        out.attempts.append(f"doi.org/doiRA/{out.candidate_doi.split('/', 1)[0]}")
        ra = run.agency_of(out.candidate_doi)
        if isinstance(ra, RegisterError):
            fail(out, ra, "candidate agency triage")
        elif (ra or "").lower() != "istic":
            out.message = f"candidate DOI is registered with {ra or 'no agency'}, not ISTIC"
            out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        else:
            istic_rows.append((ref, out))
    records = await run.csl(o.candidate_doi for _, o in istic_rows)
    for ref, out in istic_rows:
        out.attempts.append(f"doi.org content negotiation (CSL-JSON) for {out.candidate_doi}")
        rec = records[out.candidate_doi]
        if isinstance(rec, RegisterError):
            fail(out, rec, "candidate content negotiation")
            continue
        title = rec.title if rec is not None else None
        out.register_title = title
        if has_han(title) and han_titles_equal(ref.get("title"), title) is True:
            out.decide(Outcome.PUBMED_COORDINATE_VERIFIED)
        else:
            out.message = "the candidate's Chinese title was not obtained or differs"
            out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
