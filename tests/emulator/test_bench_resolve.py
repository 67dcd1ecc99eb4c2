"""The resolve benchmark's arithmetic and its RESULTS.md editing (the benchmark itself is a
script, not a timed test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import aiohttp
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "resolve.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_resolve", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def test_lower_bound_paced_and_window(bench: ModuleType) -> None:
    counts = {
        "crossref_filter": 15,
        "crossref_work": 15,
        "doira": 1,
        "esummary": 1,
        "arxiv_query": 1,
    }
    bounds = bench.lower_bounds(counts, latency=0.2)
    # Crossref: 30 requests at 10/s → 2.9 s of spacing + its latency + one doiRA step.
    assert bounds["paced"] == pytest.approx(2.9 + 0.2 + 0.2)
    assert bounds["window"] == pytest.approx(2.0 + 0.2 + 0.2)


def test_lower_bound_slowest_leg_wins(bench: ModuleType) -> None:
    bounds = bench.lower_bounds({"arxiv_query": 3, "crossref_work": 2}, latency=0.1)
    assert bounds["paced"] == pytest.approx(6.0 + 0.1)  # arXiv: one every 3 s
    assert bench.lower_bounds({}, latency=0.1) == {"paced": 0.0, "window": 0.0}


def test_write_section_replaces_only_its_own(bench: ModuleType, tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text(
        "# Benchmark results\n\n## load\n\nfast\n\n## resolve\n\nold\n\n## compare\n\nok\n"
    )
    bench.write_section(results, "## resolve\n\nnew\n")
    text = results.read_text()
    assert "old" not in text
    assert text.index("## load") < text.index("new") < text.index("## compare")
    assert "fast" in text and "ok" in text


def test_write_section_appends_when_absent(bench: ModuleType, tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    bench.write_section(results, "## resolve\n\nfirst\n")
    assert results.read_text() == "# Benchmark results\n\n## resolve\n\nfirst\n"
    results.write_text("# Benchmark results\n\n## load\n\nx\n")
    bench.write_section(results, "## resolve\n\nsecond\n")
    assert results.read_text().endswith("## load\n\nx\n\n## resolve\n\nsecond\n")


async def test_refusals_explain_each_429(bench: ModuleType) -> None:
    from auditor.emulator import PUBLISHED_LIMITS, Corpus, EmulatorConfig, start_emulator

    emu = await start_emulator(Corpus(), EmulatorConfig(rate_limits=dict(PUBLISHED_LIMITS)))
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(11):  # a burst: the 11th is over Crossref's 10 per second
                async with http.get(f"{emu.base_urls['crossref_url']}/works/10.1/x"):
                    pass
        (note,) = bench.refusals(emu)
    finally:
        await emu.close()
    assert note.startswith("crossref 429 at ")
    assert "10 admitted requests (limit 10)" in note
