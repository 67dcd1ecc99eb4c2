from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.errors import InputError
from auditor.transport.snapshot import read_snapshots, write_snapshot

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bibs" / "snapshot.parquet"


def test_sample_snapshot_reads():
    rows = read_snapshots([str(SAMPLE)])
    assert rows[("doi", "10.1038/nature14539")]["title"] == "Deep learning"
    assert {r["tier"] for r in rows.values()} == {"snapshot"}


def test_failures_in_a_snapshot_are_no_answer_and_later_files_win(tmp_path):
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    base = {"register": "pubmed", "id_type": "pmid", "identifier": "1"}
    write_snapshot(
        [
            {**base, "status": "found", "title": "old"},
            {**base, "identifier": "2", "status": "unreachable", "reason": "timeout"},
        ],
        str(first),
    )
    write_snapshot([{**base, "status": "found", "title": "new"}], str(second))
    rows = read_snapshots([str(first), str(second)])
    assert rows[("pmid", "1")]["title"] == "new"
    assert ("pmid", "2") not in rows


def test_missing_columns_are_null_and_bad_files_are_input_errors(tmp_path):
    partial = tmp_path / "partial.parquet"
    pq.write_table(
        pa.table(
            {
                "register": ["arxiv"],
                "id_type": ["arxiv"],
                "identifier": ["2001.00001"],
                "status": ["found"],
            }
        ),
        partial,
    )
    assert read_snapshots([str(partial)])[("arxiv", "2001.00001")]["title"] is None
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet")
    with pytest.raises(InputError):
        read_snapshots([str(broken)])
    with pytest.raises(InputError):
        read_snapshots([str(tmp_path / "absent.parquet")])
