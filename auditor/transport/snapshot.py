"""Snapshot tier: Parquet files of register records in the `RECORDS` schema.

A snapshot is the first source tier: records a user points at (`--snapshot PATH`, repeatable),
such as the one shipped with `sample_bibs/` or one exported from the cache by
`auditor cache export-snapshot`, so a CI job runs deterministically with no network. Only
definitive rows are used (`found`, `not_found`, `not_covered`); a failure recorded in a snapshot
is no answer. Later files win over earlier ones for the same `(id_type, identifier)`.

Rows of a *side* register (`istic`: the ISTIC CSL-JSON answer the Chinese-literature waterfall
asks about a DOI) answer a different question from the DOI's primary record, so they never shadow
it: `read_snapshots` leaves them out and `read_istic_snapshots` gives them to the waterfall.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from auditor.errors import InputError
from auditor.files import atomic_write_parquet
from auditor.tables import RECORDS, IdType, RecordStatus, Tier, from_rows

_DEFINITIVE = frozenset({RecordStatus.FOUND, RecordStatus.NOT_FOUND, RecordStatus.NOT_COVERED})

#: Registers whose rows sit beside a DOI's primary record rather than being it.
SIDE_REGISTERS = frozenset({"istic"})


def _conform(table: pa.Table) -> pa.Table:
    """`table` with exactly the `RECORDS` columns (missing ones null), cast to their types."""
    columns = []
    for field in RECORDS:
        if field.name in table.column_names:
            columns.append(table.column(field.name).cast(field.type))
        else:
            columns.append(pa.nulls(table.num_rows, field.type))
    return pa.Table.from_arrays(columns, schema=RECORDS)


def _definitive_rows(paths: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Definitive rows of every snapshot, in file order, with tier `snapshot`."""
    for path in paths:
        try:
            table = _conform(pq.read_table(path))
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise InputError(f"snapshot {path}: {exc}") from None
        for record in table.to_pylist():
            if record["status"] not in _DEFINITIVE:
                continue
            record["tier"] = str(Tier.SNAPSHOT)
            yield record


def read_snapshots(paths: Sequence[str]) -> dict[tuple[str, str], dict[str, Any]]:
    """Definitive primary rows of every snapshot, keyed by `(id_type, identifier)`, tier
    `snapshot`; rows of `SIDE_REGISTERS` are left out (see `read_istic_snapshots`).

    Raises `InputError` naming a file that cannot be read or lacks the identity columns.
    """
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for record in _definitive_rows(paths):
        if record["register"] not in SIDE_REGISTERS:
            rows[(record["id_type"], record["identifier"])] = record
    return rows


def read_istic_snapshots(paths: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The `istic` rows (`found` or `not_found`, id_type `doi`) keyed by lowercased DOI.

    Later files win. Raises `InputError` like `read_snapshots`.
    """
    rows: dict[str, dict[str, Any]] = {}
    for record in _definitive_rows(paths):
        if (
            record["register"] == "istic"
            and record["id_type"] == "doi"
            and record["status"] in (RecordStatus.FOUND, RecordStatus.NOT_FOUND)
        ):
            rows[record["identifier"].lower()] = record
    return rows


def write_snapshot(rows: Iterable[dict[str, Any]], out: str) -> int:
    """Write `rows` as a snapshot Parquet file at `out`, atomically; returns the row count.

    Rows are sorted by `(id_type, identifier)` so two exports of the same cache are identical.
    """
    covered = {t.value for t in IdType}
    clean = [
        {**{k: v for k, v in r.items() if k in RECORDS.names}, "tier": str(Tier.SNAPSHOT)}
        for r in rows
        # Records of references' identifiers only (the cache's prefix → agency rows stay there).
        if r.get("id_type") in covered
    ]
    clean.sort(key=lambda r: (str(r.get("id_type")), str(r.get("identifier"))))
    table = from_rows(clean, RECORDS)
    atomic_write_parquet(Path(out), table)
    return int(table.num_rows)
