"""The DOI-less branch of the waterfall: journal bridge → PubMed coverage → coordinate query →
candidate DOI → agency → ISTIC CSL title. A work of a type no index holds (a book, a thesis …)
has no journal to bridge: it stays NOT COVERED `not_indexed_type`, as the title search leaves
such a work, with no request. A coordinate miss is never negative evidence (P1, not a
verdict); a single hit is promoted only by an exact Chinese title over the allowlisted path.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from auditor.chinese import pubmed_coords as coords_
from auditor.chinese.outcomes import (
    Outcome,
    RowOutcome,
    nlm_catalog_link,
    pubmed_link,
    pubmed_search_link,
)
from auditor.chinese.steps import Run, each, fail
from auditor.errors import Reason, RegisterError
from auditor.search.routing import holds_no_journal
from auditor.text import han_titles_equal, has_han

log = logging.getLogger(__name__)


@dataclass
class Pending:
    """A DOI-less row that has a bridge row with a PubMed abbreviation and usable coordinates."""

    ref: dict[str, Any]
    out: RowOutcome
    issn: str
    ta: str
    coords: coords_.Coordinates
    term: str = ""


def _prepare(run: Run, rows: list[tuple[dict[str, Any], RowOutcome]]) -> list[Pending]:
    """Local steps only (no request): bridge row and usable coordinates, or an outcome."""
    ready: list[Pending] = []
    for ref, out in rows:
        if holds_no_journal(ref.get("entry_type"), ref.get("container_title")):
            # Not the bridge's "no row for this journal": the work has no journal to look up.
            out.attempts.append("no request: a type of work no index holds (no journal)")
            out.give_up(Reason.NOT_INDEXED_TYPE.value, "a type of work no index holds")
            continue
        journal = run.bridge.lookup(ref.get("container_title"))
        if journal is None:
            out.attempts.append("journal bridge: no row for the journal name")
            out.decide(Outcome.NO_ISSN_MAPPING)
            continue
        out.attempts.append(f"journal bridge: {journal.journal} → ISSN {journal.issn}")
        if journal.nlm_id:
            out.links.append(nlm_catalog_link(journal.nlm_id))
        if journal.nlm_ta is None:
            out.attempts.append("journal bridge: catalogued without PubMed records")
            out.decide(Outcome.JOURNAL_NOT_INDEXED)
            continue
        c = coords_.coordinates(
            ref.get("volume"), ref.get("pages"), ref.get("authors"), ref.get("year")
        )
        if c.refused:
            out.attempts.append(f"no request: refused {c.refused} (Entrez syntax)")
            out.message = f"refused {c.refused}: it could inject Entrez query syntax"
            out.decide(Outcome.INSUFFICIENT_PUBMED_COORDINATES)
        elif not (c.by_volume_page or c.by_author_year):
            out.attempts.append("no request: neither volume + first page nor author + year")
            out.decide(Outcome.INSUFFICIENT_PUBMED_COORDINATES)
        else:
            ready.append(Pending(ref, out, journal.issn, journal.nlm_ta, c))
    return ready


def _may_ask_ncbi(run: Run, ready: list[Pending]) -> bool:
    """The PMID leg is open and an NCBI email is configured; otherwise say why, per row."""
    if not run.s.pmid_leg:
        for p in ready:
            p.out.give_up(Reason.LEG_CLOSED.value, "the PMID leg is closed: PubMed not asked")
        return False
    if not coords_.valid_email(run.s.ncbi_email):
        message = "no valid NCBI email configured (--ncbi-email): PubMed was not asked"
        log.warning("chinese waterfall: %s for %d reference(s)", message, len(ready))
        for p in ready:
            p.out.give_up(Reason.NCBI_EMAIL_MISSING.value, message)
        return False
    return True


async def coordinate_rows(run: Run, rows: list[tuple[dict[str, Any], RowOutcome]]) -> None:
    """Decide every DOI-less gated row (see the module docstring)."""
    ready = _prepare(run, rows)
    if not ready or not _may_ask_ncbi(run, ready):
        return
    coverage = await each(
        (coords_.coverage_term(p.ta) for p in ready), lambda term: run.esearch(term, 0)
    )
    queried: list[Pending] = []
    for p in ready:
        term = coords_.coverage_term(p.ta)
        p.out.attempts.append(f"PubMed esearch {term}")
        covered = coverage[term]
        if isinstance(covered, RegisterError):
            fail(p.out, covered, "PubMed coverage")
        elif covered[0] < 1:
            p.out.decide(Outcome.JOURNAL_NOT_INDEXED)
        else:
            p.term = coords_.coordinate_term(p.ta, p.coords)
            queried.append(p)
    hits = await each(
        (p.term for p in queried), lambda term: run.esearch(term, coords_.COORD_RETMAX)
    )
    single: list[Pending] = []
    for p in queried:
        p.out.attempts.append(f"PubMed esearch {p.term}")
        p.out.links.append(pubmed_search_link(p.term))
        answer = hits[p.term]
        if isinstance(answer, RegisterError):
            fail(p.out, answer, "PubMed coordinate query")
        elif answer[0] == 0:
            p.out.decide(Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS)
        elif answer[0] > 1:
            p.out.decide(Outcome.PUBMED_COORDINATE_AMBIGUOUS)
        else:
            p.out.candidate_pmid = answer[1][0]
            p.out.links.append(pubmed_link(answer[1][0]))
            single.append(p)
    await _promote(run, await _candidates(run, single))


async def _candidate(run: Run, pmid: str) -> coords_.PubmedCandidate:
    return coords_.candidate(pmid, await run.esummary(pmid))


async def _candidates(run: Run, single: list[Pending]) -> list[tuple[Pending, str]]:
    """ESummary of each single hit; rows whose candidate conflicts or has no DOI are decided."""
    pmids = {id(p): p.out.candidate_pmid or "" for p in single}
    docs = await each(pmids.values(), lambda pmid: _candidate(run, pmid))
    with_doi: list[tuple[Pending, str]] = []
    for p in single:
        p.out.attempts.append(f"PubMed esummary {pmids[id(p)]}")
        cand = docs[pmids[id(p)]]
        if isinstance(cand, RegisterError):
            fail(p.out, cand, "PubMed esummary")
            continue
        clash = coords_.conflicts(
            cand, issn=p.issn, year=p.ref.get("year"), c=p.coords, volume=p.ref.get("volume")
        )
        p.out.candidate_doi = cand.doi
        if clash:
            p.out.message = "candidate conflicts with the citation on " + ", ".join(clash)
            p.out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        elif cand.doi is None:
            p.out.message = "candidate has no DOI: its Chinese title cannot be obtained"
            p.out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        else:
            with_doi.append((p, cand.doi))
    return with_doi


async def _promote(run: Run, with_doi: list[tuple[Pending, str]]) -> None:
    """Candidate DOI → agency → ISTIC CSL title, exact and Chinese, or stay a candidate."""
    await run.route_agencies(doi for _, doi in with_doi)
    istic_rows: list[tuple[Pending, str]] = []
    for p, doi in with_doi:
        p.out.attempts.append(f"doi.org/doiRA/{doi.split('/', 1)[0]}")
        ra = run.agency_of(doi)
        if isinstance(ra, RegisterError):
            fail(p.out, ra, "candidate agency triage")
        elif (ra or "").lower() != "istic":
            p.out.message = f"candidate DOI is registered with {ra or 'no agency'}, not ISTIC"
            p.out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
        else:
            istic_rows.append((p, doi))
    records = await run.csl(doi for _, doi in istic_rows)
    for p, doi in istic_rows:
        p.out.attempts.append(f"doi.org content negotiation (CSL-JSON) for {doi}")
        rec = records[doi]
        if isinstance(rec, RegisterError):
            fail(p.out, rec, "candidate content negotiation")
            continue
        title = rec.title if rec is not None else None
        p.out.register_title = title
        if has_han(title) and han_titles_equal(p.ref.get("title"), title) is True:
            p.out.decide(Outcome.PUBMED_COORDINATE_VERIFIED)
        else:
            p.out.message = "the candidate's Chinese title was not obtained or differs"
            p.out.decide(Outcome.PUBMED_COORDINATE_CANDIDATE_UNVERIFIED)
