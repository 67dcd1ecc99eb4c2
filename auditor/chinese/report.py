"""Turn waterfall outcomes into table rows: the verdict patch and the checklist items."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.chinese.outcomes import INFO, Outcome, RowOutcome, doi_link, item_text, verdict_for
from auditor.patches import patch_from_rows, relied_on
from auditor.tables import RowState, Verdict
from auditor.text import han_titles_equal

Pair = tuple[dict[str, Any], RowOutcome]

_DOI_PATH = {
    Outcome.DOI_TITLE_VERIFIED,
    Outcome.DOI_TITLE_MISMATCH,
    Outcome.DOI_REFUTED,
    Outcome.DOI_EXISTS_TITLE_UNVERIFIABLE,
    Outcome.DOI_RA_UNRESOLVED,
}


def keeps_verdict(out: RowOutcome, current: str | None) -> bool:
    """An out-of-scope agency (e.g. Crossref) leaves a row the resolve stage already decided (a
    verdict or `UNCHECKED`) alone; only a row it left NOT COVERED takes the waterfall's outcome."""
    return out.outcome is Outcome.DOI_RA_OUT_OF_SCOPE and current != Verdict.NOT_COVERED.value


def consulted_a_register(out: RowOutcome) -> bool:
    """Whether any step of `out` asked a register (or used a stored register answer)."""
    local = ("no request", "journal bridge")
    return any(not step.startswith(local) for step in out.attempts)


#: The `VERDICTS` columns an outcome may set (the waterfall's patch columns). `id_type` and
#: `identifier` are not among them: they stay the reference's own; the record a DOI-path outcome
#: rests on is named by `record_key` alone (`_relied_on`).
PATCH_COLUMNS = [
    "verdict",
    "reason",
    "register",
    "tier",
    "retrieved_at",
    "title_claimed",
    "title_register",
    "title_match",
]


def _rows_of(verdicts: pa.Table, row_ids: list[int]) -> list[dict[str, Any]]:
    """The verdict rows of `row_ids` (those present), as dicts: only the gated rows, never the
    whole table."""
    at = pc.index_in(pa.array(row_ids, pa.int64()), value_set=verdicts["row_id"])
    rows: list[dict[str, Any]] = verdicts.take(at.drop_null()).to_pylist()
    return rows


def _set_outcome(
    row: dict[str, Any], ref: dict[str, Any], out: RowOutcome, as_of: str | None
) -> dict[str, Any]:
    """Write `out` into the verdict `row`; what names the record it rests on (`_NAMED`'s
    columns): the cited DOI for a DOI-path outcome that asked a register, else the row's own."""
    own = {k: row[k] for k in ("register", "id_type", "identifier")}
    if out.not_covered:
        row["verdict"], row["reason"] = Verdict.NOT_COVERED.value, out.unchecked
        return own
    if out.outcome is None:
        row["verdict"], row["reason"] = RowState.UNCHECKED.value, out.unchecked
        return own
    row["verdict"], row["reason"] = verdict_for(out.outcome), out.outcome.value
    if not consulted_a_register(out):
        # Decided locally (journal bridge miss, refused coordinates): no register record is
        # relied on, so none is named.
        row["register"] = row["tier"] = row["retrieved_at"] = None
        return {**own, "register": None}
    row["register"] = "doi" if out.outcome in _DOI_PATH else "pubmed"
    if out.stored_tier is not None:  # decided from a snapshot/cache answer, no request
        row["tier"], row["retrieved_at"] = out.stored_tier, out.stored_at
    elif as_of is not None:  # else the answers came from records already fetched
        row["tier"] = tables.Tier.LIVE.value
        row["retrieved_at"] = as_of
    if out.register_title is not None:
        row["title_claimed"] = ref.get("title")
        row["title_register"] = out.register_title
        row["title_match"] = han_titles_equal(ref.get("title"), out.register_title)
    if out.outcome in _DOI_PATH and out.doi:
        return {"register": row["register"], "id_type": "doi", "identifier": out.doi}
    return {**own, "register": row["register"]}


def outcome_patch(
    verdicts: pa.Table, records: pa.Table, pairs: list[Pair], retrieved_at: str | None = None
) -> pa.Table:
    """The verdict patch (`auditor.patches`) setting each gated row to its outcome's verdict and
    reason (`PATCH_COLUMNS`); rows whose verdict stays are not in it.

    `retrieved_at` (ISO 8601 UTC) is the as-of time of the live answers the outcomes rest on;
    `None` when the stage made no request, so rows keep the tier and as-of of their records.
    A row whose outcome rests on a stored ISTIC answer alone (`RowOutcome.stored_tier`) takes
    that answer's tier and as-of instead. `record_key` names the record of `records` the row
    now rests on (`patches.relied_on`: of the register named, else any of its identifier).
    """
    by_row = {out.row_id: (ref, out) for ref, out in pairs}
    changed = []
    named = []
    for row in _rows_of(verdicts, list(by_row)):
        ref, out = by_row[row["row_id"]]
        if keeps_verdict(out, row["verdict"]):
            continue
        named.append(_set_outcome(row, ref, out, retrieved_at))
        changed.append(row)
    patch = patch_from_rows(changed, PATCH_COLUMNS)
    key = relied_on(records, pa.Table.from_pylist(named, schema=_NAMED))
    return patch.append_column(tables.VERDICTS.field("record_key"), key)


#: What names the record a row rests on (`patches.relied_on`'s columns).
_NAMED = pa.schema([(name, pa.string()) for name in ("register", "id_type", "identifier")])


def _cited_id(ref: dict[str, Any], out: RowOutcome) -> str | None:
    if out.doi:
        return out.doi
    parts = [ref.get("container_title"), ref.get("volume"), ref.get("pages")]
    return " ".join(str(p) for p in parts if p) or None


def build_items(pairs: list[Pair], verdicts: pa.Table) -> pa.Table:
    """One CHECKLIST item per applicable non-matched outcome; `human_result` always empty.

    `verdicts` is the table with `outcome_patch` merged: a row whose verdict the resolve stage
    kept gets its item from the ordinary checklist stage, not from here.
    """
    rows = _rows_of(verdicts, [out.row_id for _, out in pairs])
    current = {row["row_id"]: row["verdict"] for row in rows}
    items: list[dict[str, Any]] = []
    for ref, out in pairs:
        if out.outcome is None or INFO[out.outcome].priority is None:
            continue
        if keeps_verdict(out, current.get(out.row_id)):
            continue
        links = [doi_link(out.doi)] if out.doi else []
        if out.candidate_doi:
            links.append(doi_link(out.candidate_doi))
        links += [link for link in out.links if link not in links]
        text = item_text(out.outcome)
        if out.message:
            text = f"{text} ({out.message})"
        items.append(
            {
                "row_id": out.row_id,
                "source_path": ref.get("source_path"),
                "source_line": ref.get("source_line"),
                "key": ref.get("key"),
                "priority": INFO[out.outcome].priority,
                "reason_code": out.outcome.value,
                "outcome": current.get(out.row_id),
                "cited_title": ref.get("title"),
                "cited_authors": ref.get("authors"),
                "cited_year": ref.get("year"),
                "cited_id": _cited_id(ref, out),
                "sources_tried": list(out.attempts),
                "text": text,
                "links": links,
                "human_result": None,
            }
        )
    return pa.Table.from_pylist(items, schema=tables.CHECKLIST)
