"""The OpenAlex works snapshot: partitions import to the live register's rows and a title index
that answers OpenAlex title searches offline, with no request."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow.dataset as ds
from typer.testing import CliRunner

from auditor.cli import app
from auditor.dumps import KINDS
from auditor.dumps.importer import import_dump
from auditor.registers import registry
from auditor.registers.interface import TitleQuery
from auditor.registers.openalex_search import OpenalexSearchRegister
from auditor.search.tiers import Tiers as _Tiers
from auditor.tables import RECORDS
from auditor.transport.cache import RecordCache

FIXTURE = Path(__file__).parents[1] / "registers" / "fixtures" / "openalex_works.json"


def _partition(folder: Path) -> Path:
    """`updated_date=…/part_000.gz` as the snapshot lays works out: one work per line."""
    works = json.loads(FIXTURE.read_text(encoding="utf-8"))["results"]
    part = folder / "updated_date=2026-11-03" / "part_000.gz"
    part.parent.mkdir(parents=True)
    lines = [json.dumps(w) for w in works] + ['{"id": "W0", "title": null}', "not json"]
    part.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    return part


def test_a_partition_imports_to_the_registers_rows(tmp_path: Path) -> None:
    summary = import_dump(KINDS["openalex"](), [str(_partition(tmp_path))], str(tmp_path / "s"))
    assert summary.records == 2 and summary.skipped_count == 2
    table = ds.dataset(str(tmp_path / "s" / "records"), format="parquet").to_table()
    assert table.schema == RECORDS
    rows = {r["identifier"]: r for r in table.to_pylist()}
    work = rows["10.1016/j.example.2021.104512"]
    assert (work["register"], work["year"], work["tier"]) == ("openalex", 2021, "snapshot")
    assert rows["10.1038/s41586-019-0000-x"]["updates"][0]["type"] == "retraction"


async def test_offline_title_search_is_answered_by_the_import_with_no_request(
    tmp_path: Path,
) -> None:
    out = tmp_path / "openalex"
    result = CliRunner().invoke(
        app, ["snapshot", "import", "openalex", str(_partition(tmp_path)), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    settings = registry.settings(offline=True, snapshots=(str(out),), cache_dir=str(tmp_path / "c"))
    cache = RecordCache.open(settings.cache_dir, ttl_days=30)
    try:
        known = TitleQuery("Sparse attention for long-range weather forecasting", "Vries", 2021)
        # No `Net` at all: a request could not even be tried.
        got = await _Tiers(settings, None, cache).ask(OpenalexSearchRegister(), [known])
    finally:
        cache.close()
    answer, tier = got[known]
    assert tier == "snapshot"
    assert answer.candidates[0]["identifier"] == "10.1016/j.example.2021.104512"
