"""Pieces are planned from footers and sizes, and a worker's piece reads as the whole run would."""

from __future__ import annotations

from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.errors import InputError
from auditor.load import load_files
from auditor.partitions.plan import plan_pieces, with_counts
from auditor.partitions.read import ReadOptions, count_rows, read_piece

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"


def _refs(n: int, start: int = 0) -> pa.Table:
    return pa.table(
        {
            "key": [f"k{i}" for i in range(start, start + n)],
            "doi": [f"10.5555/plan.{i}" for i in range(start, start + n)],
            "title": [f"Title {i}" for i in range(start, start + n)],
            "year": [2000 + i % 20 for i in range(start, start + n)],
        }
    )


def test_row_groups_are_cut_into_pieces_with_the_whole_runs_row_ids(tmp_path: Path) -> None:
    pq.write_table(_refs(250), tmp_path / "a.parquet", row_group_size=50)
    pq.write_table(_refs(70, 250), tmp_path / "b.parquet", row_group_size=50)
    pieces = plan_pieces([str(tmp_path)], partition_rows=120, partition_bytes=1)
    assert [(p.paths[0][-9:], p.row_groups, p.rows, p.offset) for p in pieces] == [
        ("a.parquet", (0, 1), 100, 0),
        ("a.parquet", (2, 3), 100, 100),
        ("a.parquet", (4,), 50, 200),
        ("b.parquet", (0, 1), 70, 250),
    ]
    whole = load_files([str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")]).table
    read = pa.concat_tables([read_piece(p, ReadOptions()).table for p in pieces])
    assert read.to_pylist() == whole.to_pylist()  # row ids, source lines, classification


def test_an_fsspec_url_is_read_by_the_worker_itself() -> None:
    fs = fsspec.filesystem("memory")
    with fs.open("/refs/part-0.parquet", "wb") as handle:
        pq.write_table(_refs(30), handle, row_group_size=10)
    pieces = plan_pieces(["memory://refs/*.parquet"], partition_rows=10, partition_bytes=1)
    assert len(pieces) == 3 and pieces[2].offset == 20
    table = read_piece(pieces[2], ReadOptions()).table
    assert table["row_id"].to_pylist() == list(range(20, 30))
    assert table["source_line"].to_pylist() == list(range(21, 31))
    assert table["identifier"].to_pylist()[0] == "10.5555/plan.20"


def test_bibliography_files_are_grouped_by_size_in_order(tmp_path: Path) -> None:
    names = ["thesis.bib", "screening.ris", "submissions.csv"]
    paths = [str(SAMPLES / n) for n in names]
    sizes = [(SAMPLES / n).stat().st_size for n in names]
    together = plan_pieces(paths, partition_rows=1, partition_bytes=sum(sizes))
    assert [len(p.paths) for p in together] == [3]
    # The largest file alone passes the budget: it gets a piece of its own.
    budget = max(sizes) - 1
    apart = plan_pieces(paths, partition_rows=1, partition_bytes=budget)
    assert all(len(p.paths) == 1 or p.size <= budget for p in apart)
    assert [q for p in apart for q in p.paths] == paths
    apart = plan_pieces(paths, partition_rows=1, partition_bytes=1)
    assert [p.paths for p in apart] == [(p,) for p in paths]
    counted = with_counts(apart, [count_rows(p, ReadOptions()) for p in apart])
    whole = load_files(paths).table
    read = pa.concat_tables([read_piece(p, ReadOptions()).table for p in counted])
    assert read["row_id"].to_pylist() == whole["row_id"].to_pylist()
    assert read["key"].to_pylist() == whole["key"].to_pylist()


def test_an_input_that_names_nothing_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        plan_pieces([str(tmp_path / "missing.parquet")], 10, 10)
    (tmp_path / "a.bib").write_text("@article{a, title={T}}\n")
    pq.write_table(_refs(3), tmp_path / "b.parquet")
    with pytest.raises(InputError, match="apart"):
        plan_pieces([str(tmp_path / "a.bib"), str(tmp_path / "b.parquet")], 10, 10)
