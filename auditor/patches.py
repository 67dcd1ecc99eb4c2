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

__all__ = ["empty_patch", "merge", "patch_from_rows"]


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
