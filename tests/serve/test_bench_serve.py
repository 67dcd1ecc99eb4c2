"""A small run of `benchmarks/serve.py` (the big one is the benchmark, not a test)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "serve.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_serve", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


async def test_a_small_load_is_all_answered_without_429s(bench: ModuleType, tmp_path: Path) -> None:
    args = argparse.Namespace(checks=40, dois=8, absent=1, callers=3, latency=0.0, skip_naive=True)
    runs = await bench.main(args)
    cold, warm = runs
    assert cold.statuses == {200: 40}
    assert cold.verdicts == {"RESOLVES-AND-MATCHES": 35, "DOES-NOT-RESOLVE": 5}
    assert cold.limited == 0 and warm.limited == 0
    assert warm.total_requests == 0
    # 8 DOIs: one filter batch, the absent one confirmed alone, then the DOI system
    assert cold.requests["crossref_filter"] == 1
    section = bench.report(runs, args, "python benchmarks/serve.py --checks 40")
    results = tmp_path / "RESULTS.md"
    results.write_text("# Benchmark results\n\n## serve\n\nSTALE-SECTION\n\n## other\n\nkept\n")
    bench.write_section(results, section)
    text = results.read_text()
    assert "STALE-SECTION" not in text and "kept" in text and "All answered: 40 of 40 (yes)" in text
