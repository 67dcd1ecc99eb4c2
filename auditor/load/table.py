"""References tables: Parquet files and JSON Lines read as columns, never row by row.

A pipeline that already holds its references in Arrow (`refs.parquet`) or as JSON Lines
(`refs.jsonl`, `.ndjson`: one object per line) hands them over without going through text.
Columns are found by name, case-insensitively: the `references` schema names (`title`,
`authors`, `year`, `container_title`, `doi`, …) or the CSV loader's names (`journal`, `type`,
`id`), each overridable with `--map FIELD=COLUMN` like CSV. `authors` is a list of strings or one
string with `;` between names; `year` an integer or a string holding a four-digit year. Every
step is an Arrow kernel over whole columns: a million rows load in about a second.

`source_line` is the 1-based row number (Parquet) or line number (JSON Lines). A JSON line that is
not an object becomes a row with `parse_error` naming its line, and the rest of the file loads.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.errors import InputError
from auditor.load.caps import cap_references
from auditor.load.csv import DEFAULT_COLUMNS
from auditor.load.interface import ENTRY_COLUMNS, LoadOutcome, Problem
from auditor.load.table_cells import clean_authors, collapse_spaces, strings, years
from auditor.result import InputFile

# pyarrow.compute is imported in the functions that use it: `auditor load x.bib` imports this
# module (for `is_table`) and never needs it (0.03 s of start-up).

__all__ = ["TABLE_SUFFIXES", "clean_authors", "is_table", "load_table_piece", "load_tables"]

#: Extension → table format.
TABLE_SUFFIXES: dict[str, str] = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}

#: CSV names that stand for a `references` column.
_CSV_NAMES = {"journal": "container_title", "type": "declared_type", "id": "id_raw"}
_FIELDS = frozenset(ENTRY_COLUMNS) | frozenset(DEFAULT_COLUMNS) | {"author"}
#: The columns a table may fill; the rest are the loader's or classify's to set.
_FILLED = tuple(c for c in ENTRY_COLUMNS if c not in ("parse_error", "warnings", "source_line"))


def is_table(path: str, fmt: str | None = None) -> bool:
    """Whether `path` is read by this module (by `fmt`, else by extension)."""
    if fmt is not None:
        return fmt in TABLE_SUFFIXES.values()
    return Path(path).suffix.lower() in TABLE_SUFFIXES


def _field_name(field: str) -> str:
    name = field.strip().lower()
    name = {"author": "authors", **_CSV_NAMES}.get(name, name)
    if name not in _FIELDS:
        known = ", ".join(sorted(set(ENTRY_COLUMNS) | set(DEFAULT_COLUMNS)))
        raise InputError(f"--map: unknown field {field!r} (known: {known})")
    return name


def _columns_for(names: Sequence[str], column_map: Mapping[str, str]) -> dict[str, str]:
    """`references` column → the table's column that fills it."""
    lower = {name.lower(): name for name in names}
    chosen: dict[str, str] = {}
    for column in _FILLED:
        for candidate in (column, *(k for k, v in _CSV_NAMES.items() if v == column)):
            if candidate in lower:
                chosen[column] = lower[candidate]
                break
    if "authors" not in chosen and "author" in lower:
        chosen["authors"] = lower["author"]
    for field, column in column_map.items():
        name = _field_name(field)
        if column.strip().lower() not in lower:
            raise InputError(f"--map {field}={column}: no column {column!r} in the table")
        chosen[name] = lower[column.strip().lower()]
    return chosen


def _check_types(raw: pa.Table, chosen: Mapping[str, str]) -> None:
    """`InputError` naming the first column whose type cannot fill its field (a `title` that is
    `list<string>`, an `authors` of structs): guessing a text from it would be a made-up value."""
    for name, column in chosen.items():
        kind = raw.schema.field(column).type
        if name == "authors":
            listed = pa.types.is_list(kind) or pa.types.is_large_list(kind)
            ok = not pa.types.is_nested(kind) or (
                listed
                and pa.types.is_string(kind.value_type)
                or listed
                and pa.types.is_large_string(kind.value_type)
            )
        elif name == "authors_et_al":
            ok = True
        else:
            ok = not pa.types.is_nested(kind)
        if not ok:
            expected = "a list of strings or text" if name == "authors" else "text or a number"
            raise InputError(f"column {column!r} is {kind}, not {expected} (field {name!r})")


def _entries(
    raw: pa.Table, column_map: Mapping[str, str], pool: ThreadPoolExecutor
) -> tuple[pa.Table, pa.Array, Future[tuple[pa.Array, pa.Array]] | None]:
    """The `ENTRY_COLUMNS` of `raw`, a mask of rows whose year cell was not a year, and the
    `clean_authors` job of its author column (running in `pool`; the table holds empty author
    lists until the caller puts its result in)."""

    chosen = _columns_for(raw.column_names, column_map)
    _check_types(raw, chosen)
    n = raw.num_rows
    columns: dict[str, pa.Array | pa.ChunkedArray] = {}
    bad_year = pa.repeat(pa.scalar(False), n)
    authors = None
    for name, column in chosen.items():
        values = raw.column(column)
        if name == "authors":
            # Arrow kernels, which let go of the GIL: they overlap the rest and `classify`.
            authors = pool.submit(clean_authors, values)
        elif name == "year":
            columns["year"], bad_year = years(values)
        elif name == "authors_et_al":
            continue  # derived from the author list
        else:
            columns[name] = strings(values)
    if "title" in columns:
        columns["title"] = collapse_spaces(columns["title"])
    arrays = []
    for name in ENTRY_COLUMNS:
        field = tables.REFERENCES.field(name)
        if name in columns:
            column = columns[name]
            # `pa.chunked_array([chunked])` converts a chunked array value by value in Python.
            chunked = column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])
            arrays.append(chunked.cast(field.type))
        elif name == "authors":
            empty = pa.ListArray.from_arrays(
                pa.array(np.zeros(n + 1, np.int32)), pa.array([], pa.string())
            )
            arrays.append(pa.chunked_array([empty.cast(field.type)]))
        else:
            arrays.append(pa.nulls(n, field.type))
    return pa.Table.from_arrays(arrays, names=list(ENTRY_COLUMNS)), bad_year, authors


def _read_jsonl(path: str) -> tuple[pa.Table, np.ndarray, list[Problem]]:
    """`(table, line per row, problems)`: Arrow's reader, else line by line on a bad line."""
    import pyarrow.json as pj  # on first use, like pyarrow.parquet

    try:
        table = pj.read_json(path)
        return table, np.arange(1, table.num_rows + 1, dtype=np.int32), []
    except pa.ArrowInvalid:
        pass  # a malformed line or mixed types: read line by line, naming each bad line
    rows: list[dict[str, object]] = []
    lines: list[int] = []
    problems: list[Problem] = []
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                value = f"not JSON ({exc.msg})"
            if not isinstance(value, dict):
                message = value if isinstance(value, str) else "not a JSON object"
                rows.append({"__parse_error": message})
                problems.append(Problem(path, number, message, "error"))
            else:
                rows.append({k: _cell(v) for k, v in value.items()})
            lines.append(number)
    names = list(dict.fromkeys(name for row in rows for name in row))  # not only the first row's
    table = pa.Table.from_pylist([{name: row.get(name) for name in names} for row in rows])
    return table, np.array(lines, np.int32), problems


def _cell(value: object) -> object:
    """A JSON value as a column cell: lists of names stay lists, numbers stay, the rest text."""
    if value is None or isinstance(value, (int, float, str)):
        return (
            str(value)
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else (value)
        )
    if isinstance(value, list):
        return "; ".join(str(v) for v in value if v is not None)
    return json.dumps(value)


def _read(path: str, fmt: str) -> tuple[pa.Table, np.ndarray, list[Problem]]:
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq  # on first use: `auditor load refs.bib` never needs it

            table = pq.read_table(path)
            return table, np.arange(1, table.num_rows + 1, dtype=np.int32), []
        return _read_jsonl(path)
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read as {fmt} ({exc})") from None


def _digest(path: str) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def load_tables(
    paths: Sequence[str],
    *,
    fmt: str | None = None,
    column_map: Mapping[str, str] | None = None,
    closed_legs: frozenset[str] = frozenset(),
) -> LoadOutcome:
    """Load every references table in `paths` into one classified `references` table.

    `fmt` (`parquet` or `jsonl`) forces the format, else the extension decides; `closed_legs` go
    to `classify`. A bibliography file among the tables is an `InputError` (one run reads
    tables or bibliographies, not both). Raises
    `InputError` naming a file that cannot be read, an unknown `--map` field, or a mapped column
    the table lacks; never for a bad row.
    """
    others = [p for p in paths if not is_table(p, fmt)]
    if others:
        raise InputError(
            f"{others[0]}: not a references table; audit tables and bibliographies apart"
        )
    parts: list[pa.Table] = []
    problems: list[Problem] = []
    inputs: list[InputFile] = []
    jobs: list[Future[tuple[pa.Array, pa.Array]] | None] = []
    offset = 0
    with ThreadPoolExecutor(max_workers=1) as pool:
        for path in paths:
            name = fmt or TABLE_SUFFIXES.get(Path(path).suffix.lower(), "parquet")
            raw, lines, file_problems = _read(path, name)
            part, job, part_problems = _part(raw, lines, path, name, offset, column_map, pool)
            parts.append(part)
            jobs.append(job)
            problems.extend([*file_problems, *part_problems])
            inputs.append(InputFile(path, _digest(path), name, part.num_rows))
            offset += part.num_rows
        classified = _assemble(parts, jobs, closed_legs)
    classified, over = cap_references(classified)
    return LoadOutcome(classified, (*problems, *over[:5]), tuple(inputs))


def load_table_piece(
    path: str,
    raw: pa.Table,
    *,
    first_line: int,
    offset: int,
    column_map: Mapping[str, str] | None = None,
    closed_legs: frozenset[str] = frozenset(),
) -> LoadOutcome:
    """Row groups of one Parquet references table (`raw`, read by the caller) as `load_tables`
    would load them inside the whole file: `source_line` counts from `first_line`, `row_id`
    from `offset`. `inputs` is empty (the file's digest is its first piece's business).

    What a cluster worker calls on its own row groups (`auditor.partitions.read`).
    """
    lines = np.arange(first_line, first_line + raw.num_rows, dtype=np.int32)
    with ThreadPoolExecutor(max_workers=1) as pool:
        part, job, problems = _part(raw, lines, path, "parquet", offset, column_map, pool)
        classified = _assemble([part], [job], closed_legs)
    classified, over = cap_references(classified)
    return LoadOutcome(classified, (*problems, *over[:5]), ())


def _part(
    raw: pa.Table,
    lines: np.ndarray,
    path: str,
    name: str,
    offset: int,
    column_map: Mapping[str, str] | None,
    pool: ThreadPoolExecutor,
) -> tuple[pa.Table, Future[tuple[pa.Array, pa.Array]] | None, list[Problem]]:
    """One file's (or piece's) stamped entries, its author job and its year warnings."""
    import pyarrow.compute as pc

    try:
        entries, bad_year, job = _entries(raw, column_map or {}, pool)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    part = _stamped(entries, raw, lines, bad_year, path, name, offset)
    bad = pc.indices_nonzero(bad_year).to_pylist()
    problems = [Problem(path, int(lines[j]), "year is not a year", "warning") for j in bad[:5]]
    return part, job, problems


def _assemble(
    parts: list[pa.Table],
    jobs: list[Future[tuple[pa.Array, pa.Array]] | None],
    closed_legs: frozenset[str],
) -> pa.Table:
    """The stamped parts as one classified `REFERENCES` table with their cleaned authors."""
    table = pa.concat_tables(parts) if parts else pa.table({})
    table = pa.Table.from_arrays(
        [
            table.column(f.name).cast(f.type)
            if f.name in table.column_names
            else pa.nulls(table.num_rows, f.type)
            for f in tables.REFERENCES
        ],
        schema=tables.REFERENCES,
    )
    classified = classify(table, closed_legs=closed_legs)
    return _with_authors(classified, parts, jobs)


def _stamped(
    entries: pa.Table,
    raw: pa.Table,
    lines: np.ndarray,
    bad_year: pa.Array,
    path: str,
    name: str,
    offset: int,
) -> pa.Table:
    """`entries` with its line numbers, parse errors, warnings, row ids and source columns."""

    n = entries.num_rows
    line_index = entries.schema.get_field_index("source_line")
    entries = entries.set_column(line_index, entries.schema.field(line_index), pa.array(lines))
    if "__parse_error" in raw.column_names:
        i = entries.schema.get_field_index("parse_error")
        errors = raw.column("__parse_error").cast(pa.string())
        entries = entries.set_column(i, entries.schema.field(i), errors)
    # Built from offsets: `if_else` over two list scalars took 1.7 s for a million rows.
    flagged = bad_year.to_numpy(zero_copy_only=False)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(flagged, out=offsets[1:])
    warn = pa.ListArray.from_arrays(
        pa.array(offsets), pa.repeat(pa.scalar("year is not a year"), int(offsets[-1]))
    )
    i = entries.schema.get_field_index("warnings")
    entries = entries.set_column(i, entries.schema.field(i), warn)
    return (
        entries.append_column("row_id", pa.array(np.arange(offset, offset + n, dtype=np.int64)))
        .append_column("source_path", pa.repeat(pa.scalar(path, pa.string()), n))
        .append_column("source_format", pa.repeat(pa.scalar(name, pa.string()), n))
    )


def _with_authors(
    table: pa.Table, parts: list[pa.Table], jobs: list[Future[tuple[pa.Array, pa.Array]] | None]
) -> pa.Table:
    """`table` with the cleaned author lists of each part (empty where a part had none)."""
    authors, et_al = [], []
    for part, job in zip(parts, jobs, strict=True):
        if job is None:
            authors.append(part.column("authors"))
            et_al.append(part.column("authors_et_al"))
        else:
            names, flags = job.result()
            authors.append(pa.chunked_array([names]))
            et_al.append(pa.chunked_array([flags]))
    for name, pieces in (("authors", authors), ("authors_et_al", et_al)):
        i = table.schema.get_field_index(name)
        field = table.schema.field(i)
        column = pa.chunked_array(
            [c.cast(field.type) for p in pieces for c in p.chunks], field.type
        )
        table = table.set_column(i, field, column)
    return table
