"""The one stage order: `audit_tables`, whole or for one piece of a cluster run (whose joined
pieces equal the whole run: `tests/partitions/test_run.py`)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from auditor.load import load_files
from auditor.pipeline import closed_legs
from auditor.registers import registry
from auditor.settings import Settings, load_settings
from auditor.stages import audit_tables

SAMPLES = Path(__file__).resolve().parents[1] / "sample_bibs"
INPUTS = [str(SAMPLES / n) for n in ("thesis.bib", "screening.ris", "submissions.csv")]


def _references_and_settings(tmp_path: Path) -> tuple[pa.Table, Settings]:
    settings = load_settings({}, inputs=INPUTS, registers=registry.settings_defaults())
    settings = dataclasses.replace(settings, offline=True, cache_dir=str(tmp_path / "cache"))
    loaded = load_files(INPUTS, closed_legs=closed_legs(settings))
    return loaded.table, settings


def test_a_partition_gets_no_duplicate_groups(tmp_path: Path) -> None:
    references, settings = _references_and_settings(tmp_path)
    made = asyncio.run(audit_tables(references, settings, None, duplicates=False))
    assert made.duplicates.num_rows == 0
    assert made.verdicts["group_id"].null_count == made.verdicts.num_rows
    assert "duplicate" not in " ".join(made.checklist["reason_code"].to_pylist())
    assert made.verdicts["row_id"].to_pylist() == references["row_id"].to_pylist()


def test_the_cpu_stages_leave_the_event_loop_s_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """compare, the duplicate search and the checklist run in worker threads (a server's loop
    keeps answering while they work)."""
    import auditor.stages as stages

    references, settings = _references_and_settings(tmp_path)
    seen: dict[str, bool] = {}

    def spy(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            seen[name] = threading.current_thread() is threading.main_thread()
            return function(*args, **kwargs)

        return run

    for name in ("compare", "find_duplicates", "build_checklist"):
        monkeypatch.setattr(stages, name, spy(name, getattr(stages, name)))
    asyncio.run(audit_tables(references, settings, None))
    assert seen == {"compare": False, "find_duplicates": False, "build_checklist": False}
