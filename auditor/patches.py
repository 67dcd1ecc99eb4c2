"""Verdict patches: what a stage after compare decides, applied to the verdicts by one `merge`.

compare writes the base `VERDICTS` table. A later stage (the Chinese waterfall, the title search,
the duplicate groups) does not rebuild it: it returns a patch, a table of the rows it decides
(`row_id`) and only the `VERDICTS` columns it sets (usually `verdict` and `reason`, and the
record relied on: `register`, `tier`, `retrieved_at`, the field columns). `merge(base, *patches)`
applies them in order over whole columns; a later patch wins where two touch one cell.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables

__all__ = ["empty_patch", "merge", "patch_from_rows", "record_keys", "relied_on"]


def record_keys(
    register: pa.Array | pa.ChunkedArray,
    id_type: pa.Array | pa.ChunkedArray,
    identifier: pa.Array | pa.ChunkedArray,
) -> pa.ChunkedArray:
    """The `record_key` of each row: `register \x1f id_type \x1f identifier`, null when a part
    is null (no record named)."""
    key = pc.binary_join_element_wise(register, id_type, identifier, "\x1f")
    return key if isinstance(key, pa.ChunkedArray) else pa.chunked_array([key])


def relied_on(records: pa.Table, verdicts: pa.Table) -> pa.ChunkedArray:
    """The `record_key` of the record a verdict row names by `register`, `id_type` and
    `identifier`: that record, else the first record of its `(id_type, identifier)` under any
    register (a stage that names the register it asked, not the record's); null without an
    identifier or a record."""
    n = verdicts.num_rows
    if records.num_rows == 0 or n == 0:
        return pa.chunked_array([pa.nulls(n, pa.string())])
    own = record_keys(records["register"], records["id_type"], records["identifier"])
    named = record_keys(
        pc.fill_null(verdicts["register"], ""), verdicts["id_type"], verdicts["identifier"]
    )
    at = pc.index_in(named, value_set=own)
    unmatched = pc.and_(pc.is_null(at), pc.is_valid(named))
    if pc.any(unmatched).as_py():
        pairs = pc.binary_join_element_wise(records["id_type"], records["identifier"], "\x1f")
        wanted = pc.binary_join_element_wise(verdicts["id_type"], verdicts["identifier"], "\x1f")
        at = pc.if_else(unmatched, pc.index_in(wanted, value_set=pairs), at)
    return pa.chunked_array([own.combine_chunks().take(at)])


def empty_patch() -> pa.Table:
    """A patch that changes nothing."""
    return pa.table({"row_id": pa.array([], pa.int64())})


def patch_from_rows(rows: list[dict[str, object]], columns: list[str]) -> pa.Table:
    """A patch of `columns` (names of `VERDICTS` columns) from row dicts holding `row_id` and
    those columns (a missing key is null). Raises `KeyError` on a name `VERDICTS` lacks."""
    fields = [tables.VERDICTS.field("row_id"), *(tables.VERDICTS.field(c) for c in columns)]
    schema = pa.schema(fields)
    return pa.Table.from_pylist([{f.name: r.get(f.name) for f in fields} for r in rows], schema)


def _apply(base: pa.Table, patch: pa.Table) -> pa.Table:
    if patch.num_rows == 0:
        return base
    at = pc.index_in(base["row_id"], value_set=patch["row_id"])
    hit = pc.is_valid(at)
    for name in patch.column_names:
        if name == "row_id":
            continue
        field = base.schema.field(name)
        values = pc.take(patch[name].cast(field.type), at)
        column = pc.if_else(hit, values, base[name])
        base = base.set_column(base.schema.get_field_index(name), field, column)
    return base


def merge(base: pa.Table, *patches: pa.Table) -> pa.Table:
    """`base` (a `VERDICTS` table) with every patch applied in order, rows and order kept.

    A patch row whose `row_id` is not in `base` changes nothing; a column a patch lacks keeps
    its value. Raises `KeyError` for a patch column `base` lacks.
    """
    for patch in patches:
        base = _apply(base, patch)
    return base
