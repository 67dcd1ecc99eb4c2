"""A cluster run whose workers read, audit and write their own pieces gives the single-process
run's rows, row for row; the driver holds only the plan and the totals."""

from __future__ import annotations

import asyncio
import dataclasses
import resource
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auditor.partitions.read import ReadOptions
from auditor.partitions.run import MANIFEST, run_partitioned
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.report.view import build_view
from auditor.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import scaledata  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"
BIBS = [
    str(SAMPLES / "thesis.bib"),
    str(SAMPLES / "screening.ris"),
    str(SAMPLES / "submissions.csv"),
]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Worker processes on loopback; HTTP on any free port (8787 collides between runs).
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            memory_limit="1GiB",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _outputs(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    verdicts = [pq.read_table(p) for p in sorted((out / "verdicts").glob("part-*.parquet"))]
    checklist = [
        pq.read_table(p)
        for priority in ("P0", "P1", "P2", "P3")
        for p in sorted((out / "checklist" / priority).glob("part-*.parquet"))
    ]
    rows = pa.concat_tables(verdicts).to_pylist() if verdicts else []
    items = pa.concat_tables(checklist).to_pylist() if checklist else []
    return rows, items


def _stamped_now(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without the as-of of a row no tier answered (stamped with the time of its run)."""
    return [{**r, "retrieved_at": None} if r["tier"] is None else r for r in rows]


def _compare(single: Any, out: Path) -> None:
    rows, items = _outputs(out)
    view = build_view(single)
    assert _stamped_now(rows) == _stamped_now(view.rows.to_pylist())
    assert items == single.checklist.to_pylist()
    parts = sorted((out / "duplicates").glob("part-*.parquet"))
    dups = [row for p in parts for row in pq.read_table(p).to_pylist()]
    assert dups == single.duplicates.to_pylist()


def test_bibliography_files_in_small_pieces(client: Any, tmp_path: Path) -> None:
    settings = load_settings({}, inputs=BIBS, registers=registry.settings_defaults())
    settings = dataclasses.replace(settings, offline=True, cache_dir=str(tmp_path / "cache"))
    single = asyncio.run(run_audit(BIBS, settings))
    # One file per piece (pieces of ~1 row's bytes): duplicates and checklist order span them.
    run = run_partitioned(
        BIBS, settings, tmp_path / "out", client, options=ReadOptions(), partition_rows=1
    )
    # thesis.bib defines `@string` macros (kept whole); the RIS and CSV files are cut at
    # their records.
    paths = [Path(p.paths[0]).name for p in run.pieces]
    ris, rows = paths.count("screening.ris"), paths.count("submissions.csv")
    assert ris >= 2 and rows >= 2
    assert paths == ["thesis.bib", *["screening.ris"] * ris, *["submissions.csv"] * rows]
    assert single.duplicates.num_rows and single.checklist.num_rows  # both really compared
    _compare(single, tmp_path / "out")
    assert run.totals.counts == dict(build_view(single).totals)
    assert run.result is not None  # small: read back whole for the report set
    assert _stamped_now(build_view(run.result).rows.to_pylist()) == _stamped_now(
        build_view(single).rows.to_pylist()
    )
    assert run.result.run is not None
    assert [(i.path, i.rows, i.sha256) for i in run.result.run.inputs] == [
        (i.path, i.rows, i.sha256) for i in single.run.inputs
    ]
    assert (tmp_path / "out" / MANIFEST).exists()
    assert not (tmp_path / "out" / "_parts").exists()


def test_parquet_row_groups_against_a_snapshot(client: Any, tmp_path: Path) -> None:
    snapshot, vocab = scaledata.snapshot(3000, seed=7)
    refs = scaledata.references(snapshot, 2400, seed=7, vocab=vocab)
    snap, folder = tmp_path / "snap.parquet", tmp_path / "refs"
    folder.mkdir()
    pq.write_table(snapshot, snap)
    # A dataset folder of two files with small row groups: pieces are row groups, not files.
    pq.write_table(refs.slice(0, 1300), folder / "a.parquet", row_group_size=200)
    pq.write_table(refs.slice(1300), folder / "b.parquet", row_group_size=200)
    files = [str(folder / "a.parquet"), str(folder / "b.parquet")]
    base = registry.settings(
        offline=True, cache_dir=str(tmp_path / "cache"), fail_on=("none",), snapshots=(str(snap),)
    )
    single = asyncio.run(run_audit(files, base))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run = run_partitioned(
        [str(folder)], base, tmp_path / "out", client, options=ReadOptions(), partition_rows=400
    )
    assert max(p.rows or 0 for p in run.pieces) <= 400 and len(run.pieces) >= 6
    _compare(single, tmp_path / "out")
    assert run.totals.exit_code == 0
    # The driver grew by no table: it read footers and totals only.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB
    assert sum(client.run(lambda dask_worker: 1).values()) == 2  # no worker lost


_CHAIN = {
    "a.bib": "@article{first, title = {A Chain}, year = {2020}, doi = {10.1000/chain.1}}\n",
    "b.bib": "@article{second, title = {A Chain}, year = {2020}, doi = {10.1000/CHAIN.1},\n"
    "  eprint = {2101.00001}, archivePrefix = {arXiv}}\n",
    "c.bib": "@article{third, title = {A Chain}, year = {2020}, eprint = {2101.00001v3},\n"
    "  archivePrefix = {arXiv}, url = {https://example.org/chain}}\n"
    "@article{other, title = {Other}, year = {2021}, doi = {10.1000/other}}\n",
    "d.bib": "@misc{fourth, title = {A Chain}, url = {https://EXAMPLE.org/chain}}\n",
}


def test_a_group_that_spans_pieces_and_buckets(client: Any, tmp_path: Path) -> None:
    # first-DOI-second-arXiv-third-URL-fourth: one group, each link in another piece.
    files = []
    for name, text in _CHAIN.items():
        # Padded past one piece's bytes (`BYTES_PER_ROW`): one file, one piece.
        (tmp_path / name).write_text(text + "% " + "padding " * 80 + "\n")
        files.append(str(tmp_path / name))
    settings = registry.settings(offline=True, cache_dir=str(tmp_path / "cache"))
    single = asyncio.run(run_audit(files, settings))
    assert [r["key"] for r in single.duplicates.to_pylist()] == [
        "first",
        "second",
        "third",
        "fourth",
    ]
    run = run_partitioned(
        files, settings, tmp_path / "out", client, options=ReadOptions(), partition_rows=1
    )
    assert len(run.pieces) == 4
    _compare(single, tmp_path / "out")
    assert run.totals.counts["duplicate_groups"] == 1


def test_large_bibliographies_are_cut_into_range_tasks(client: Any, tmp_path: Path) -> None:
    # A BibTeX and a RIS file; pieces of ~1 row's bytes: each is cut at record boundaries,
    # each range its own task, and DOIs cited at both ends make groups across ranges.
    entries = [
        f"@article{{w{n},\n  title = {{Work {n} on ranges}},\n  author = {{Doe, J.}},\n"
        f"  year = {{2020}},\n  doi = {{10.1000/range.{n % 13}}},\n}}\n"
        for n in range(30)
    ]
    path = tmp_path / "large.bib"
    path.write_text("% Encoding: UTF-8\n\n" + "\n".join(entries) + "@comment{jabref-meta:}\n")
    ris = tmp_path / "large.ris"
    ris.write_text(
        "".join(
            f"TY  - JOUR\r\nTI  - Record {n} of a screening\r\nAU  - Roe, R.\r\n"
            f"PY  - 2019///\r\nDO  - 10.1000/range.{n % 7}\r\nER  - \r\n\r\n"
            for n in range(20)
        ),
        newline="",
    )
    files = [str(path), str(ris)]
    settings = registry.settings(offline=True, cache_dir=str(tmp_path / "cache"))
    single = asyncio.run(run_audit(files, settings))
    run = run_partitioned(
        files, settings, tmp_path / "out", client, options=ReadOptions(), partition_rows=1
    )
    assert len(run.pieces) >= 8 and all(p.byte_range for p in run.pieces)
    assert {p.paths[0] for p in run.pieces} == set(files)
    assert single.duplicates.num_rows == 50
    _compare(single, tmp_path / "out")
    assert run.result is not None and run.result.run is not None
    assert [(i.path, i.rows, i.sha256) for i in run.result.run.inputs] == [
        (i.path, i.rows, i.sha256) for i in single.run.inputs
    ]


def test_a_large_csv_is_cut_into_range_tasks(client: Any, tmp_path: Path) -> None:
    # A Scopus-shaped CSV with quoted cells, embedded newlines and blank lines; pieces of ~1
    # row's bytes: cut before records outside quotes, DOIs at both ends make groups across.
    rows = "".join(
        f'"Doe J.","Doe, Jane (1{n})","Work {n}, on ""ranges""{chr(10) * (n % 2)} of CSV",'
        f'2020,"J. Test",{n},{n + 9},"10.1000/csv.{n % 11}","2-s2.0-{n}"\r\n'
        + ("\r\n" if n % 5 == 0 else "")
        for n in range(30)
    )
    path = tmp_path / "scopus.csv"
    path.write_bytes(
        b"\xef\xbb\xbf"
        + (
            "Authors,Author full names,Title,Year,Source title,Page start,Page end,DOI,EID\r\n"
            + rows
        ).encode()
    )
    settings = registry.settings(offline=True, cache_dir=str(tmp_path / "cache"))
    single = asyncio.run(run_audit([str(path)], settings))
    run = run_partitioned(
        [str(path)], settings, tmp_path / "out", client, options=ReadOptions(), partition_rows=1
    )
    assert len(run.pieces) >= 5 and all(p.byte_range for p in run.pieces)
    assert single.duplicates.num_rows == 30 and single.references["source_line"][-1].as_py() > 30
    _compare(single, tmp_path / "out")
    assert run.result is not None and run.result.run is not None
    assert [(i.path, i.rows, i.sha256) for i in run.result.run.inputs] == [
        (i.path, i.rows, i.sha256) for i in single.run.inputs
    ]
    assert run.result.run.load_problems == single.run.load_problems
