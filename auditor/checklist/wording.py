"""What an ordinary item says: its priority and text for each (verdict, reason), the title
search's or the parser's note, and the registers tried.

A priority orders a person's work; it is never a suspicion score. Below P0 an item always says
"pending human check" and never suggests fabrication. The wording is decided once per distinct
(verdict, reason) pair, not once per row.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms
from auditor.errors import Reason
from auditor.vocabulary import REGISTER_FOR_ID_TYPE, RowState, Verdict

__all__ = ["item_text", "sources_tried", "wording"]

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
    Reason.AUTHORS_MIDDLE_MISSING: (
        "P2",
        "The cited author list, marked 'and others', skips a register author between two it "
        "names; pending human check.",
    ),
    Reason.VENUE_DIFFERS: (
        "P1",
        "The cited journal or proceedings is not the register's venue for this work; "
        "pending human check.",
    ),
    Reason.VENUE_IS_CITATION: (
        "P1",
        "The journal or proceedings field holds a whole citation (authors, title, pages), not "
        "a venue; pending human check of what was meant.",
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
_UNREADABLE = (
    "P2",
    "The printed reference could not be read reliably (the fields that differ were guessed "
    "from its layout); compare the reference as printed with the register by hand; pending "
    "human check.",
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


def _joined(lists: pa.Array, separator: str) -> pa.Array:
    """`separator.join(value or [])` of every list."""
    return pc.fill_null(pc.binary_join(lists, separator), "")


def _title_note(verdicts: pa.Table) -> pa.Array:
    """What a title search said about a reference whose identifier does not resolve."""
    has_nearest = column_idioms.truthy(verdicts["nearest"])
    nearest = pc.list_element(column_idioms.keep_lists(verdicts["nearest"], has_nearest), 0)
    found = pc.binary_join_element_wise(
        " A work with this title exists (", nearest, "): the identifier may be wrong.", ""
    )
    asked = _joined(verdicts["searched"], ", ")
    none = pc.binary_join_element_wise(
        " No index holds a work with this title either (asked: ", asked, ").", ""
    )
    return pc.if_else(has_nearest, found, none)


def _not_found_text(verdicts: pa.Table) -> pa.Array:
    none = column_idioms.constant("none", verdicts.num_rows)
    asked = column_idioms.first_truthy(_joined(verdicts["searched"], ", "), none)
    nearest = column_idioms.first_truthy(_joined(verdicts["nearest"], "; "), none)
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
        case RowState.UNCHECKED if reason == Reason.UNREADABLE_REFERENCE:
            return _UNREADABLE
        case RowState.UNCHECKED:
            return _UNCHECKED[0], _UNCHECKED[1].format(reason=shown)
        case RowState.INVALID:
            if reason in _INVALID_BY_REASON:
                return _INVALID_BY_REASON[reason]
            return _INVALID[0], _INVALID[1].format(reason=shown)
        case Verdict.NOT_COVERED:
            return _NOT_COVERED[0], _NOT_COVERED[1].format(reason=shown)
    return "P2", f"Unrecognized outcome {verdict!r}; pending human check."


def wording(verdicts: pa.Table) -> tuple[pa.Array, pa.Array, pa.Array]:
    """(priority, text, reason code) of each row's ordinary item; priority null when none is due.

    `_priority_and_text` runs once per distinct (verdict, reason) pair, not once per row.
    """
    verdict = pc.dictionary_encode(column_idioms.array(verdicts["verdict"]), null_encoding="encode")
    reason = pc.dictionary_encode(column_idioms.array(verdicts["reason"]), null_encoding="encode")
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


def item_text(refs: pa.Table, verdicts: pa.Table, text: pa.Array) -> pa.Array:
    """The ordinary items' texts with what the title search or the parser said."""
    verdict = verdicts["verdict"]
    rows = verdicts.append_column("text", column_idioms.array(text)).append_column(
        "parse_error", refs["parse_error"]
    )
    not_found = pc.fill_null(pc.equal(verdict, RowState.NOT_FOUND.value), False)
    text = column_idioms.replace_where(text, not_found, rows, _not_found_text)
    searched = pc.and_(
        pc.fill_null(pc.equal(verdict, Verdict.DOES_NOT_RESOLVE.value), False),
        column_idioms.truthy(verdicts["searched"]),
    )
    text = column_idioms.replace_where(
        text, searched, rows, lambda t: pc.binary_join_element_wise(t["text"], _title_note(t), "")
    )
    decided_by_reason = pa.array(list(_INVALID_BY_REASON))
    parser_said = pc.and_(
        pc.and_(
            pc.fill_null(pc.equal(verdict, RowState.INVALID.value), False),
            column_idioms.truthy(refs["parse_error"]),
        ),
        pc.invert(pc.fill_null(pc.is_in(verdicts["reason"], value_set=decided_by_reason), False)),
    )
    return column_idioms.replace_where(
        text,
        parser_said,
        rows,
        lambda t: pc.binary_join_element_wise(t["text"], " Parser said: ", t["parse_error"], ""),
    )


def sources_tried(verdicts: pa.Table) -> pa.Array:
    """Which register answered (or failed to), with the tier it was read from; for a title
    search, every index asked."""
    verdict, register = verdicts["verdict"], verdicts["register"]
    title = pc.and_(
        pc.fill_null(pc.equal(verdicts["queried_by"], "title"), False),
        pc.fill_null(pc.not_equal(verdict, Verdict.MATCHES.value), True),
    )
    kinds = pa.array(list(REGISTER_FOR_ID_TYPE))
    by_type = pa.array(list(REGISTER_FOR_ID_TYPE.values())).take(
        pc.index_in(verdicts["id_type"], value_set=kinds)
    )
    named = column_idioms.first_truthy(register, by_type)
    tier = verdicts["tier"]
    entry = pc.if_else(
        column_idioms.truthy(tier), pc.binary_join_element_wise(named, " (", tier, ")", ""), named
    )
    unregistered = pc.and_(
        pc.fill_null(
            pc.is_in(
                verdict, value_set=pa.array([RowState.INVALID.value, Verdict.NOT_COVERED.value])
            ),
            False,
        ),
        pc.invert(column_idioms.truthy(register)),
    )
    nothing = pc.or_(pc.or_(title, unregistered), pc.invert(column_idioms.truthy(named)))
    return column_idioms.concat_lists(
        column_idioms.keep_lists(verdicts["searched"], title),
        column_idioms.singletons(pc.if_else(nothing, None, entry)),
    )
