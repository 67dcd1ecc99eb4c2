"""`kill -9` in the middle of an audit, then the same command again (issue 4's resume promise).

The second run must finish, must not ask a register again for anything the first run had
already cached, and must give the verdicts of a clean run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from auditor.emulator import EmulatorConfig, run_emulator
from auditor.emulator.synthetic import synthetic, to_bibtex
from auditor.transport.cache import RecordCache

COMPARED = [
    "key",
    "verdict",
    "reason",
    "id_type",
    "identifier",
    "title_match",
    "authors_match",
    "year_match",
]


def _env(base_urls: dict[str, str], cache: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("AUDITOR_") and not k.endswith("_LEG")
    }
    env.update({f"AUDITOR_{k.upper()}": v for k, v in base_urls.items()})
    env["AUDITOR_CACHE_DIR"] = str(cache)
    return env


def _fast(env: dict[str, str]) -> dict[str, str]:
    """`env` with every register's pace raised: the pace is not what the resume test checks, and
    at arXiv's one request in 3 s (no batching) the runs after the kill took seconds each."""
    names = ("crossref", "ncbi", "arxiv", "doi", "handle", "datacite", "dblp", "s2")
    fast = {f"AUDITOR_{name.upper()}_RATE": "1000" for name in names}
    # NCBI's pace is capped at 3/s without an API key, 10/s with one (the emulator takes any).
    return {**env, **fast, "AUDITOR_NCBI_API_KEY": "test-key"}


def _command(bib: Path, out: Path) -> list[str]:
    # Batching off: one identifier per request, so the run is long enough to be cut mid-way.
    return [
        sys.executable,
        "-m",
        "auditor",
        "audit",
        str(bib),
        "--out",
        str(out),
        "--quiet",
        "--no-batching",
        "--fail-on",
        "none",
        "--max-retries",
        "1",
    ]


def _asked(log: list) -> set[str]:  # type: ignore[type-arg]
    """Identifiers named by the requests in an emulator log."""
    ids: set[str] = set()
    for req in log:
        path = unquote(urlsplit(req.url).path)
        if "/works/" in path:
            ids.add(path.split("/works/", 1)[1].lower())
        elif "/doiRA/" in path:
            ids.update(p.lower() for p in path.split("/doiRA/", 1)[1].split(","))
        elif "/api/handles/" in path:
            ids.add(path.split("/api/handles/", 1)[1].lower())
        ids.update(req.params.get("id", "").split(",") if "esummary" in path else ())
        ids.update(req.params.get("id_list", "").split(",") if "query" in path else ())
    ids.discard("")
    return ids


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_kill_then_rerun_refetches_nothing_cached_and_matches_a_clean_run(tmp_path: Path) -> None:
    data = synthetic(n_doi=24, n_pmid=8, n_arxiv=2, missing=0.1, seed=7)
    bib = tmp_path / "refs.bib"
    bib.write_text(to_bibtex(data.references), encoding="utf-8")
    cache = tmp_path / "cache"
    with run_emulator(data.corpus, EmulatorConfig(latency=0.05)) as emu:
        env = _env(emu.base_urls, cache)
        first = subprocess.Popen(
            _command(bib, tmp_path / "first"),
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while emu.total_requests < 10 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for a condition, not measuring time
        assert first.poll() is None, "the first run ended before it could be killed"
        first.send_signal(signal.SIGKILL)
        first.wait()

        store = RecordCache.open(str(cache), ttl_days=30)
        cached = {str(row["identifier"]).lower() for row in store.rows()}
        store.close()
        assert cached, "nothing was cached before the kill"
        assert not (tmp_path / "first" / "verdicts.parquet").exists()

        emu.reset_counts()
        emu.config = EmulatorConfig()  # the latency only had to keep the first run alive
        second = subprocess.run(
            _command(bib, tmp_path / "second"),
            env=_fast(env),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert second.returncode == 0, second.stderr
        asked_again = _asked(emu.log) & cached
        assert not asked_again, f"re-fetched cached ids: {sorted(asked_again)}"
        assert emu.total_requests > 0  # what the first run had not finished was asked now

        clean_env = _fast(_env(emu.base_urls, tmp_path / "clean-cache"))
        clean = subprocess.run(
            _command(bib, tmp_path / "clean"),
            env=clean_env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert clean.returncode == 0, clean.stderr

    resumed = pd.read_parquet(tmp_path / "second" / "verdicts.parquet")[COMPARED]
    reference = pd.read_parquet(tmp_path / "clean" / "verdicts.parquet")[COMPARED]
    pd.testing.assert_frame_equal(resumed, reference)
    assert len(resumed) == len(data.references)
