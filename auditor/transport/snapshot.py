"""Snapshot tier: Parquet files (or folders of them) of register records in the `RECORDS` schema.

A snapshot is the first source tier: records a user points at (`--snapshot PATH`, repeatable),
such as the one shipped with `sample_bibs/`, one exported from the cache by
`auditor cache export-snapshot`, or a whole register dump imported by `auditor snapshot import`.
A path may be one Parquet file or a folder of them (a dataset, read recursively in name order;
its `title_index/` folder, written by the import, is the title index, not records).

A snapshot is never loaded: the resolve stage hands over the distinct identifiers it needs and
DuckDB joins them against the files, streaming, so memory follows the references, not the
snapshot (10,000,000 records cost what their matching rows cost; `benchmarks/RESULTS.md`). Only
definitive rows are answers (`found`, `not_found`, `not_covered`); a failure recorded in a
snapshot is no answer. Later files win over earlier ones for the same `(id_type, identifier)`,
and within a file a later row wins.

Rows of a *side* register (`istic`: the ISTIC CSL-JSON answer the Chinese-literature waterfall
asks about a DOI) answer a different question from the DOI's primary record, so they never shadow
it: `join_snapshots` leaves them out and `lookup_istic` gives them to the waterfall.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from auditor.duckdb_connect import connect
from auditor.errors import InputError
from auditor.files import atomic_write_parquet
from auditor.tables import PREFIX_ID_TYPE, RECORDS, RecordStatus, Tier, from_rows

_DEFINITIVE = (RecordStatus.FOUND, RecordStatus.NOT_FOUND, RecordStatus.NOT_COVERED)

#: Registers whose rows sit beside a DOI's primary record rather than being it.
SIDE_REGISTERS = frozenset({"istic"})

#: Columns a snapshot file must have for its rows to be answers at all.
IDENTITY = ("register", "id_type", "identifier", "status")

#: DuckDB's own memory ceiling for a join: it spills beyond it rather than growing.
_MEMORY_LIMIT = "1GB"

#: A dataset's title index folder (`auditor.dumps.title_index`): tokens, not records.
_INDEX = "title_index"

_KEYS = pa.schema([pa.field("id_type", pa.string()), pa.field("identifier", pa.string())])

#: A cluster piece's snapshot rows, joined for the whole run beforehand
#: (`auditor.partitions.prejoin`): the primary join reads these files instead of the snapshot.
#: Scoped to one piece's audit by `prejoined`; the side lookups still read the snapshot itself.
_PREJOINED: ContextVar[tuple[str, ...] | None] = ContextVar("prejoined", default=None)


@contextmanager
def prejoined(files: Sequence[str]) -> Iterator[None]:
    """Within this block, `join_snapshots` answers from `files` alone: each holds at most one
    row per key, already the newest definitive primary row of its part of the snapshot, and a
    later file wins (as a later snapshot file does)."""
    token = _PREJOINED.set(tuple(files))
    try:
        yield
    finally:
        _PREJOINED.reset(token)


def snapshot_files(paths: Sequence[str]) -> list[str]:
    """Every Parquet file the snapshot `paths` name, folders expanded in name order.

    Raises `InputError` naming a path that is absent, a folder without Parquet files, or a file
    whose footer cannot be read or that lacks the identity columns (`IDENTITY`).
    """
    files: list[str] = []
    for path in paths:
        target = Path(path)
        if target.is_dir():
            found = sorted(
                str(p)
                for p in target.rglob("*.parquet")
                if p.is_file() and _INDEX not in p.relative_to(target).parts
            )
            if not found:
                raise InputError(f"snapshot {path}: a folder with no .parquet file")
        elif target.is_file():
            found = [str(target)]
        else:
            raise InputError(f"snapshot {path}: no such file or folder")
        for file in found:
            _check(file)
        files.extend(found)
    return files


def _check(file: str) -> None:
    try:
        names = set(pq.read_schema(file).names)
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise InputError(f"snapshot {file}: {exc}") from None
    missing = [name for name in IDENTITY if name not in names]
    if missing:
        raise InputError(f"snapshot {file}: lacks the column(s) {', '.join(missing)}")


def conform(table: pa.Table) -> pa.Table:
    """`table` with exactly the `RECORDS` columns (missing ones null), cast to their types."""
    columns = []
    for field in RECORDS:
        if field.name in table.column_names:
            columns.append(table.column(field.name).cast(field.type))
        else:
            columns.append(pa.nulls(table.num_rows, field.type))
    return pa.Table.from_arrays(columns, schema=RECORDS)


#: Below this many keys a join runs on one thread: it reads a few row groups, where each further
#: thread's scan buffers cost more memory than its speed saves (10 keys against 10,000,000
#: records: 0.19 s and 289 MB on two threads, 0.25 s and 244 MB on one; RESULTS.md).
_ONE_THREAD_KEYS = 10_000


def _connect(keys: int | None = None) -> duckdb.DuckDBPyConnection:
    small = keys is not None and keys < _ONE_THREAD_KEYS
    return connect(_MEMORY_LIMIT, threads=1 if small else None)


def literal_path(path: str) -> str:
    """`path` as DuckDB reads one file: its glob characters (`*`, `?`, `[`) each in a bracket
    class, so a folder named `runs[2024]` is that folder, not a pattern."""
    return re.sub(r"([*?\[])", r"[\1]", path)


def _literal(files: Sequence[str]) -> list[str]:
    return [literal_path(f) for f in files]


#: SQL text below is made at import from constants only: every path and value is a parameter
#: (`$files`) or a registered table (`wanted`, `hits`); `tests/test_sql_safety.py` checks it.
_STATUSES = ", ".join(f"'{status}'" for status in _DEFINITIVE)
# `<>` is pushed into the Parquet scan, `NOT IN` is not (twice the scan's time).
_PRIMARY = " AND ".join(f"s.register <> '{name}'" for name in sorted(SIDE_REGISTERS))
_SIDE_JOIN = """
    SELECT s.*, w.*, s.file_index AS hit_file, s.file_row_number AS hit_row
    FROM read_parquet($files, union_by_name = true) AS s
    JOIN wanted AS w ON {on}
    WHERE s.status IN ({statuses}) AND {where}
"""
#: Title-search answers kept in a snapshot, by `register \x1f query key # rank`.
_SEARCH_JOIN = _SIDE_JOIN.format(
    on="(s.register || chr(31) || regexp_extract(s.identifier, '^[^#]*#[0-9]+')) = w.want_key",
    statuses=_STATUSES,
    where="s.id_type = 'title_search'",
)
#: ISTIC rows by lowercased DOI.
_ISTIC_JOIN = _SIDE_JOIN.format(
    on="lower(s.identifier) = w.want_doi",
    statuses=_STATUSES,
    where=(
        f"s.register = 'istic' AND s.id_type = 'doi' AND s.status IN "
        f"('{RecordStatus.FOUND}', '{RecordStatus.NOT_FOUND}')"
    ),
)
_SIDE_JOINS = {"search": _SEARCH_JOIN, "istic": _ISTIC_JOIN}
#: Which row of which file answers which key, reading the identity columns alone.
_HITS = f"""
    SELECT s.file_index AS hit_file, s.file_row_number AS hit_row, w.want_at
    FROM read_parquet($files, union_by_name = true, file_row_number = true) AS s
    JOIN wanted AS w ON s.identifier = w.want_id AND s.id_type = w.want_type
    WHERE s.status IN ({_STATUSES}) AND {_PRIMARY}
"""
_ROWS = """
    SELECT s.*, h.want_at
    FROM read_parquet($files, union_by_name = true, file_row_number = true) AS s
    JOIN hits AS h ON {row_of}
"""
# One file: its row numbers alone name a row (a join on one column is a fifth cheaper).
_ROWS_OF_ONE = _ROWS.format(row_of="s.file_row_number = h.hit_row")
_ROWS_OF_MANY = _ROWS.format(row_of="s.file_index = h.hit_file AND s.file_row_number = h.hit_row")


def _join(files: list[str], wanted: pa.Table, which: str, key: str) -> pa.Table:
    """Newest definitive row of `files` per `key` (a column of `wanted`, distinct) present in
    them, with `wanted`'s columns.

    `which` names the join in `_SIDE_JOINS`. For the few rows the side lookups ask
    (title-search answers, ISTIC rows): one pass reads every column.
    """
    con = _connect()
    try:
        con.register("wanted", wanted)
        found = con.sql(_SIDE_JOINS[which], params={"files": _literal(files)}).to_arrow_table()
    except duckdb.Error as exc:
        raise InputError(f"snapshot {', '.join(files)}: {exc}") from None
    finally:
        con.close()
    return _newest_hits(found, key)


#: Up to this many hits come in the order of the keys; more come in the join's order. Nothing
#: downstream depends on the order of records, only on their keys, and sorting a million wide
#: rows costs a fifth of the join; a run that lists its records is far smaller than this.
ORDERED_ROWS = 1 << 17


def join_snapshots(paths: Sequence[str], keys: pa.Table) -> tuple[pa.Table, pa.Array]:
    """`(records, at)`: the snapshot rows answering `keys` (columns `id_type`, `identifier`;
    distinct) as `RECORDS`, and for each the row of `keys` it answers.

    One row per key found (the newest definitive primary row), tier `snapshot`, in the order of
    `keys` up to `ORDERED_ROWS` hits; keys without an answer are simply absent. Raises
    `InputError` naming a snapshot that cannot be read.
    """
    given = _PREJOINED.get()
    if not paths or keys.num_rows == 0 or given == ():
        return RECORDS.empty_table(), pa.array([], pa.int64())
    files = list(given) if given is not None else snapshot_files(paths)
    ids = keys.select(["id_type", "identifier"]).cast(_KEYS)
    wanted = pa.table(
        {
            "want_type": ids["id_type"],
            "want_id": ids["identifier"],
            "want_at": pa.array(np.arange(keys.num_rows, dtype=np.int64)),
        }
    )
    rows_of = _ROWS_OF_MANY if len(files) > 1 else _ROWS_OF_ONE
    con = _connect(keys.num_rows)
    try:
        con.register("wanted", wanted)
        # Which row of which file answers which key, reading the identity columns alone; then
        # the record columns of those rows only, so DuckDB skips every row group (and file)
        # without a hit: a server's handful of identifiers reads a few row groups, not the dump.
        hits = con.sql(_HITS, params={"files": _literal(files)}).to_arrow_table()
        con.register("hits", _newest_hits(hits))
        found = con.sql(rows_of, params={"files": _literal(files)}).to_arrow_table()
    except duckdb.Error as exc:
        raise InputError(f"snapshot {', '.join(files)}: {exc}") from None
    finally:
        con.close()
    found = _as_asked(found, wanted)
    if found.num_rows <= ORDERED_ROWS:
        found = found.take(pc.sort_indices(found["want_at"]))
    at = found["want_at"].combine_chunks()
    table = conform(found)
    tier = pa.repeat(pa.scalar(str(Tier.SNAPSHOT)), table.num_rows)
    tiered = table.set_column(RECORDS.get_field_index("tier"), RECORDS.field("tier"), tier)
    return tiered, at


def _newest_hits(hits: pa.Table, key: str = "want_at") -> pa.Table:
    """One row per `key`: the later file (`hit_file`), then the later row (`hit_row`), wins. A
    snapshot rarely repeats a key, so the distinct case costs one hash pass."""
    if hits.num_rows == 0 or pc.count_distinct(hits[key]).as_py() == hits.num_rows:
        return hits
    codes = pc.dictionary_encode(hits[key].combine_chunks()).indices.to_numpy()
    order = np.lexsort((hits["hit_row"].to_numpy(), hits["hit_file"].to_numpy(), codes))
    last = np.r_[codes[order][1:] != codes[order][:-1], True]
    return hits.take(pa.array(order[last]))


def _as_asked(found: pa.Table, wanted: pa.Table) -> pa.Table:
    """`found` without a row whose key is not the one it was fetched for (a file replaced
    between the two reads): such a key is then simply not in the snapshot."""
    at = found["want_at"]
    same = pc.and_(
        pc.equal(found["identifier"], wanted["want_id"].take(at)),
        pc.equal(found["id_type"], wanted["want_type"].take(at)),
    )
    if pc.all(pc.fill_null(same, False)).as_py():
        return found
    return found.filter(pc.fill_null(same, False))


def lookup_snapshots(
    paths: Sequence[str], keys: Iterable[tuple[str, str]]
) -> dict[tuple[str, str], dict[str, Any]]:
    """`join_snapshots` for a few keys, as dicts keyed by `(id_type, identifier)`."""
    pairs = list(dict.fromkeys(keys))
    table = pa.table(
        {"id_type": [p[0] for p in pairs], "identifier": [p[1] for p in pairs]}, schema=_KEYS
    )
    found, _ = join_snapshots(paths, table)
    return {(r["id_type"], r["identifier"]): r for r in found.to_pylist()}


def lookup_searches(
    paths: Sequence[str], queries: Iterable[tuple[str, str]], ranks: int
) -> list[dict[str, Any]]:
    """The kept title-search answer rows for `(register, query key)` pairs, ranks `0..ranks-1`.

    Rows are those `auditor.search.answers` writes (`id_type` `title_search`, identifier
    `<query key>#<rank>#…`); per register, query key and rank the newest row wins. Raises
    `InputError` like `join_snapshots`.
    """
    wanted = sorted(
        {f"{register}\x1f{key}#{rank}" for register, key in queries for rank in range(ranks)}
    )
    if not paths or not wanted:
        return []
    found = _join(
        snapshot_files(paths),
        pa.table({"want_key": pa.array(wanted, pa.string())}),
        "search",
        key="want_key",
    )
    rows = conform(found).to_pylist()
    return [{**row, "tier": str(Tier.SNAPSHOT)} for row in rows]


def lookup_istic(paths: Sequence[str], dois: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The `istic` rows (`found` or `not_found`, id_type `doi`) for `dois`, by lowercased DOI.

    Later files win. Raises `InputError` like `join_snapshots`.
    """
    wanted = sorted({doi.lower() for doi in dois})
    if not paths or not wanted:
        return {}
    found = _join(
        snapshot_files(paths),
        pa.table({"want_doi": pa.array(wanted, pa.string())}),
        "istic",
        key="want_doi",
    )
    rows = conform(found).to_pylist()
    return {row["identifier"].lower(): {**row, "tier": str(Tier.SNAPSHOT)} for row in rows}


def write_snapshot(rows: Iterable[dict[str, Any]], out: str) -> int:
    """Write `rows` as a snapshot Parquet file at `out`, atomically; returns the row count.

    Rows are sorted by `(id_type, identifier)` so two exports of the same cache are identical.
    """
    clean = [
        {**{k: v for k, v in r.items() if k in RECORDS.names}, "tier": str(Tier.SNAPSHOT)}
        for r in rows
        # The cache's prefix → agency rows are routing hints, not records: they stay there.
        if r.get("id_type") != PREFIX_ID_TYPE
    ]
    clean.sort(key=lambda r: (str(r.get("id_type")), str(r.get("identifier"))))
    table = from_rows(clean, RECORDS)
    atomic_write_parquet(Path(out), table)
    return int(table.num_rows)
