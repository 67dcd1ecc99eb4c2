"""Stage 1 of the waterfall for rows with a DOI: agency triage, then ISTIC content negotiation
(title check) or the CNKI Handle probe; a CSL 404 also goes to the Handle probe."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from auditor.chinese import istic, triage
from auditor.chinese.outcomes import Outcome, RowOutcome
from auditor.chinese.steps import Run, fail
from auditor.errors import RegisterError


async def doi_rows(
    run: Run, rows: list[tuple[dict[str, Any], RowOutcome]], preset: Mapping[str, str]
) -> None:
    """Stage 1 for rows with a DOI: triage, then ISTIC content negotiation or CNKI Handle."""
    for _ref, out in rows:
        if not triage.is_doi(out.doi):
            out.attempts.append("no request: the DOI field is not a DOI")
            out.decide(Outcome.DOI_RA_UNRESOLVED)
        elif out.agency:
            run.agency.setdefault(triage.prefix_of(out.doi), out.agency)  # type: ignore[arg-type]
        elif out.doi.lower() in preset:  # type: ignore[union-attr]
            out.agency = preset[out.doi.lower()]  # type: ignore[union-attr]
    await run.route_agencies(o.doi for _, o in rows if o.open and not o.agency)  # type: ignore[misc]
    istic_rows, handle_rows = [], []
    for _ref, out in rows:
        if not out.open:
            continue
        if not out.agency:
            ra = run.agency_of(out.doi)  # type: ignore[arg-type]
            out.attempts.append(f"doi.org/doiRA/{triage.prefix_of(out.doi)}")  # type: ignore[arg-type]
            if isinstance(ra, RegisterError):
                fail(out, ra, "agency triage")
                continue
            out.agency = ra
        name = (out.agency or "").lower()
        if not name:
            out.decide(Outcome.DOI_RA_UNRESOLVED)
        elif name == "istic":
            istic_rows.append((_ref, out))
        elif name == "cnki":
            handle_rows.append(out)
        else:
            out.decide(Outcome.DOI_RA_OUT_OF_SCOPE)
    records = await run.csl(o.doi for _, o in istic_rows)  # type: ignore[misc]
    for ref, out in istic_rows:
        out.attempts.append(f"doi.org content negotiation (CSL-JSON) for {out.doi}")
        rec = records[out.doi]  # type: ignore[index]
        if isinstance(rec, RegisterError):
            fail(out, rec, "content negotiation")
            continue
        check = istic.check_title(ref.get("title"), rec)
        if rec is not None:
            out.register_title = rec.title
        if check is istic.TitleCheck.NOT_FOUND:
            handle_rows.append(out)
        else:
            out.decide(
                {
                    istic.TitleCheck.MATCH: Outcome.DOI_TITLE_VERIFIED,
                    istic.TitleCheck.MISMATCH: Outcome.DOI_TITLE_MISMATCH,
                    istic.TitleCheck.UNVERIFIABLE: Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE,
                }[check]
            )
    exists = await run.handles(o.doi for o in handle_rows)  # type: ignore[misc]
    for out in handle_rows:
        out.attempts.append(f"hdl.handle.net/api/handles/{out.doi}")
        answer = exists[out.doi]  # type: ignore[index]
        if isinstance(answer, RegisterError):
            fail(out, answer, "Handle probe")
        elif answer:
            out.decide(Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE)
        else:
            out.decide(Outcome.DOI_REFUTED)
