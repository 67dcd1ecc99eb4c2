"""CHECKLIST rows from columns: the columns an item is made of, the part every item of a row
shares (identity, cited fields, sources tried, links), and the lookup of each row's reference."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms, tables
from auditor.checklist.links import row_links
from auditor.checklist.wording import sources_tried

__all__ = [
    "REFERENCE_COLUMNS",
    "VERDICT_COLUMNS",
    "as_checklist",
    "base_items",
    "first_index",
    "items",
    "only",
    "rows_of",
]

#: The columns items are made of.
VERDICT_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "verdict", "reason", "id_type", "identifier",
    "register", "tier", "updates", "queried_by", "searched", "nearest",
)  # fmt: skip
REFERENCE_COLUMNS = (
    "row_id", "source_path", "source_line", "key", "title", "authors", "year", "id_raw", "doi",
    "pmid", "arxiv", "parse_error", "reference_text", "source_page", "source_label",
)  # fmt: skip


def only(table: pa.Table, schema: pa.Schema, names: tuple[str, ...]) -> pa.Table:
    """`table`'s columns `names`, a missing one as nulls of its `schema` type."""
    return pa.table(
        {
            n: table[n]
            if n in table.column_names
            else pa.nulls(table.num_rows, schema.field(n).type)
            for n in names
        }
    )


def rows_of(references: pa.Table, row_ids: pa.Array) -> pa.Table:
    """The references row of each of `row_ids` (the last one holding it), or a null row."""
    ids = references["row_id"]
    if are_positions(ids):
        return references.take(first_index(ids, row_ids))
    last = references.num_rows - 1
    backwards = ids.take(pa.array(np.arange(last, -1, -1)))
    return references.take(pc.subtract(last, first_index(backwards, row_ids)))


def are_positions(ids: pa.ChunkedArray) -> bool:
    """Whether each row id is its row's position (0, 1, 2, …), as a run's ids usually are."""
    return bool(np.array_equal(ids.to_numpy(), np.arange(len(ids))))


def first_index(ids: pa.ChunkedArray, wanted: pa.Array) -> pa.Array:
    """Where each of `wanted` first occurs in `ids`, or null; no hash table when ids are
    positions."""
    if are_positions(ids):
        inside = pc.and_(pc.greater_equal(wanted, 0), pc.less(wanted, len(ids)))
        return pc.if_else(inside, wanted, None)
    return pc.cast(pc.index_in(wanted, value_set=ids), pa.int64())


def base_items(refs: pa.Table, verdicts: pa.Table, line_from_verdict: bool) -> dict[str, pa.Array]:
    """The identity, cited fields, sources and links every item of a row shares."""
    return {
        "row_id": verdicts["row_id"],
        "source_path": column_idioms.first_truthy(verdicts["source_path"], refs["source_path"]),
        "source_line": (verdicts if line_from_verdict else refs)["source_line"],
        "key": column_idioms.first_truthy(verdicts["key"], refs["key"]),
        "outcome": verdicts["verdict"],
        "cited_title": refs["title"],
        "cited_authors": refs["authors"],
        "cited_year": refs["year"],
        "cited_id": column_idioms.first_truthy(refs["id_raw"], verdicts["identifier"]),
        "sources_tried": sources_tried(verdicts),
        "links": row_links(refs, verdicts),
        # a reference read from a document: the string as printed and where, to compare against
        **{f.name: refs[f.name] for f in tables.DOCUMENT_FIELDS},
    }


def items(base: dict[str, pa.Array], at: np.ndarray, fields: dict[str, Any]) -> pa.Table:
    """CHECKLIST rows: the base columns of rows `at`, with `fields` (columns or lists) added."""
    index = pa.array(at, pa.int64())
    data = {name: column.take(index) for name, column in base.items()}
    for name, value in fields.items():
        data[name] = value if isinstance(value, pa.Array) else pa.array(value, pa.string())
    data["human_result"] = pa.nulls(len(at), pa.string())
    return as_checklist(pa.table(data))


def as_checklist(table: pa.Table) -> pa.Table:
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
