"""A hostile register server (issue #11): every answer kind a malicious or broken server can send,
through the whole audit over real loopback traffic, with tiny limits.

Asserted: the run ends (bounded time), every reference has a row, no failure to look becomes
DOES-NOT-RESOLVE, the reports render, nothing unreadable was cached (an offline rerun on the same
cache agrees), and a crawl-pace header does not slow Crossref below its floor.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from auditor import pipeline
from auditor.emulator import Corpus, EmulatorConfig, start_emulator
from auditor.registers import registry
from auditor.report import write_reports
from auditor.report.annotations import github_annotations
from auditor.report.view import build_view
from auditor.settings import Settings
from tests.emulator.conftest import crossref_message, esummary_doc

#: Fault kind → what the row may end as (the answer is unusable, or usable once made safe).
UNUSABLE = (
    "deep_json",
    "big_number",
    "wrong_type",
    "redirect_garbage",
    "retry_after_long",
    "endless",
    "slow_body",
    "malformed",
    "truncated",
)
USABLE = ("lone_surrogate", "rate_crawl")
#: The reason each unusable answer must be reported with.
EXPECTED = {
    "deep_json": "malformed_body",
    "big_number": "malformed_body",
    "wrong_type": "malformed_body",
    "redirect_garbage": "unsafe_redirect",
    "retry_after_long": "rate_limited",
    "endless": "body_too_large",
    "slow_body": "timeout",
}
KINDS = UNUSABLE + USABLE
#: Faults a PubMed answer can carry (its years are strings, so `big_number` changes nothing).
PUBMED_KINDS = tuple(k for k in KINDS if k not in {"big_number", "rate_crawl"})


def _doi(kind: str) -> str:
    return f"10.5555/{kind.replace('_', '-')}"


def _pmid(i: int) -> str:
    return str(31000000 + i)


def _corpus() -> Corpus:
    good = {f"{_doi(k)}-ok": crossref_message(f"{_doi(k)}-ok", f"Work about {k}") for k in KINDS}
    return Corpus(
        crossref={**good, **{_doi(k): crossref_message(_doi(k), f"Work about {k}") for k in KINDS}},
        pubmed={
            _pmid(i): esummary_doc(_pmid(i), f"Paper {k}.") for i, k in enumerate(PUBMED_KINDS)
        },
        agencies={"10.5555": "Crossref"},
    )


def _bib(path: Path) -> Path:
    # Each hostile DOI is followed by a clean one, so the register's breaker (six failures in a
    # row) never opens and every fault is met on its own.
    entries = [
        f"@article{{{prefix}_{k}, title = {{Work about {k}}}, author = {{Lovelace, Ada}},"
        f" year = {{2012}}, doi = {{{_doi(k)}{suffix}}}}}"
        for k in KINDS
        for prefix, suffix in (("c", ""), ("ok", "-ok"))
    ] + [
        f"@article{{p_{k}, title = {{Paper {k}}}, author = {{Peloso, GM}},"
        f" year = {{2019}}, pmid = {{{_pmid(i)}}}}}"
        for i, k in enumerate(PUBMED_KINDS)
    ]
    path.write_text("\n\n".join(entries) + "\n", encoding="utf-8")
    return path


def _settings(base_urls: dict[str, str], tmp_path: Path, **kw: Any) -> Settings:
    return registry.settings(
        **base_urls,
        cache_dir=str(tmp_path / "cache"),
        timeout=0.3,
        max_retries=1,
        arxiv_rate=50.0,
        ncbi_rate=50.0,
        ncbi_api_key="k",
        ncbi_email="ops@example.org",
        mailto="ops@example.org",
        max_body_bytes=256 * 1024,
        batching=False,
        **kw,
    )


async def test_a_hostile_server_cannot_crash_condemn_or_stall_a_run(tmp_path: Path) -> None:
    faults = {f"crossref:{_doi(k)}": k for k in KINDS}
    faults.update({f"eutils:{_pmid(i)}": k for i, k in enumerate(PUBMED_KINDS)})
    emu = await start_emulator(_corpus(), EmulatorConfig(faults=faults, hang_seconds=1.0))
    try:
        bib = _bib(tmp_path / "hostile.bib")
        settings = _settings(emu.base_urls, tmp_path)
        started = time.monotonic()
        result = await pipeline.run_audit([str(bib)], settings)
        elapsed = time.monotonic() - started
        assert set(emu.fault_counts) >= set(KINDS), emu.fault_counts  # every kind was served
    finally:
        await emu.close()
    assert elapsed < 60, f"a hostile server stretched the run to {elapsed:.0f}s"
    rows = {r["key"]: r for r in result.verdicts.to_pylist()}
    assert len(rows) == 2 * len(KINDS) + len(PUBMED_KINDS)
    for key, row in rows.items():
        assert row["verdict"] != "DOES-NOT-RESOLVE", row
        prefix, kind = key.split("_", 1)
        if prefix == "ok":
            assert row["verdict"] == "RESOLVES-AND-MATCHES", row
        elif kind in UNUSABLE:
            assert row["verdict"] == "UNCHECKED", row
            assert row["reason"] == EXPECTED.get(kind, row["reason"]), row
    assert rows["c_rate_crawl"]["verdict"] == "RESOLVES-AND-MATCHES"
    # every report renders from what the hostile server sent
    write_reports(build_view(result), tmp_path / "out")
    github_annotations(result)
    # nothing unreadable was cached: offline, the same cache gives usable rows or `offline`
    offline = await pipeline.run_audit([str(bib)], _settings({}, tmp_path, offline=True))
    for row in offline.verdicts.to_pylist():
        assert row["verdict"] != "DOES-NOT-RESOLVE", row
        prefix, kind = row["key"].split("_", 1)
        if prefix != "ok" and kind in UNUSABLE:
            assert (row["verdict"], row["reason"]) == ("UNCHECKED", "offline"), row
