"""The snapshot joined once for the run, chunk by chunk, answers each piece exactly as the
piece's own join of the whole snapshot would: the newest definitive primary row per key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.partitions import prejoin
from auditor.tables import RECORDS, from_rows
from auditor.transport.snapshot import join_snapshots, prejoined


def _row(identifier: str, title: str, status: str = "found", register: Any = "crossref") -> Any:
    return {
        "register": register,
        "id_type": "doi",
        "identifier": identifier,
        "status": status,
        "title": title,
    }


# Rows in snapshot order. The first file is cut into row groups of 2 and chunks of 4 rows.
FIRST = [
    _row("10.1/a", "a first"),
    _row("10.1/b", "b found"),
    _row("10.1/c", "c istic", register="istic"),  # a side register: never the primary row
    _row("10.1/a", "a second"),  # the same chunk, a later row: wins
    _row("10.1/b", "b failed", status="unreachable"),  # not definitive: no answer
    _row("10.1/g", "g early"),
    _row("10.1/c", "c crossref"),
    _row("10.1/e", "e without register", register=None),
    _row("10.1/d", "d first file"),
    _row("10.1/g", "g later chunk"),  # a later chunk of the same file: wins
]
SECOND = [_row("10.1/d", "d second file"), _row("10.1/f", "f not asked")]


#: A snapshot written by another tool may leave `register` null.
LOOSE = pa.schema([field.with_nullable(True) for field in RECORDS])


def _records(table: pa.Table) -> list[tuple[str, str, str]]:
    rows = table.select(["identifier", "title", "tier"]).to_pylist()
    return sorted((r["identifier"], r["title"], r["tier"]) for r in rows)


def test_each_piece_gets_the_rows_its_own_join_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(from_rows(FIRST, LOOSE), first, row_group_size=2)
    # No statistics: its chunk takes every key, not the ones in its identifier range.
    pq.write_table(from_rows(SECOND, LOOSE), second, write_statistics=False)
    monkeypatch.setattr(prejoin, "CHUNK_ROWS", 4)
    snapshots = [str(first), str(second)]
    chunks = prejoin.plan_chunks(snapshots)
    assert [(Path(c.path).name, c.row_groups) for c in chunks] == [
        ("a.parquet", (0, 1)),
        ("a.parquet", (2, 3)),
        ("a.parquet", (4,)),
        ("b.parquet", (0,)),
    ]
    assert (chunks[0].low, chunks[0].high) == ("10.1/a", "10.1/c")
    assert (chunks[3].low, chunks[3].high) == (None, None)
    pieces = [
        ["10.1/a", "10.1/b", "10.1/c", "10.1/zz"],
        ["10.1/a", "10.1/d", "10.1/e", "10.1/g"],
    ]
    for index, ids in enumerate(pieces):
        refs = pa.table({"id_type": ["doi"] * len(ids) + [None], "identifier": [*ids, "x"]})
        prejoin.write_keys(tmp_path, index, refs)
    written = sum(prejoin.join_chunk(chunk, str(tmp_path)) for chunk in chunks)
    assert written > 0
    for index, ids in enumerate(pieces):
        keys = pa.table({"id_type": ["doi"] * len(ids), "identifier": ids})
        own, _ = join_snapshots(snapshots, keys)
        with prejoined(prejoin.found_files(tmp_path, index)):
            joined, at = join_snapshots(snapshots, keys)
        assert _records(joined) == _records(own)
        assert keys["identifier"].take(at).to_pylist() == joined["identifier"].to_pylist()
    # What the rule gives, spelled out.
    with prejoined(prejoin.found_files(tmp_path, 1)):
        joined, _ = join_snapshots(
            snapshots, pa.table({"id_type": ["doi"] * 4, "identifier": pieces[1]})
        )
    assert _records(joined) == [
        ("10.1/a", "a second", "snapshot"),
        ("10.1/d", "d second file", "snapshot"),
        ("10.1/g", "g later chunk", "snapshot"),
    ]
    with prejoined(prejoin.found_files(tmp_path, 0)):
        joined, _ = join_snapshots(
            snapshots, pa.table({"id_type": ["doi"] * 3, "identifier": pieces[0][:3]})
        )
    assert _records(joined) == [
        ("10.1/a", "a second", "snapshot"),
        ("10.1/b", "b found", "snapshot"),
        ("10.1/c", "c crossref", "snapshot"),
    ]


def test_a_piece_without_hits_finds_nothing(tmp_path: Path) -> None:
    snap = tmp_path / "s.parquet"
    pq.write_table(from_rows(FIRST, LOOSE), snap)
    prejoin.write_keys(tmp_path, 0, pa.table({"id_type": ["doi"], "identifier": ["10.1/none"]}))
    assert [prejoin.join_chunk(c, str(tmp_path)) for c in prejoin.plan_chunks([str(snap)])] == [0]
    assert prejoin.found_files(tmp_path, 0) == []
    with prejoined([]):
        found, at = join_snapshots(
            [str(snap)], pa.table({"id_type": ["doi"], "identifier": ["10.1/a"]})
        )
    assert found.num_rows == 0 and len(at) == 0
