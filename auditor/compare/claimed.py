"""The claimed author names auditor/v2 reads: as written, except where the loader found a list.

A BibTeX `author` field that separates names with commas (`A B, C D, and E F`) is malformed, and
BibTeX (so v1) reads it literally as `Last = A B, First = C D`. The loader then keeps that literal
reading in `authors`, puts the names it means in `author_names`, and warns `author_list_commas`
(`auditor.load.names`). auditor/v2 compares the names meant: only those rows are rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["COMMA_LIST_WARNING", "v2_claimed_authors"]

#: The warning code the BibTeX loader gives a comma-separated author list.
COMMA_LIST_WARNING = "author_list_commas"


def _written(name: Mapping[str, str | None] | None) -> str:
    """A parsed name as `particle family, given`: what v2's name keys read as one name."""
    if not name:
        return ""
    family = " ".join(p for p in (name.get("particle"), name.get("family")) if p)
    return ", ".join(p for p in (family, name.get("given")) if p)


def v2_claimed_authors(references: pa.Table) -> pa.Array:
    """`authors` for auditor/v2: rows warned `author_list_commas` read from `author_names`."""
    authors = references["authors"].combine_chunks()
    if "author_names" not in references.column_names or references.num_rows == 0:
        return authors
    warnings = references["warnings"].combine_chunks()
    flat = pc.starts_with(pc.fill_null(pc.list_flatten(warnings), ""), COMMA_LIST_WARNING)
    hit = np.flatnonzero(flat.to_numpy(zero_copy_only=False))
    if hit.size == 0:
        return authors  # the common case: no comma list anywhere
    rows = np.unique(pc.list_parent_indices(warnings).to_numpy()[hit])
    values = authors.to_pylist()
    parsed = references["author_names"].combine_chunks()
    for row in rows.tolist():
        names = [n for n in map(_written, parsed[row].as_py() or []) if n]
        if names:
            values[row] = names
    return pa.array(values, authors.type)
