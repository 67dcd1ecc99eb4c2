"""`auditor audit --engine dask`: the settings choose the cluster, the workers write the parts,
and the exit code and rows are the single-process run's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from auditor.cli import app

SAMPLES = Path(__file__).resolve().parents[1] / "sample_bibs"


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    # The scheduler always serves HTTP (metrics) and would ask for port 8787; another cluster
    # on the machine then draws a warning (an error here): any free loopback port.
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address="127.0.0.1:0"
    ) as cluster:
        yield str(cluster.scheduler_address)


def _audit(args: list[str], env: dict[str, str]) -> Any:
    return CliRunner().invoke(app, ["audit", str(SAMPLES / "thesis.bib"), *args], env=env)


def test_engine_and_scheduler_from_the_environment(scheduler: str, tmp_path: Path) -> None:
    # The sample's own auditor.toml fails nothing: this run fails on its one DOES-NOT-RESOLVE.
    env = {
        "AUDITOR_CACHE_DIR": str(tmp_path / "cache"),
        "AUDITOR_OFFLINE": "1",
        "AUDITOR_FAIL_ON": "DOES-NOT-RESOLVE",
    }
    local = _audit(["--out", str(tmp_path / "local"), "-q"], env)
    spread = _audit(
        ["--out", str(tmp_path / "spread"), "-q"],
        {**env, "AUDITOR_ENGINE": "dask", "AUDITOR_SCHEDULER": scheduler},
    )
    assert spread.exit_code == local.exit_code == 1, spread.output
    parts = sorted((tmp_path / "spread" / "verdicts").glob("part-*.parquet"))
    rows = pa.concat_tables([pq.read_table(p) for p in parts]).to_pylist()
    assert [r["verdict"] for r in rows] == [
        r["verdict"] for r in pq.read_table(tmp_path / "local" / "verdicts.parquet").to_pylist()
    ]
    # A small run is read back whole: the same report set as one process writes.
    for name in ("report.html", "report.json", "verdicts.parquet", "checklist.csv"):
        assert (tmp_path / "spread" / name).exists(), name
    assert pq.read_table(tmp_path / "spread" / "verdicts.parquet").to_pylist() == rows
    manifest = json.loads((tmp_path / "spread" / "parts.json").read_text())
    assert manifest["complete"] and manifest["exit_code"] == 1
    assert manifest["totals"]["rows"] == len(rows)


def test_an_unknown_engine_is_a_config_error(tmp_path: Path) -> None:
    result = _audit(["--engine", "spark", "--out", str(tmp_path)], {})
    assert result.exit_code == 2
    assert "engine" in result.output


def test_a_parquet_dataset_folder_is_read_by_the_cluster(scheduler: str, tmp_path: Path) -> None:
    folder = tmp_path / "refs"
    folder.mkdir()
    rows = [{"key": f"k{i}", "doi": f"10.5555/ds.{i}", "title": f"Work {i}"} for i in range(30)]
    pq.write_table(pa.Table.from_pylist(rows[:20]), folder / "a.parquet", row_group_size=10)
    pq.write_table(pa.Table.from_pylist(rows[20:]), folder / "b.parquet")
    env = {"AUDITOR_CACHE_DIR": str(tmp_path / "cache"), "AUDITOR_OFFLINE": "1"}
    args = [str(folder), "--out", str(tmp_path / "out"), "-q", "--partition-rows", "10"]
    local = CliRunner().invoke(app, ["audit", *args], env=env)
    assert local.exit_code == 2 and "--engine dask" in local.output
    spread = CliRunner().invoke(
        app, ["audit", *args, "--engine", "dask", "--scheduler", scheduler], env=env
    )
    assert spread.exit_code in (0, 3), spread.output
    manifest = json.loads((tmp_path / "out" / "parts.json").read_text())
    assert [p["rows"] for p in manifest["pieces"]] == [10, 10, 10]
    assert manifest["totals"]["rows"] == 30


@pytest.mark.parametrize("criteria", ["auditor/v2", "reference-resolution/v1"])
def test_a_manuscript_cited_by_identifier_reads_as_in_one_process(
    scheduler: str, tmp_path: Path, criteria: str
) -> None:
    # The workers classify with the run's criteria: under v1 a manubot `@doi:` citation has no
    # title (INVALID), under v2 it is looked up by its DOI, on the cluster as in one process.
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "01.md").write_text("Deep nets [@doi:10.1038/nature14539].\n")
    (tmp_path / "refs.bib").write_text("@article{unused, title={T}, year={2020}}\n")
    env = {"AUDITOR_CACHE_DIR": str(tmp_path / "cache"), "AUDITOR_OFFLINE": "1"}
    base = [str(tmp_path / "content" / "01.md"), str(tmp_path / "refs.bib"), "-q"]
    base += ["--snapshot", str(SAMPLES / "snapshot.parquet"), "--criteria", criteria]
    rows = {}
    for engine in ("local", "dask"):
        out = tmp_path / engine
        args = [*base, "--out", str(out), "--engine", engine, "--scheduler", scheduler]
        result = CliRunner().invoke(app, ["audit", *args], env=env)
        assert result.exit_code in (0, 1), result.output
        # The workers' own parts for the cluster run, the report set's file for one process.
        parts = sorted(out.glob("verdicts/part-*.parquet")) or [out / "verdicts.parquet"]
        table = pa.concat_tables([pq.read_table(p) for p in parts])
        rows[engine] = table.select(["key", "verdict", "reason"]).to_pylist()
    assert rows["dask"] == rows["local"]
    want = (
        ("INVALID", "missing_title") if criteria.endswith("v1") else ("RESOLVES-AND-MATCHES", None)
    )
    assert [(r["verdict"], r["reason"]) for r in rows["local"]][:1] == [want]


def test_a_large_run_prints_its_totals_and_search_use_as_json(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import auditor.report

    monkeypatch.setattr(auditor.report, "LISTED_ROWS", 0)  # every run is too large to read back
    env = {"AUDITOR_CACHE_DIR": str(tmp_path / "cache"), "AUDITOR_OFFLINE": "1"}
    args = ["--out", str(tmp_path / "out"), "--json", "--engine", "dask", "--scheduler", scheduler]
    spread = _audit(args, env)
    printed = json.loads(spread.stdout)
    manifest = json.loads((tmp_path / "out" / "parts.json").read_text())
    assert printed == {"search": manifest["search_use"], **manifest["totals"]}
    assert not (tmp_path / "out" / "report.json").exists()


def _listening() -> set[tuple[str, int]]:
    import psutil

    found = psutil.Process().net_connections("inet")
    return {(c.laddr.ip, c.laddr.port) for c in found if c.status == psutil.CONN_LISTEN}


def test_the_local_cluster_the_tool_starts_listens_on_loopback_only() -> None:
    # Scheduler, its HTTP server, nannies and workers: nothing on a public interface.
    from auditor.cluster import cluster_client
    from auditor.registers import registry

    before = _listening()
    with cluster_client(registry.settings(workers=1, threads=1)) as client:
        here = _listening() - before
        there = client.run(
            lambda: [
                c.laddr.ip
                for c in __import__("psutil").Process().net_connections("inet")
                if c.status == "LISTEN"
            ]
        )
        link = client.dashboard_link
    assert len(here) >= 2 and len(there) == 1  # the scheduler and its HTTP server at least
    assert {ip for ip, _ in here} == {"127.0.0.1"}
    assert all(ips and set(ips) == {"127.0.0.1"} for ips in there.values())
    assert link.startswith("http://127.0.0.1:")
