"""The checklist stage: one human-confirmation item for every applicable non-matched outcome.

A priority orders a person's work; it is never a suspicion score. P0 belongs to the Chinese
waterfall's fabrication-grade cases and to a cited work that was retracted, withdrawn or removed
(read from the record's `updates`, whatever its verdict); this stage words ordinary outcomes at
P1-P3 and always says "pending human check" without suggesting fabrication. `human_result` is
left empty for the person who does the check.

Items are built as columns (Arrow compute, NumPy), not one dict per row: the wording is decided
once per distinct (verdict, reason) pair, and only the rare rows with register updates are worded
one by one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import columns, tables
from auditor.errors import Reason
from auditor.registers.updates import CONCERN_TYPES, CORRECTION_TYPES, RETRACTION_TYPES
from auditor.tables import RowState, UpdateRelation, Verdict

__all__ = ["PRIORITY_ORDER", "build_checklist", "duplicate_items", "links_for", "update_items"]

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


_PAGE = {"doi": "https://doi.org/", "arxiv": "https://arxiv.org/abs/"}
_PUBMED = "https://pubmed.ncbi.nlm.nih.gov/"


def _link_column(kind: str, values: pa.Array) -> pa.Array:
    """`links_for(**{kind: value})` of every value: its one link, or null for none."""
    stripped = columns.strip(values)
    if kind == "pmid":
        page = pc.binary_join_element_wise(_PUBMED, stripped, "/", "")
        return pc.if_else(columns.digits(stripped), page, None)
    page = pc.binary_join_element_wise(_PAGE[kind], columns.quoted(stripped), "")
    return pc.if_else(columns.truthy(stripped), page, None)


def _row_links(refs: pa.Table, verdicts: pa.Table) -> pa.Array:
    """Links for every identifier each row names; the checked identifier's link first."""
    id_type, identifier = verdicts["id_type"], verdicts["identifier"]
    link = {}
    for kind in ("doi", "pmid", "arxiv"):
        own = pc.and_(pc.fill_null(pc.equal(id_type, kind), False), columns.truthy(identifier))
        link[kind] = _link_column(kind, pc.if_else(own, identifier, refs[kind]))
    pmid_first = pc.fill_null(pc.equal(id_type, "pmid"), False)
    arxiv_first = pc.fill_null(pc.equal(id_type, "arxiv"), False)
    # doi, pmid, arxiv, with the checked type moved to the front.
    return columns.concat_lists(
        columns.singletons(
            pc.if_else(
                pmid_first, link["pmid"], pc.if_else(arxiv_first, link["arxiv"], link["doi"])
            )
        ),
        columns.singletons(pc.if_else(pc.or_(pmid_first, arxiv_first), link["doi"], link["pmid"])),
        columns.singletons(pc.if_else(arxiv_first, link["pmid"], link["arxiv"])),
    )


def _joined(lists: pa.Array, separator: str) -> pa.Array:
    """`separator.join(value or [])` of every list."""
    return pc.fill_null(pc.binary_join(lists, separator), "")


def _title_note(verdicts: pa.Table) -> pa.Array:
    """What a title search said about a reference whose identifier does not resolve."""
    has_nearest = columns.truthy(verdicts["nearest"])
    nearest = pc.list_element(columns.keep_lists(verdicts["nearest"], has_nearest), 0)
    found = pc.binary_join_element_wise(
        " A work with this title exists (", nearest, "): the identifier may be wrong.", ""
    )
    asked = _joined(verdicts["searched"], ", ")
    none = pc.binary_join_element_wise(
        " No index holds a work with this title either (asked: ", asked, ").", ""
    )
    return pc.if_else(has_nearest, found, none)


def _not_found_text(verdicts: pa.Table) -> pa.Array:
    none = columns.constant("none", verdicts.num_rows)
    asked = columns.first_truthy(_joined(verdicts["searched"], ", "), none)
    nearest = columns.first_truthy(_joined(verdicts["nearest"], "; "), none)
    head, middle, tail = _NOT_FOUND[1].replace("{nearest}", "{asked}").split("{asked}")
    return pc.binary_join_element_wise(head, asked, middle, nearest, tail, "")


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


def _wording(verdicts: pa.Table) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(priority, text, reason code) of each row's ordinary item; priority null when none is due.

    `_priority_and_text` runs once per distinct (verdict, reason) pair, not once per row.
    """
    verdict = pc.dictionary_encode(columns.array(verdicts["verdict"]), null_encoding="encode")
    reason = pc.dictionary_encode(columns.array(verdicts["reason"]), null_encoding="encode")
    width = len(reason.dictionary)
    pair = verdict.indices.to_numpy().astype(np.int64) * width + reason.indices.to_numpy()
    distinct, slot = np.unique(pair, return_inverse=True)
    verdict_names, reason_names = verdict.dictionary.to_pylist(), reason.dictionary.to_pylist()
    priorities, texts, codes = [], [], []
    for code in distinct.tolist():
        name, why = verdict_names[code // width], reason_names[code % width]
        decided = _priority_and_text(name, why)
        priorities.append(None if decided is None else decided[0])
        texts.append(None if decided is None else decided[1])
        codes.append(why or name)
    at = pa.array(slot)
    return (
        pa.array(priorities, pa.string()).take(at),
        pa.array(texts, pa.string()).take(at),
        pa.array(codes, pa.string()).take(at),
    )


def _item_text(refs: pa.Table, verdicts: pa.Table, text: pa.Array) -> pa.Array:
    """The ordinary items' texts with what the title search or the parser said."""
    verdict = verdicts["verdict"]
    rows = verdicts.append_column("text", columns.array(text)).append_column(
        "parse_error", refs["parse_error"]
    )
    not_found = pc.fill_null(pc.equal(verdict, RowState.NOT_FOUND.value), False)
    text = columns.replace_where(text, not_found, rows, _not_found_text)
    searched = pc.and_(
        pc.fill_null(pc.equal(verdict, Verdict.DOES_NOT_RESOLVE.value), False),
        columns.truthy(verdicts["searched"]),
    )
    text = columns.replace_where(
        text, searched, rows, lambda t: pc.binary_join_element_wise(t["text"], _title_note(t), "")
    )
    decided_by_reason = pa.array(list(_INVALID_BY_REASON))
    parser_said = pc.and_(
        pc.and_(
            pc.fill_null(pc.equal(verdict, RowState.INVALID.value), False),
            columns.truthy(refs["parse_error"]),
        ),
        pc.invert(pc.fill_null(pc.is_in(verdicts["reason"], value_set=decided_by_reason), False)),
    )
    return columns.replace_where(
        text,
        parser_said,
        rows,
        lambda t: pc.binary_join_element_wise(t["text"], " Parser said: ", t["parse_error"], ""),
    )


def _sources_tried(verdicts: pa.Table) -> pa.Array:
    """Which register answered (or failed to), with the tier it was read from; for a title
    search, every index asked."""
    verdict, register = verdicts["verdict"], verdicts["register"]
    title = pc.and_(
        pc.fill_null(pc.equal(verdicts["queried_by"], "title"), False),
        pc.fill_null(pc.not_equal(verdict, Verdict.MATCHES.value), True),
    )
    kinds = pa.array(list(_REGISTER_FOR_TYPE))
    by_type = pa.array(list(_REGISTER_FOR_TYPE.values())).take(
        pc.index_in(verdicts["id_type"], value_set=kinds)
    )
    named = columns.first_truthy(register, by_type)
    tier = verdicts["tier"]
    entry = pc.if_else(
        columns.truthy(tier), pc.binary_join_element_wise(named, " (", tier, ")", ""), named
    )
    unregistered = pc.and_(
        pc.fill_null(
            pc.is_in(
                verdict, value_set=pa.array([RowState.INVALID.value, Verdict.NOT_COVERED.value])
            ),
            False,
        ),
        pc.invert(columns.truthy(register)),
    )
    nothing = pc.or_(pc.or_(title, unregistered), pc.invert(columns.truthy(named)))
    return columns.concat_lists(
        columns.keep_lists(verdicts["searched"], title),
        columns.singletons(pc.if_else(nothing, None, entry)),
    )


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


def _update_items(verdicts: pa.Table) -> tuple[np.ndarray, list[str], list[str], list[str]]:
    """(row, priority, reason code, text) of the items for the updates of each row's record.

    A retraction, withdrawal or removal is P0 even when every field matches; an expression of
    concern or partial retraction P1; a correction P3; a cited identifier that is itself a
    retraction or correction notice P1. Several updates of one kind share one item. Only rows
    with updates are read one by one: they are few.
    """
    rows, priorities, reasons, texts = [], [], [], []
    with_updates = np.flatnonzero(
        columns.truthy(verdicts["updates"]).to_numpy(zero_copy_only=False)
    )
    updates = verdicts["updates"].take(pa.array(with_updates)).to_pylist()
    for row, row_updates in zip(with_updates.tolist(), updates, strict=True):
        by_reason: dict[str, tuple[str, list[str]]] = {}
        for update in row_updates:
            worded = _update_wording(update)
            if worded is None:
                continue
            priority, reason, sentence = worded
            sentences = by_reason.setdefault(reason, (priority, []))[1]
            if sentence not in sentences:
                sentences.append(sentence)
        for reason, (priority, sentences) in by_reason.items():
            text = "; ".join(sentences)
            rows.append(row)
            priorities.append(priority)
            reasons.append(reason)
            texts.append(f"{text[0].upper()}{text[1:]}; pending human check.")
    return np.array(rows, np.int64), priorities, reasons, texts


def update_items(ref: dict[str, Any], verdict: dict[str, Any]) -> list[dict[str, Any]]:
    """CHECKLIST items for the updates of the record one verdict relied on, one per reason code.

    The one-row form of what `build_checklist` does for every row with updates (see
    `_update_items` for the priorities); `ref` is the reference row, `{}` when unknown.
    """
    refs = tables.from_rows(
        [{name: ref.get(name) for name in _REFERENCE_COLUMNS}], tables.REFERENCES
    )
    verdicts = tables.from_rows([verdict], tables.VERDICTS)
    refs = _only(refs, tables.REFERENCES, _REFERENCE_COLUMNS)
    verdicts = _only(verdicts, tables.VERDICTS, _VERDICT_COLUMNS)
    base = _base_items(refs, verdicts, "source_line" in verdict)
    rows, priorities, reasons, texts = _update_items(verdicts)
    fields = {"priority": priorities, "reason_code": reasons, "text": texts}
    items: list[dict[str, Any]] = _items(base, rows, fields).to_pylist()
    return items


def _base_items(refs: pa.Table, verdicts: pa.Table, line_from_verdict: bool) -> dict[str, pa.Array]:
    """The identity, cited fields, sources and links every item of a row shares."""
    return {
        "row_id": verdicts["row_id"],
        "source_path": columns.first_truthy(verdicts["source_path"], refs["source_path"]),
        "source_line": (verdicts if line_from_verdict else refs)["source_line"],
        "key": columns.first_truthy(verdicts["key"], refs["key"]),
        "outcome": verdicts["verdict"],
        "cited_title": refs["title"],
        "cited_authors": refs["authors"],
        "cited_year": refs["year"],
        "cited_id": columns.first_truthy(refs["id_raw"], verdicts["identifier"]),
        "sources_tried": _sources_tried(verdicts),
        "links": _row_links(refs, verdicts),
    }


def _items(base: dict[str, pa.Array], at: np.ndarray, fields: dict[str, Any]) -> pa.Table:
    """CHECKLIST rows: the base columns of rows `at`, with `fields` (columns or lists) added."""
    index = pa.array(at, pa.int64())
    data = {name: column.take(index) for name, column in base.items()}
    for name, value in fields.items():
        data[name] = value if isinstance(value, pa.Array) else pa.array(value, pa.string())
    data["human_result"] = pa.nulls(len(at), pa.string())
    return _as_checklist(pa.table(data))


def _as_checklist(table: pa.Table) -> pa.Table:
    """`table` in the CHECKLIST schema: its columns cast, missing ones null."""
    return pa.Table.from_arrays(
        [
            table[f.name].cast(f.type)
            if f.name in table.column_names
            else pa.nulls(len(table), f.type)
            for f in tables.CHECKLIST
        ],
        schema=tables.CHECKLIST,
    )


def build_checklist(
    references: pa.Table,
    verdicts: pa.Table,
    extra: pa.Table | None = None,
) -> pa.Table:
    """The CHECKLIST table: items for ordinary outcomes merged with `extra`, sorted.

    `references` and `verdicts` have the `tables` schemas (a verdict row names the register, tier
    and as-of time of the record relied on, so no records are needed); `extra` holds CHECKLIST
    items already made by other stages (the Chinese waterfall, duplicate groups). A row whose
    verdict another stage decided (an `extra` item whose `reason_code` equals the verdict's reason)
    gets no second, ordinary item. Items are sorted by priority (P0 first), then input order,
    stably. `human_result` is always null. Never raises on data.
    """
    others = _other_items(extra)
    due = _only(verdicts, tables.VERDICTS, _VERDICT_COLUMNS).filter(_maybe_due(verdicts))
    due = due.filter(pc.invert(_decided_elsewhere(due, others)))
    refs = _rows_of(_only(references, tables.REFERENCES, _REFERENCE_COLUMNS), due["row_id"])
    base = _base_items(refs, due, "source_line" in verdicts.column_names)
    priority, text, reason_code = _wording(due)
    ordinary = np.flatnonzero(pc.is_valid(priority).to_numpy(zero_copy_only=False))
    chosen = pa.array(ordinary, pa.int64())
    texts = _item_text(refs.take(chosen), due.take(chosen), text.take(chosen))
    rows, update_priorities, update_reasons, update_texts = _update_items(due)
    merged = pa.concat_tables(
        [
            _items(
                base,
                ordinary,
                {
                    "priority": priority.take(chosen),
                    "reason_code": reason_code.take(chosen),
                    "text": texts,
                },
            ),
            _items(
                base,
                rows,
                {
                    "priority": update_priorities,
                    "reason_code": update_reasons,
                    "text": update_texts,
                },
            ),
            others,
        ]
    )
    # Stable order before sorting: each row's ordinary item, then its update items, row by
    # row; then the other stages' items.
    major = np.concatenate([ordinary, rows, len(due) + np.arange(others.num_rows)])
    minor = np.concatenate(
        [
            np.zeros(len(ordinary), np.int64),
            _ranks_within(rows),
            np.zeros(others.num_rows, np.int64),
        ]
    )
    rank = pc.fill_null(
        pc.index_in(merged["priority"], value_set=pa.array(PRIORITY_ORDER)), len(PRIORITY_ORDER)
    )
    at = _first_index(verdicts["row_id"], merged["row_id"])
    # A row the verdicts do not hold sorts by its own row id (as it always has).
    position = pc.if_else(pc.is_valid(at), pc.cast(at, pa.int64()), merged["row_id"])
    order = np.lexsort((minor, major, position.to_numpy(), rank.to_numpy()))
    return merged.take(pa.array(order, pa.int64()))


def _other_items(extra: pa.Table | None) -> pa.Table:
    """Other stages' items in the CHECKLIST schema, `human_result` emptied."""
    if extra is None or extra.num_rows == 0:
        return tables.empty(tables.CHECKLIST)
    return _as_checklist(
        extra.drop_columns([n for n in ["human_result"] if n in extra.column_names])
    )


def _ranks_within(rows: np.ndarray) -> np.ndarray:
    """1, 2, … for the successive items of one row (`rows` is grouped by row)."""
    if len(rows) == 0:
        return np.zeros(0, np.int64)
    start = np.r_[True, rows[1:] != rows[:-1]]
    index = np.arange(len(rows))
    return index - np.maximum.accumulate(np.where(start, index, 0)) + 1


def _decided_elsewhere(due: pa.Table, others: pa.Table) -> pa.Array:
    """Rows of `due` whose (row_id, reason) is the (row_id, reason_code) of another stage's item."""
    if others.num_rows == 0 or due.num_rows == 0:
        return pa.repeat(pa.scalar(False), due.num_rows)
    probe = pa.table(
        {"row_id": due["row_id"], "reason": due["reason"], "at": np.arange(due.num_rows)}
    )
    decided = pa.table({"row_id": others["row_id"], "reason": others["reason_code"]})
    hit = probe.join(decided, keys=["row_id", "reason"], join_type="left semi")["at"]
    mask = np.zeros(due.num_rows, bool)
    mask[hit.to_numpy()] = True
    return pa.array(mask)


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


#: The columns items are made of.
_VERDICT_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "verdict", "reason", "id_type", "identifier",
    "register", "tier", "updates", "queried_by", "searched", "nearest",
)  # fmt: skip
_REFERENCE_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "title", "authors", "year", "id_raw", "doi",
    "pmid", "arxiv", "parse_error",
)  # fmt: skip


def _only(table: pa.Table, schema: pa.Schema, names: tuple[str, ...]) -> pa.Table:
    """`table`'s columns `names`, a missing one as nulls of its `schema` type."""
    return pa.table(
        {
            n: table[n]
            if n in table.column_names
            else pa.nulls(table.num_rows, schema.field(n).type)
            for n in names
        }
    )


def _rows_of(references: pa.Table, row_ids: pa.Array) -> pa.Table:
    """The references row of each of `row_ids` (the last one holding it), or a null row."""
    ids = references["row_id"]
    if _are_positions(ids):
        return references.take(_first_index(ids, row_ids))
    last = references.num_rows - 1
    backwards = ids.take(pa.array(np.arange(last, -1, -1)))
    return references.take(pc.subtract(last, _first_index(backwards, row_ids)))


def _are_positions(ids: pa.ChunkedArray) -> bool:
    """Whether each row id is its row's position (0, 1, 2, …), as a run's ids usually are."""
    return bool(np.array_equal(ids.to_numpy(), np.arange(len(ids))))


def _first_index(ids: pa.ChunkedArray, wanted: pa.Array) -> pa.Array:
    """Where each of `wanted` first occurs in `ids`, or null; no hash table when ids are
    positions."""
    if _are_positions(ids):
        inside = pc.and_(pc.greater_equal(wanted, 0), pc.less(wanted, len(ids)))
        return pc.if_else(inside, wanted, None)
    return pc.cast(pc.index_in(wanted, value_set=ids), pa.int64())


def duplicate_items(duplicates: pa.Table, references: pa.Table) -> pa.Table:
    """P3 CHECKLIST items for references that repeat a work cited earlier under another key.

    One item per group member after the first (in input order), naming the first key and what
    they share, for `build_checklist`'s `extra`. Never raises on data.
    """
    if duplicates.num_rows == 0:
        return tables.empty(tables.CHECKLIST)
    # Members in input order (stably), groups in the order of their first member.
    order = np.argsort(duplicates["row_id"].to_numpy(), kind="stable")
    group = np.unique(duplicates["group_id"].to_numpy()[order], return_inverse=True)[1]
    position = np.arange(len(order))
    first = np.full(group.max() + 1, len(order))
    np.minimum.at(first, group, position)
    later = position != first[group]
    sequence = np.lexsort((position[later], first[group][later]))
    member = pa.array(order[later][sequence])
    leader = pa.array(order[first[group][later][sequence]])
    refs = _rows_of(_only(references, tables.REFERENCES, _REFERENCE_COLUMNS), duplicates["row_id"])
    key = columns.first_truthy(duplicates["key"].combine_chunks(), refs["key"].combine_chunks())
    first_key = columns.first_truthy(key.take(leader), columns.constant("?", len(member)))
    basis, value = duplicates["basis"].take(member), duplicates["value"].take(member)
    shared = columns.strip(pc.binary_join_element_wise(basis, pc.fill_null(value, ""), " "))
    text = pc.binary_join_element_wise(
        "Same work as ", first_key, " (", shared,
        "), cited under another key; pending human check that both citations are intended.", "",
    )  # fmt: skip
    link = pa.nulls(len(member), pa.string())
    for kind in ("doi", "pmid", "arxiv"):
        link = pc.if_else(
            pc.fill_null(pc.equal(basis, kind), False), _link_column(kind, value), link
        )
    refs = refs.take(member)
    count = len(member)
    return _as_checklist(
        pa.table(
            {
                "row_id": duplicates["row_id"].take(member),
                "source_path": refs["source_path"],
                "source_line": refs["source_line"],
                "key": key.take(member),
                "priority": columns.constant("P3", count),
                "reason_code": columns.constant(Reason.DUPLICATE_REFERENCE.value, count),
                "cited_title": refs["title"],
                "cited_authors": refs["authors"],
                "cited_year": refs["year"],
                "cited_id": refs["id_raw"],
                "sources_tried": columns.singletons(pa.nulls(count, pa.string())),
                "text": text,
                "links": columns.singletons(link),
            }
        )
    )
