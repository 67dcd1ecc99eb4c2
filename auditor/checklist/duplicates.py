"""Items for references that repeat a work cited earlier under another key (P3)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms, tables
from auditor.checklist.items import REFERENCE_COLUMNS, as_checklist, only, rows_of
from auditor.checklist.links import link_column
from auditor.errors import Reason

__all__ = ["duplicate_items", "member_items"]


def _members_and_leaders(duplicates: pa.Table) -> tuple[pa.Array, pa.Array]:
    """Positions in `duplicates` of every group member after its group's first (members in
    input order, groups in the order of their first member), and of that first member."""
    order = np.argsort(duplicates["row_id"].to_numpy(), kind="stable")
    group = np.unique(duplicates["group_id"].to_numpy()[order], return_inverse=True)[1]
    position = np.arange(len(order))
    first = np.full(group.max() + 1, len(order))
    np.minimum.at(first, group, position)
    later = position != first[group]
    sequence = np.lexsort((position[later], first[group][later]))
    return pa.array(order[later][sequence]), pa.array(order[first[group][later][sequence]])


def duplicate_items(duplicates: pa.Table, references: pa.Table) -> pa.Table:
    """P3 CHECKLIST items for references that repeat a work cited earlier under another key.

    One item per group member after the first (in input order), naming the first key and what
    they share, for `build_checklist`'s `extra`. Never raises on data.
    """
    if duplicates.num_rows == 0:
        return tables.empty(tables.CHECKLIST)
    member, leader = _members_and_leaders(duplicates)
    refs = rows_of(only(references, tables.REFERENCES, REFERENCE_COLUMNS), duplicates["row_id"])
    key = column_idioms.first_truthy(
        duplicates["key"].combine_chunks(), refs["key"].combine_chunks()
    )
    first_key = column_idioms.first_truthy(
        key.take(leader), column_idioms.constant("?", len(member))
    )
    return member_items(duplicates.take(member), references, first_key)


def member_items(members: pa.Table, references: pa.Table, first_key: pa.Array) -> pa.Table:
    """The P3 items of `members` (DUPLICATES rows of members after their group's first, in
    order), each naming `first_key` (its group's first key, `?` when it has none)."""
    count = members.num_rows
    if count == 0:
        return tables.empty(tables.CHECKLIST)
    refs = rows_of(only(references, tables.REFERENCES, REFERENCE_COLUMNS), members["row_id"])
    key = column_idioms.first_truthy(members["key"].combine_chunks(), refs["key"].combine_chunks())
    basis, value = members["basis"].combine_chunks(), members["value"].combine_chunks()
    shared = column_idioms.strip(pc.binary_join_element_wise(basis, pc.fill_null(value, ""), " "))
    text = pc.binary_join_element_wise(
        "Same work as ", first_key, " (", shared,
        "), cited under another key; pending human check that both citations are intended.", "",
    )  # fmt: skip
    link = pa.nulls(count, pa.string())
    for kind in ("doi", "pmid", "arxiv"):
        link = pc.if_else(
            pc.fill_null(pc.equal(basis, kind), False), link_column(kind, value), link
        )
    return as_checklist(
        pa.table(
            {
                "row_id": members["row_id"],
                "source_path": refs["source_path"],
                "source_line": refs["source_line"],
                "key": key,
                "priority": column_idioms.constant("P3", count),
                "reason_code": column_idioms.constant(Reason.DUPLICATE_REFERENCE.value, count),
                "cited_title": refs["title"],
                "cited_authors": refs["authors"],
                "cited_year": refs["year"],
                "cited_id": refs["id_raw"],
                "sources_tried": column_idioms.singletons(pa.nulls(count, pa.string())),
                "text": text,
                "links": column_idioms.singletons(link),
            }
        )
    )
