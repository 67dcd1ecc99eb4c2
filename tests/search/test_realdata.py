"""Real bibliographies (`../shared/realdata/bibs`): books, theses, reports never end NOT FOUND.

Every index answers "nothing" (an emulator with empty indexes), the worst case for a false NOT
FOUND; only journal and proceedings papers may then be NOT FOUND. Skipped without the shared
folder (see `tests/load/test_realdata.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.search.routing import INDEXED_TYPES
from tests.missing_fixtures import REALDATA, missing

BIBS = sorted((REALDATA / "bibs").glob("*.bib")) if REALDATA.is_dir() else []
pytestmark = pytest.mark.skipif(not BIBS, reason=missing(REALDATA / "bibs"))


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = await start_emulator(Corpus(), EmulatorConfig())
    yield emulator
    await emulator.close()


@pytest.mark.parametrize("bib", BIBS, ids=lambda p: p.name)
async def test_only_papers_can_be_not_found(bib: Path, emu: Emulator, tmp_path: Path) -> None:
    fast = {f"{name}_rate": 1000.0 for name in ("dblp", "s2", "arxiv", "crossref", "doi")}
    s = registry.settings(cache_dir=str(tmp_path), max_retries=0, **fast, **emu.base_urls)  # type: ignore[arg-type]
    result = await run_audit([str(bib)], s)
    refs = {r["row_id"]: r for r in result.references.to_pylist()}
    not_found = [v for v in result.verdicts.to_pylist() if v["verdict"] == "NOT FOUND"]
    for v in not_found:
        assert (refs[v["row_id"]]["entry_type"] or "").lower() in INDEXED_TYPES, v["key"]
    kinds = {(refs[v["row_id"]]["entry_type"] or "").lower() for v in result.verdicts.to_pylist()}
    untouched = kinds - INDEXED_TYPES
    held = [
        v
        for v in result.verdicts.to_pylist()
        if (refs[v["row_id"]]["entry_type"] or "").lower() in untouched
        and v["verdict"] in ("NOT FOUND", "RESOLVES-BUT-DIFFERS")
        and v["queried_by"] == "title"
    ]
    assert held == []
