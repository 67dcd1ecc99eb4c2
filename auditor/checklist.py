"""The checklist stage: one human-confirmation item for every applicable non-matched outcome.

A priority orders a person's work; it is never a suspicion score. P0 belongs to the Chinese
waterfall's fabrication-grade cases and to a cited work that was retracted, withdrawn or removed
(read from the record's `updates`, whatever its verdict); this stage words ordinary outcomes at
P1-P3 and always says "pending human check" without suggesting fabrication. `human_result` is
left empty for the person who does the check.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.errors import Reason
from auditor.registers.updates import CONCERN_TYPES, CORRECTION_TYPES, RETRACTION_TYPES
from auditor.tables import RowState, UpdateRelation, Verdict

__all__ = [
    "PRIORITY_ORDER",
    "build_checklist",
    "duplicate_items",
    "item_for",
    "links_for",
    "update_items",
]

#: Priorities from most to least urgent; unknown priorities sort last.
PRIORITY_ORDER: tuple[str, ...] = ("P0", "P1", "P2", "P3")

# Ordinary outcomes → (priority, item text). Wording rule (spec/chinese-literature-cases.md):
# below P0 an item says "pending human check" and never suggests fabrication.
_DIFFERS_BY_REASON: dict[str, tuple[str, str]] = {
    Reason.TITLE_DIFFERS: (
        "P1",
        "The register's title for this identifier differs from the cited title; "
        "pending human check that the identifier points at the cited work.",
    ),
    Reason.TITLE_EMPTY: (
        "P2",
        "The cited or registered title is empty, so titles could not be compared; "
        "pending human check.",
    ),
    Reason.AUTHORS_DIFFER: (
        "P2",
        "The register's authors differ from the cited authors; pending human check.",
    ),
    Reason.YEAR_DIFFERS: (
        "P3",
        "The register's year differs from the cited year; pending human check "
        "(online-first and print years often differ).",
    ),
    # auditor/v2's named rules
    Reason.TITLE_NEAR_MISS: (
        "P1",
        "The cited title is one or two words away from the register's title for this work; "
        "pending human check of the exact title.",
    ),
    Reason.AUTHORS_PLACEHOLDER: (
        "P1",
        "The cited author list holds a placeholder name; pending human check of the authors.",
    ),
    Reason.AUTHORS_FIRST_DIFFERS: (
        "P1",
        "The cited first author is not the register's first author; pending human check.",
    ),
    Reason.AUTHORS_NOT_IN_REGISTER: (
        "P1",
        "A cited author is not among the register's authors of this work; pending human check.",
    ),
    Reason.AUTHORS_REORDERED: (
        "P2",
        "The cited authors are the register's in another order; pending human check.",
    ),
    Reason.AUTHORS_TRUNCATED: (
        "P2",
        "The cited author list leaves out register authors without 'and others'; "
        "pending human check.",
    ),
    Reason.VENUE_DIFFERS: (
        "P1",
        "The cited journal or proceedings is not the register's venue for this work; "
        "pending human check.",
    ),
    Reason.PREPRINT_AS_PUBLISHED: (
        "P1",
        "The reference claims a journal or proceedings, but the only record found is a "
        "preprint; pending human check of where it was published.",
    ),
    Reason.YEAR_FUTURE: (
        "P1",
        "The cited year is after the current year and the register holds no such date; "
        "pending human check.",
    ),
    Reason.ARXIV_YEAR_CONTRADICTED: (
        "P2",
        "The cited year does not fit the arXiv version history of this work; pending human check.",
    ),
    Reason.ARXIV_VERSION_UNKNOWN: (
        "P2",
        "The cited arXiv version is later than any version the register holds; "
        "pending human check.",
    ),
}
_DIFFERS_DEFAULT = ("P1", "The register's record differs from the citation; pending human check.")
_NOT_RESOLVE = (
    "P1",
    "The register answered that it holds no record for this identifier; pending human check "
    "of the identifier as written in the source.",
)
_UNCHECKED = (
    "P2",
    "The register could not be consulted ({reason}); re-run later or check by hand; "
    "pending human check.",
)
_INVALID = (
    "P2",
    "The entry could not be checked as written ({reason}); correct the entry; pending human check.",
)
#: INVALID rows whose cause is the manuscript, not an entry's text.
_INVALID_BY_REASON: dict[str, tuple[str, str]] = {
    Reason.MISSING_ENTRY: (
        "P1",
        "The manuscript cites this key but no bibliography holds an entry for it; add the "
        "entry or correct the key; pending human check.",
    ),
}
_NOT_COVERED = (
    "P3",
    "No covered register checks this entry ({reason}); pending human check by hand.",
)
_NOT_INDEXED = (
    "P3",
    "This type of work (book, chapter, thesis, report, standard, web page, software, …) is held "
    "by no index we search, so a title search would prove nothing; pending human check by hand.",
)
_NOT_FOUND = (
    "P1",
    "Pending human check: no index holds this work (asked: {asked}); nearest: {nearest}.",
)

#: Registers a verdict can name, as written in `sources_tried` when the verdict names none.
_REGISTER_FOR_TYPE = {"doi": "crossref", "pmid": "pubmed", "arxiv": "arxiv"}


def links_for(
    doi: str | None = None, pmid: str | None = None, arxiv: str | None = None
) -> list[str]:
    """Pages a person can click to check: doi.org, PubMed and arXiv abstract pages.

    Identifiers are untrusted text: each is percent-encoded into its URL path (a DOI keeps its
    `/`, which doi.org expects), so no identifier can change the host or add a query. A PMID that
    is not all digits gets no link.
    """
    links: list[str] = []
    if doi and doi.strip():
        links.append("https://doi.org/" + quote(doi.strip(), safe="/"))
    if pmid and pmid.strip().isdigit():
        links.append(f"https://pubmed.ncbi.nlm.nih.gov/{pmid.strip()}/")
    if arxiv and arxiv.strip():
        links.append("https://arxiv.org/abs/" + quote(arxiv.strip(), safe="/"))
    return links


def _row_links(ref: dict[str, Any], verdict: dict[str, Any]) -> list[str]:
    """Links for every identifier the row names; the checked identifier's link first."""
    ids = {"doi": ref.get("doi"), "pmid": ref.get("pmid"), "arxiv": ref.get("arxiv")}
    id_type, identifier = verdict.get("id_type"), verdict.get("identifier")
    if id_type in ids and identifier:
        ids[id_type] = identifier
    links: list[str] = []
    for kind in sorted(ids, key=lambda k: k != id_type):  # stable: checked type first
        links += links_for(**{kind: ids[kind]})
    return links


def _title_note(verdict: dict[str, Any]) -> str:
    """What a title search said about a reference whose identifier does not resolve."""
    asked = ", ".join(verdict.get("searched") or [])
    found = verdict.get("nearest") or []
    if found:
        return f" A work with this title exists ({found[0]}): the identifier may be wrong."
    return f" No index holds a work with this title either (asked: {asked})."


def _not_found_text(verdict: dict[str, Any]) -> str:
    asked = ", ".join(verdict.get("searched") or []) or "none"
    nearest = "; ".join(verdict.get("nearest") or []) or "none"
    return _NOT_FOUND[1].format(asked=asked, nearest=nearest)


def _priority_and_text(verdict: str, reason: str | None) -> tuple[str, str] | None:
    """The priority and wording for one ordinary outcome, or `None` when no item is due."""
    shown = reason or "no reason given"
    match verdict:
        case RowState.NOT_FOUND:
            return _NOT_FOUND
        case Verdict.NOT_COVERED if reason == Reason.NOT_INDEXED_TYPE:
            return _NOT_INDEXED
        case Verdict.MATCHES:
            return None
        case Verdict.DIFFERS:
            return _DIFFERS_BY_REASON.get(reason or "", _DIFFERS_DEFAULT)
        case Verdict.DOES_NOT_RESOLVE:
            return _NOT_RESOLVE
        case RowState.UNCHECKED:
            return _UNCHECKED[0], _UNCHECKED[1].format(reason=shown)
        case RowState.INVALID:
            if reason in _INVALID_BY_REASON:
                return _INVALID_BY_REASON[reason]
            return _INVALID[0], _INVALID[1].format(reason=shown)
        case Verdict.NOT_COVERED:
            return _NOT_COVERED[0], _NOT_COVERED[1].format(reason=shown)
    return "P2", f"Unrecognized outcome {verdict!r}; pending human check."


def _sources_tried(verdict: dict[str, Any]) -> list[str]:
    """Which register answered (or failed to), with the tier it was read from; for a title
    search, every index asked."""
    if verdict.get("queried_by") == "title" and verdict.get("verdict") != Verdict.MATCHES:
        return list(verdict.get("searched") or [])
    register = verdict.get("register") or _REGISTER_FOR_TYPE.get(verdict.get("id_type") or "")
    if verdict.get("verdict") in (RowState.INVALID, Verdict.NOT_COVERED) and not verdict.get(
        "register"
    ):
        return []
    if not register:
        return []
    tier = verdict.get("tier")
    return [f"{register} ({tier})" if tier else register]


def item_for(ref: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any] | None:
    """The CHECKLIST row for one reference and its verdict, or `None` when nothing is due."""
    decided = _priority_and_text(verdict["verdict"], verdict.get("reason"))
    if decided is None:
        return None
    priority, text = decided
    if verdict["verdict"] == RowState.NOT_FOUND:
        text = _not_found_text(verdict)
    elif verdict["verdict"] == Verdict.DOES_NOT_RESOLVE and verdict.get("searched"):
        text += _title_note(verdict)
    if (
        verdict["verdict"] == RowState.INVALID
        and ref.get("parse_error")
        and verdict.get("reason") not in _INVALID_BY_REASON
    ):
        text = f"{text} Parser said: {ref['parse_error']}"
    return {
        **_base_item(ref, verdict),
        "priority": priority,
        "reason_code": verdict.get("reason") or verdict["verdict"],
        "text": text,
    }


_PAST = {"retraction": "retracted", "withdrawal": "withdrawn", "removal": "removed"}


def _notice(update: dict[str, Any]) -> str:
    if update.get("doi"):
        return f"doi:{update['doi']}"
    if update.get("pmid"):
        return f"PMID {update['pmid']}"
    return "not named by the register"


def _when(update: dict[str, Any]) -> str:
    return f"on {update['date']}" if update.get("date") else "(the register gives no date)"


def _update_wording(update: dict[str, Any]) -> tuple[str, str, str] | None:
    """(priority, reason code, sentence) for one update, or `None` when it needs no item."""
    kind = str(update.get("type") or "")
    if update.get("relation") == UpdateRelation.UPDATE_TO:
        if kind in RETRACTION_TYPES | CONCERN_TYPES | CORRECTION_TYPES:
            what = kind.replace("_", " ")
            return (
                "P1",
                Reason.CITED_UPDATE_NOTICE.value,
                f"the cited identifier is itself a notice of {what} ({_when(update)}) of "
                f"{_notice(update).replace('not named by the register', 'an unnamed work')}, "
                "not the work it concerns",
            )
        return None
    if kind in RETRACTION_TYPES:
        return (
            "P0",
            Reason.WORK_RETRACTED.value,
            f"the cited work was {_PAST[kind]} {_when(update)}; notice: {_notice(update)}",
        )
    if kind in CONCERN_TYPES:
        what = kind.replace("_", " ")
        return (
            "P1",
            Reason.WORK_UNDER_CONCERN.value,
            f"the cited work carries a {what} {_when(update)}; notice: {_notice(update)}",
        )
    if kind in CORRECTION_TYPES:
        what = "superseded" if kind == "obsoleted" else f"given a {kind.replace('_', ' ')}"
        return (
            "P3",
            Reason.WORK_CORRECTED.value,
            f"the cited work was {what} {_when(update)}; notice: {_notice(update)}",
        )
    return None


def update_items(ref: dict[str, Any], verdict: dict[str, Any]) -> list[dict[str, Any]]:
    """CHECKLIST items for the updates of the record a verdict relied on, one per reason code.

    A retraction, withdrawal or removal is P0 even when every field matches; an expression of
    concern or partial retraction P1; a correction P3; a cited identifier that is itself a
    retraction or correction notice P1. Several updates of one kind share one item.
    """
    by_reason: dict[str, tuple[str, list[str]]] = {}
    for update in verdict.get("updates") or []:
        worded = _update_wording(update)
        if worded is None:
            continue
        priority, reason, sentence = worded
        sentences = by_reason.setdefault(reason, (priority, []))[1]
        if sentence not in sentences:
            sentences.append(sentence)
    items = []
    for reason, (priority, sentences) in by_reason.items():
        text = "; ".join(sentences)
        items.append(
            {
                **_base_item(ref, verdict),
                "priority": priority,
                "reason_code": reason,
                "text": f"{text[0].upper()}{text[1:]}; pending human check.",
            }
        )
    return items


def _base_item(ref: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """The identity, cited fields, sources and links every item of a row shares."""
    return {
        "row_id": verdict["row_id"],
        "source_path": verdict.get("source_path") or ref.get("source_path"),
        "source_line": verdict.get("source_line", ref.get("source_line")),
        "key": verdict.get("key") or ref.get("key"),
        "outcome": verdict["verdict"],
        "cited_title": ref.get("title"),
        "cited_authors": ref.get("authors"),
        "cited_year": ref.get("year"),
        "cited_id": ref.get("id_raw") or verdict.get("identifier"),
        "sources_tried": _sources_tried(verdict),
        "links": _row_links(ref, verdict),
        "human_result": None,
    }


def _rank(priority: str) -> int:
    try:
        return PRIORITY_ORDER.index(priority)
    except ValueError:
        return len(PRIORITY_ORDER)


def build_checklist(
    references: pa.Table,
    verdicts: pa.Table,
    records: pa.Table,
    extra: pa.Table | None = None,
) -> pa.Table:
    """The CHECKLIST table: items for ordinary outcomes merged with `extra`, sorted.

    `references`, `verdicts` and `records` have the `tables` schemas; `extra` holds CHECKLIST items
    already made by other stages (the Chinese waterfall, duplicate groups). A row whose verdict
    another stage decided (an `extra` item whose `reason_code` equals the verdict's reason) gets no
    second, ordinary item. Items are sorted by priority (P0 first), then input order, stably.
    `human_result` is always null. `records` is accepted for the stage contract; the verdicts
    already carry the register, tier and as-of time relied on. Never raises on data.
    """
    del records  # the verdict row names the register record relied on
    extra_rows = extra.to_pylist() if extra is not None and extra.num_rows else []
    decided_elsewhere = {(item["row_id"], item["reason_code"]) for item in extra_rows}
    due = _maybe_due(verdicts)
    refs = {row["row_id"]: row for row in _rows_of(references, verdicts, due).to_pylist()}
    items: list[dict[str, Any]] = []
    for verdict in _only(verdicts.filter(due), _VERDICT_COLUMNS).to_pylist():
        if (verdict["row_id"], verdict.get("reason")) in decided_elsewhere:
            continue
        ref = refs.get(verdict["row_id"], {})
        item = item_for(ref, verdict)
        if item is not None:
            items.append(item)
        items += update_items(ref, verdict)
    merged = [*items, *({**row, "human_result": None} for row in extra_rows)]
    wanted = pa.array(sorted({it["row_id"] for it in merged}), pa.int64())
    at = pc.index_in(wanted, value_set=verdicts["row_id"]).to_pylist()
    order = dict(zip(wanted.to_pylist(), at, strict=True))
    merged.sort(key=lambda it: (_rank(it["priority"]), _position(order, it["row_id"])))
    return pa.Table.from_pylist(merged, schema=tables.CHECKLIST)


def _position(order: dict[int, int | None], row_id: int) -> int:
    at = order.get(row_id)
    return row_id if at is None else at


def _maybe_due(verdicts: pa.Table) -> pa.Array:
    """Rows that may need an item: every outcome but a plain match, and rows with updates.

    A million matching rows cost one comparison over the column, not a million dicts.
    """
    due = pc.fill_null(pc.not_equal(verdicts["verdict"], Verdict.MATCHES.value), True)
    if "updates" in verdicts.column_names:
        due = pc.or_(
            due, pc.fill_null(pc.greater(pc.list_value_length(verdicts["updates"]), 0), False)
        )
    return due


#: The columns items are made of (a row becomes a dict of these only).
_VERDICT_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "verdict", "reason", "id_type", "identifier",
    "register", "tier", "updates", "queried_by", "searched", "nearest",
)  # fmt: skip
_REFERENCE_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "title", "authors", "year", "id_raw", "doi",
    "pmid", "arxiv", "parse_error",
)  # fmt: skip


def _only(table: pa.Table, names: tuple[str, ...]) -> pa.Table:
    return table.select([n for n in names if n in table.column_names])


def _rows_of(references: pa.Table, verdicts: pa.Table, due: pa.Array) -> pa.Table:
    """The references rows named by the `due` verdict rows (by `row_id`)."""
    wanted = verdicts["row_id"].filter(due)
    chosen = references.filter(pc.is_in(references["row_id"], value_set=wanted.combine_chunks()))
    return _only(chosen, _REFERENCE_COLUMNS)


def duplicate_items(duplicates: pa.Table, references: pa.Table) -> pa.Table:
    """P3 CHECKLIST items for references that repeat a work cited earlier under another key.

    One item per group member after the first (in input order), naming the first key and what
    they share, for `build_checklist`'s `extra`. Never raises on data.
    """
    if duplicates.num_rows == 0:
        return tables.empty(tables.CHECKLIST)
    members_of = pc.is_in(references["row_id"], value_set=duplicates["row_id"].combine_chunks())
    refs = {row["row_id"]: row for row in references.filter(members_of).to_pylist()}
    groups: dict[int, list[dict[str, Any]]] = {}
    for member in sorted(duplicates.to_pylist(), key=lambda m: m["row_id"]):
        groups.setdefault(member["group_id"], []).append(member)
    items: list[dict[str, Any]] = []
    for members in groups.values():
        first = members[0]
        first_key = first.get("key") or refs.get(first["row_id"], {}).get("key") or "?"
        for member in members[1:]:
            ref = refs.get(member["row_id"], {})
            shared = f"{member['basis']} {member.get('value') or ''}".strip()
            items.append(
                {
                    "row_id": member["row_id"],
                    "source_path": ref.get("source_path"),
                    "source_line": ref.get("source_line"),
                    "key": member.get("key") or ref.get("key"),
                    "priority": "P3",
                    "reason_code": Reason.DUPLICATE_REFERENCE.value,
                    "outcome": None,
                    "cited_title": ref.get("title"),
                    "cited_authors": ref.get("authors"),
                    "cited_year": ref.get("year"),
                    "cited_id": ref.get("id_raw"),
                    "sources_tried": [],
                    "text": f"Same work as {first_key} ({shared}), cited under another key; "
                    "pending human check that both citations are intended.",
                    "links": links_for(**{member["basis"]: member.get("value")})
                    if member["basis"] in ("doi", "pmid", "arxiv")
                    else [],
                    "human_result": None,
                }
            )
    return pa.Table.from_pylist(items, schema=tables.CHECKLIST)
