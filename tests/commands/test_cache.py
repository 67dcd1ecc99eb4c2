from __future__ import annotations

import pyarrow.parquet as pq
import typer
from typer.testing import CliRunner

from auditor.commands.cache import register
from auditor.transport.cache import RecordCache

ROW = {
    "register": "pubmed",
    "id_type": "pmid",
    "identifier": "123",
    "status": "found",
    "title": "T",
    "retrieved_at": "2026-11-30T00:00:00+00:00",
}


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """root"""

    register(app)
    return app


def test_stats_export_clear(tmp_path):
    folder = str(tmp_path / "cache")
    cache = RecordCache.open(folder, ttl_days=30)
    cache.put("pubmed", "v", "123", ROW)
    cache.close()
    runner = CliRunner()
    env = {"HOME": str(tmp_path)}
    result = runner.invoke(_app(), ["cache", "stats", "--cache-dir", folder], env=env)
    assert result.exit_code == 0, result.output
    assert "entries: 1" in result.output and "pubmed: 1" in result.output
    out = tmp_path / "snap.parquet"
    result = runner.invoke(_app(), ["cache", "export-snapshot", str(out), "--cache-dir", folder])
    assert result.exit_code == 0, result.output
    table = pq.read_table(out)
    assert table.column("tier").to_pylist() == ["snapshot"]
    assert table.column("identifier").to_pylist() == ["123"]
    result = runner.invoke(_app(), ["cache", "clear", "--cache-dir", folder])
    assert "removed 1" in result.output
    empty_out = tmp_path / "empty.parquet"
    result = runner.invoke(
        _app(), ["cache", "export-snapshot", str(empty_out), "--cache-dir", folder]
    )
    assert result.exit_code == 1 and not empty_out.exists()
