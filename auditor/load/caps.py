"""Caps on what one entry may hold: a field's length and the names of its author list.

No real reference has a 64 KiB title or ten thousand authors (the longest author lists, of
particle-physics collaborations, have about 3,000 names). An entry past a cap is kept as an
`INVALID` row (reason `parse_error`) whose `parse_error` names the cap, and the over-long values
are cut to the cap, so one hostile entry cannot make the run's memory and reports grow with it:
a 50 MB title costs 64 KiB in every report, not 50 MB in each. The loaders stop reading a name
list after `MAX_NAMES + 1` names (`names.py`), so ten million authors are never all split.

`cap_references(table)` works on whole columns (Arrow lengths), so rows within the caps cost one
comparison per column; only the rows over a cap are rebuilt.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from auditor.errors import Reason
from auditor.load.interface import Problem
from auditor.tables import RowState

__all__ = ["MAX_FIELD_CHARS", "MAX_NAMES", "cap_references"]

#: Longest text field kept, in characters (64 KiB).
MAX_FIELD_CHARS = 64 * 1024
#: Most author names kept for one entry.
MAX_NAMES = 10_000

#: The columns that hold the user's text (the others are derived from these, or the loader's).
_TEXT = (
    "key", "entry_type", "declared_type", "id_raw", "doi", "pmid", "arxiv", "title",
    "container_title", "volume", "issue", "pages", "issn", "language", "url",
)  # fmt: skip


#: Below this many rows the caps are checked in Python: `auditor load` of a small file then
#: never imports `pyarrow.compute` (as `classify` does not).
_COLUMN_PATH_ROWS = 1000


def _row_over(row: dict[str, object]) -> list[str]:
    why = [
        f"{name} is longer than the cap of {MAX_FIELD_CHARS:,} characters"
        for name in _TEXT
        if isinstance(value := row.get(name), str) and len(value) > MAX_FIELD_CHARS
    ]
    authors = row.get("authors")
    if isinstance(authors, list) and len(authors) > MAX_NAMES:
        why.append(f"more than the cap of {MAX_NAMES:,} author names")
    if isinstance(authors, list) and any(
        isinstance(a, str) and len(a) > MAX_FIELD_CHARS for a in authors
    ):
        why.append(f"an author name is longer than the cap of {MAX_FIELD_CHARS:,} characters")
    return why


def _lengths(array: pa.Array) -> np.ndarray:
    """Each value's length from the offsets buffer of a string array (UTF-8 bytes) or a list
    array (items). Read from the buffer: `Array.to_numpy` would import pandas (0.24 s)."""
    large = pa.types.is_large_string(array.type) or pa.types.is_large_list(array.type)
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64 if large else np.int32)
    return np.diff(offsets[array.offset : array.offset + len(array) + 1])


def _surely_within(table: pa.Table) -> bool:
    """Whether no row can pass a cap, judged from byte lengths alone (a value has at least as
    many bytes as characters). The usual answer, `True`, costs a pass over the offsets: no
    `pyarrow.compute` import (about 35 ms of a small `auditor load`) and no rows in Python."""
    strings = (pa.string(), pa.large_string())
    for name in _TEXT:
        if name in table.column_names and table.column(name).type in strings:
            for chunk in table.column(name).chunks:
                if len(chunk) and _lengths(chunk).max() > MAX_FIELD_CHARS:
                    return False
    if "authors" not in table.column_names:
        return True
    for chunk in table.column("authors").chunks:
        names = chunk.values  # every name in the chunk's buffer: a superset, so still a bound
        if len(chunk) and _lengths(chunk).max() > MAX_NAMES:
            return False
        if len(names) and _lengths(names).max() > MAX_FIELD_CHARS:
            return False
    return True


def _over(table: pa.Table) -> dict[int, list[str]]:
    """Row index → what passed a cap, for the rows that did."""
    if _surely_within(table):
        return {}
    if table.num_rows < _COLUMN_PATH_ROWS:
        names = [n for n in (*_TEXT, "authors") if n in table.column_names]
        rows = table.select(names).to_pylist()
        return {i: why for i, row in enumerate(rows) if (why := _row_over(row))}
    import pyarrow.compute as pc

    found: dict[int, list[str]] = {}
    for name in _TEXT:
        if name not in table.column_names:
            continue
        long = pc.fill_null(pc.greater(pc.utf8_length(table.column(name)), MAX_FIELD_CHARS), False)
        for i in pc.indices_nonzero(long).to_pylist():
            found.setdefault(int(i), []).append(
                f"{name} is longer than the cap of {MAX_FIELD_CHARS:,} characters"
            )
    authors = table.column("authors")
    many = pc.fill_null(pc.greater(pc.list_value_length(authors), MAX_NAMES), False)
    for i in pc.indices_nonzero(many).to_pylist():
        found.setdefault(int(i), []).append(f"more than the cap of {MAX_NAMES:,} author names")
    names = pc.list_flatten(authors)
    long_name = pc.fill_null(pc.greater(pc.utf8_length(names), MAX_FIELD_CHARS), False)
    if pc.any(long_name).as_py():
        parents = pc.list_parent_indices(authors).combine_chunks().to_numpy()
        rows = np.unique(parents[long_name.combine_chunks().to_numpy(zero_copy_only=False)])
        for i in rows:
            found.setdefault(int(i), []).append(
                f"an author name is longer than the cap of {MAX_FIELD_CHARS:,} characters"
            )
    return found


def _cut(row: dict[str, object], why: list[str]) -> dict[str, object]:
    for name in _TEXT:
        value = row.get(name)
        if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
            row[name] = value[:MAX_FIELD_CHARS]
    authors = row.get("authors")
    if isinstance(authors, list):
        row["authors"] = [
            a[:MAX_FIELD_CHARS] if isinstance(a, str) else a for a in authors[:MAX_NAMES]
        ]
    parsed = row.get("author_names")
    if isinstance(parsed, list):  # the parse beside them: as many, each part cut the same way
        row["author_names"] = [
            {k: v[:MAX_FIELD_CHARS] if isinstance(v, str) else v for k, v in name.items()}
            if isinstance(name, dict)
            else name
            for name in parsed[:MAX_NAMES]
        ]
    previous = row.get("parse_error")
    message = "; ".join(why) + " (the value was cut to the cap; the entry is not checked)"
    row["parse_error"] = f"{previous}; {message}" if previous else message
    row["row_state"] = RowState.INVALID.value
    row["row_reason"] = Reason.PARSE_ERROR.value
    return row


def cap_references(table: pa.Table) -> tuple[pa.Table, list[Problem]]:
    """`table` (a classified `references` table) with every row past a cap made `INVALID` and
    its values cut, and one error `Problem` per such row naming the cap."""
    found = _over(table)
    if not found:
        return table, []
    rows = sorted(found)
    fixed = [_cut(r, found[i]) for i, r in zip(rows, table.take(rows).to_pylist(), strict=True)]
    replacement = pa.Table.from_pylist(fixed, schema=table.schema)
    # Every row from `table` but the capped ones, which come from `replacement` (after it).
    order = np.arange(table.num_rows)
    order[rows] = table.num_rows + np.arange(len(rows))
    capped = pa.concat_tables([table, replacement]).take(pa.array(order))
    problems = [_problem(r) for r in fixed]
    return capped, problems


def _problem(row: dict[str, object]) -> Problem:
    line = row.get("source_line")
    return Problem(
        str(row["source_path"]),
        line if isinstance(line, int) else None,
        str(row["parse_error"]),
        "error",
        "over a cap",
    )
