from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.errors import InputError
from auditor.tables import RECORDS
from auditor.transport.snapshot import (
    join_snapshots,
    lookup_istic,
    lookup_snapshots,
    snapshot_files,
    write_snapshot,
)

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bibs" / "snapshot.parquet"


def test_sample_snapshot_answers_what_is_asked_and_nothing_else():
    rows = lookup_snapshots([str(SAMPLE)], [("doi", "10.1038/nature14539"), ("doi", "10.0/none")])
    assert list(rows) == [("doi", "10.1038/nature14539")]
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
    rows = lookup_snapshots([str(first), str(second)], [("pmid", "1"), ("pmid", "2")])
    assert rows[("pmid", "1")]["title"] == "new"
    assert ("pmid", "2") not in rows
    # The order the user gave decides, not the file names.
    rows = lookup_snapshots([str(second), str(first)], [("pmid", "1")])
    assert rows[("pmid", "1")]["title"] == "old"


def test_within_a_file_the_later_row_wins(tmp_path):
    path = tmp_path / "dup.parquet"
    base = {"register": "arxiv", "id_type": "arxiv", "identifier": "2001.00001", "status": "found"}
    table = pa.Table.from_pylist([{**base, "title": "first"}, {**base, "title": "second"}])
    pq.write_table(table, path)
    assert lookup_snapshots([str(path)], [("arxiv", "2001.00001")])[("arxiv", "2001.00001")][
        "title"
    ] == ("second")


def test_a_folder_is_a_dataset_of_many_files(tmp_path):
    folder = tmp_path / "snap"
    for part in range(3):
        rows = [
            {
                "register": "pubmed",
                "id_type": "pmid",
                "identifier": str(part * 10 + i),
                "status": "found",
                "title": f"t{part}-{i}",
                "year": 2000 + i,
            }
            for i in range(5)
        ]
        write_snapshot(rows, str(folder / f"part-{part}" / "data.parquet"))
    assert len(snapshot_files([str(folder)])) == 3
    keys = pa.table({"id_type": ["pmid"] * 3, "identifier": ["1", "22", "99"]})
    found, at = join_snapshots([str(folder)], keys)
    assert found.schema == RECORDS
    answered = dict(zip(at.to_pylist(), found.column("title").to_pylist(), strict=True))
    assert answered == {0: "t0-1", 1: "t2-2"}  # each record names the key it answers
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .parquet"):
        snapshot_files([str(tmp_path / "empty")])


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
    assert (
        lookup_snapshots([str(partial)], [("arxiv", "2001.00001")])[("arxiv", "2001.00001")][
            "title"
        ]
        is None
    )
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet")
    with pytest.raises(InputError, match="broken.parquet"):
        lookup_snapshots([str(broken)], [("arxiv", "1")])
    with pytest.raises(InputError, match="absent"):
        lookup_snapshots([str(tmp_path / "absent.parquet")], [("arxiv", "1")])
    no_status = tmp_path / "nostatus.parquet"
    pq.write_table(
        pa.table({"register": ["a"], "id_type": ["doi"], "identifier": ["x"]}), no_status
    )
    with pytest.raises(InputError, match="status"):
        lookup_snapshots([str(no_status)], [("doi", "x")])


def test_istic_rows_are_found_by_lowercased_doi_and_never_shadow(tmp_path):
    snap = tmp_path / "s.parquet"
    write_snapshot(
        [
            {"register": "doi", "id_type": "doi", "identifier": "10.1/ab", "status": "found"},
            {
                "register": "istic",
                "id_type": "doi",
                "identifier": "10.1/AB",
                "status": "found",
                "title": "csl",
            },
        ],
        str(snap),
    )
    assert lookup_istic([str(snap)], ["10.1/Ab"])["10.1/ab"]["title"] == "csl"
    assert (
        lookup_snapshots([str(snap)], [("doi", "10.1/ab")])[("doi", "10.1/ab")]["register"] == "doi"
    )
    assert lookup_istic([str(snap)], ["10.1/other"]) == {}


@pytest.mark.parametrize("ordered_rows", [1 << 17, 3])
def test_each_hit_names_the_key_it_answers_in_order_or_not(
    tmp_path, monkeypatch: pytest.MonkeyPatch, ordered_rows: int
):
    from auditor.transport import snapshot

    monkeypatch.setattr(snapshot, "ORDERED_ROWS", ordered_rows)
    path = tmp_path / "snap.parquet"
    # Written in another order than the keys ask, a repeated identifier among them.
    rows = [
        {"register": "crossref", "id_type": "doi", "identifier": f"10.1/{k}", "status": "found",
         "title": f"T{k}"}
        for k in (7, 3, 9, 1, 5, 3)
    ]  # fmt: skip
    write_snapshot(rows, str(path))
    keys = pa.table(
        {"id_type": ["doi"] * 6, "identifier": [f"10.1/{k}" for k in (1, 2, 3, 5, 7, 9)]}
    )
    found, at = join_snapshots([str(path)], keys)
    assert found.schema == RECORDS
    pairs = sorted(zip(at.to_pylist(), found["identifier"].to_pylist(), strict=True))
    assert pairs == [(0, "10.1/1"), (2, "10.1/3"), (3, "10.1/5"), (4, "10.1/7"), (5, "10.1/9")]
    assert all(
        t == f"T{i.rsplit('/', 1)[1]}"
        for t, i in zip(found["title"].to_pylist(), found["identifier"].to_pylist(), strict=True)
    )
    if ordered_rows > found.num_rows:
        assert at.to_pylist() == [0, 2, 3, 4, 5]


def test_a_row_fetched_for_another_key_is_no_answer():
    # Between the two reads a file may be replaced: a fetched row must be the key's own.
    from auditor.transport.snapshot import _as_asked, _newest_hits

    wanted = pa.table(
        {"want_type": ["doi", "doi"], "want_id": ["10.1/a", "10.1/b"], "want_at": [0, 1]}
    )
    found = pa.table(
        {"id_type": ["doi", "doi"], "identifier": ["10.1/a", "10.1/zzz"], "want_at": [0, 1]}
    )
    assert _as_asked(found, wanted)["identifier"].to_pylist() == ["10.1/a"]
    hits = pa.table({"hit_file": [0, 1, 1, 0], "hit_row": [5, 2, 9, 7], "want_at": [3, 3, 3, 4]})
    newest = _newest_hits(hits)
    assert sorted(
        zip(
            newest["want_at"].to_pylist(),
            newest["hit_file"].to_pylist(),
            newest["hit_row"].to_pylist(),
            strict=True,
        )
    ) == [(3, 1, 9), (4, 0, 7)]
