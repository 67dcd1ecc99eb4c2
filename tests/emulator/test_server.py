"""The threaded form, the loopback-only bind, latency, and corpus loading."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from auditor.emulator import Corpus, EmulatorConfig, run_emulator, start_emulator
from auditor.emulator.server import HOST
from tests.emulator.conftest import DOI


def test_run_emulator_serves_from_a_thread_and_stops(corpus: Corpus) -> None:
    with run_emulator(corpus) as emu:
        url = f"{emu.base_urls['crossref_url']}/works/{DOI}"
        with urllib.request.urlopen(url) as resp:  # noqa: S310 (loopback only)
            body = json.loads(resp.read())
        assert body["message"]["DOI"] == DOI
        assert emu.counts["crossref_work"] == 1
        port = emu.port
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/crossref/works/{DOI}", timeout=2)


def test_binds_loopback_only(corpus: Corpus) -> None:
    assert HOST == "127.0.0.1"
    with run_emulator(corpus) as emu:
        assert emu.origin.startswith("http://127.0.0.1:")


def test_startup_failure_reaches_the_caller(corpus: Corpus) -> None:
    with run_emulator(corpus) as emu, pytest.raises(OSError), run_emulator(corpus, port=emu.port):
        pass


async def test_latency_delays_every_answer(corpus: Corpus) -> None:
    # Timing a small fixed latency from below only: the emulator must not answer early.
    emu = await start_emulator(corpus, EmulatorConfig(latency=0.05))
    try:
        async with aiohttp.ClientSession() as http:
            start = time.monotonic()
            async with http.get(f"{emu.base_urls['handle_url']}/api/handles/{DOI}") as resp:
                assert resp.status == 200
            assert time.monotonic() - start >= 0.05
    finally:
        await emu.close()


def test_corpus_round_trips_through_a_folder(corpus: Corpus, tmp_path: Path) -> None:
    corpus.write_dir(tmp_path)
    again = Corpus.from_dir(tmp_path)
    assert again == corpus


def test_corpus_section_files_and_key_normalization(tmp_path: Path) -> None:
    (tmp_path / "crossref.json").write_text(json.dumps({"10.1/ABC": {"DOI": "10.1/ABC"}}))
    (tmp_path / "handles.json").write_text(json.dumps(["10.5/X"]))
    corpus = Corpus.from_dir(tmp_path)
    assert set(corpus.crossref) == {"10.1/abc"}
    assert corpus.doi_exists("10.5/x")
    assert corpus.agency_of("10.1") == "Crossref"


def test_corpus_refuses_unknown_sections_and_missing_folders(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown corpus sections"):
        Corpus.from_json({"scopus": {}})
    with pytest.raises(FileNotFoundError):
        Corpus.from_dir(tmp_path / "absent")
