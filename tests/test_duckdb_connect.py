"""DuckDB runs on as many threads as Arrow does (a Dask worker's share, not the machine's)."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pytest

from auditor.duckdb_connect import connect


@pytest.fixture
def one_cpu() -> Iterator[None]:
    before = pa.cpu_count()
    pa.set_cpu_count(1)  # what OMP_NUM_THREADS=1 (a Dask nanny's default) gives Arrow
    try:
        yield
    finally:
        pa.set_cpu_count(before)


def _setting(name: str, memory: str = "64MB") -> object:
    con = connect(memory)
    try:
        return con.sql(f"SELECT current_setting('{name}')").fetchall()[0][0]
    finally:
        con.close()


def test_threads_follow_arrow(one_cpu: None) -> None:
    assert _setting("threads") == 1


def test_memory_is_capped_and_order_not_kept() -> None:
    assert _setting("threads") == pa.cpu_count()
    assert str(_setting("memory_limit", "64MB")).startswith("61")  # 64 MB is 61.0 MiB
    assert _setting("preserve_insertion_order") is False
