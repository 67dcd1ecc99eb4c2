"""Stored ISTIC CSL answers: snapshot `istic` rows, then the record cache, then live."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
from typer.testing import CliRunner

from auditor import tables
from auditor.chinese import csl_store
from auditor.chinese.waterfall import WaterfallResult
from auditor.cli import app
from auditor.resolve import resolve
from auditor.transport.cache import RecordCache
from auditor.transport.snapshot import lookup_istic, lookup_snapshots, write_snapshot
from tests.chinese.conftest import ChineseRegisters, Corpus, waterfall
from tests.chinese.helpers import OTHER_TITLE, TITLE, csl, refs, verdicts_for

D = "10.5555/cma.j.cn112137-20231008-00670"
D2 = "10.5555/cma.j.cn112137-20231008-00671"
D3 = "10.5555/cma.j.cn112137-20231008-00672"
AT = "2026-01-02T03:04:05+00:00"


def _records(*dois: str) -> pa.Table:
    """What the resolve stage holds for ISTIC DOIs: the DOI system places them at ISTIC."""
    rows = [
        {
            "register": "doi",
            "id_type": "doi",
            "identifier": d,
            "status": "not_covered",
            "reason": "registered_with_istic",
            "agency": "ISTIC",
            "tier": "snapshot",
        }
        for d in dois
    ]
    return tables.from_rows(rows, tables.RECORDS)


async def _run(regs: ChineseRegisters, *dois: str, **settings: Any) -> WaterfallResult:
    references = refs(*({"title": TITLE, "doi": d} for d in dois))
    return await waterfall(
        regs.settings(**settings), references, verdicts_for(references), _records(*dois)
    )


def _verdict(result: WaterfallResult, row_id: int = 0) -> dict[str, Any]:
    return [r for r in result.verdicts.to_pylist() if r["row_id"] == row_id][0]


def _cached(regs: ChineseRegisters, doi: str) -> dict[str, Any] | None:
    cache = RecordCache.open(regs.cache_dir, ttl_days=30)
    try:
        return cache.get(csl_store.REGISTER, csl_store.API_VERSION, doi.lower())
    finally:
        cache.close()


def _istic_row(doi: str, title: str | None, status: str = "found") -> dict[str, Any]:
    return {
        "register": "istic",
        "id_type": "doi",
        "identifier": doi.lower(),
        "status": status,
        "title": title,
        "authors": ["储大同"],
        "year": 2023,
        "agency": "ISTIC",
        "retrieved_at": AT,
    }


async def test_warm_rerun_makes_no_csl_request(registers: ChineseRegisters, corpus: Corpus):
    corpus.csl[D] = csl(D)
    first = await _run(registers, D)
    assert registers.counts["doi_csl"] == 1 and registers.counts["csl"] == 1
    live = _verdict(first)
    assert (live["verdict"], live["reason"], live["tier"]) == (
        "RESOLVES-AND-MATCHES",
        "DOI_TITLE_VERIFIED",
        "live",
    )
    row = _cached(registers, D)
    assert row is not None and row["status"] == "found" and row["title"] == TITLE
    assert (row["register"], row["id_type"], row["agency"]) == ("istic", "doi", "ISTIC")

    second = await _run(registers, D)
    assert registers.counts["doi_csl"] == 1 and registers.counts["csl"] == 1  # no new request
    warm = _verdict(second)
    assert (warm["verdict"], warm["reason"]) == ("RESOLVES-AND-MATCHES", "DOI_TITLE_VERIFIED")
    assert warm["tier"] == "cache" and warm["retrieved_at"] == live["retrieved_at"]
    assert warm["title_register"] == TITLE
    assert not any("content negotiation" in r for r in second.requests)


async def test_404_is_cached_and_the_handle_probe_still_runs(
    registers: ChineseRegisters, corpus: Corpus
):
    corpus.handles.add(D)  # exists in the Handle system, but no CSL record
    first = await _run(registers, D)
    assert _verdict(first)["reason"] == "DOI_EXISTS_TITLE_UNVERIFIABLE"
    assert registers.counts["doi_csl"] == 1 and registers.counts["handle"] == 1
    row = _cached(registers, D)
    assert row is not None and row["status"] == "not_found"

    second = await _run(registers, D)
    assert registers.counts["doi_csl"] == 1  # the 404 came from the cache
    assert registers.counts["handle"] == 2  # the Handle probe is asked live
    again = _verdict(second)
    assert again["reason"] == "DOI_EXISTS_TITLE_UNVERIFIABLE" and again["tier"] == "live"


async def test_a_failure_is_not_cached_and_is_asked_again(
    registers: ChineseRegisters, corpus: Corpus
):
    corpus.csl[D] = csl(D)
    registers.override(f"/doi/{D}", 503, "busy")
    first = await _run(registers, D)
    assert _verdict(first)["verdict"] == "UNCHECKED"
    assert _cached(registers, D) is None
    before = registers.counts["override"]
    assert before >= 1

    registers.overrides.clear()
    second = await _run(registers, D)
    assert registers.counts["doi_csl"] == 1  # asked again, now answered
    assert _verdict(second)["reason"] == "DOI_TITLE_VERIFIED"
    assert _verdict(second)["tier"] == "live"


async def test_malformed_body_is_not_cached(registers: ChineseRegisters, corpus: Corpus):
    corpus.csl[D] = csl(D, title=["a", "b"])  # two titles: not the documented shape
    first = await _run(registers, D)
    assert _verdict(first)["verdict"] == "UNCHECKED"
    assert _cached(registers, D) is None


async def test_refresh_asks_again(registers: ChineseRegisters, corpus: Corpus):
    corpus.csl[D] = csl(D)
    await _run(registers, D)
    corpus.csl[D] = csl(D, title=OTHER_TITLE)  # the register changed its record
    stale = await _run(registers, D)
    assert registers.counts["doi_csl"] == 1
    assert _verdict(stale)["reason"] == "DOI_TITLE_VERIFIED"

    fresh = await _run(registers, D, refresh=True)
    assert registers.counts["doi_csl"] == 2
    row = _verdict(fresh)
    assert (row["reason"], row["tier"]) == ("DOI_TITLE_MISMATCH", "live")
    assert _cached(registers, D)["title"] == OTHER_TITLE  # type: ignore[index]


async def test_offline_snapshot_decides_without_a_request(
    registers: ChineseRegisters, tmp_path: Path
):
    snap = str(tmp_path / "istic.parquet")
    write_snapshot([_istic_row(D, TITLE), _istic_row(D2, OTHER_TITLE)], snap)
    result = await _run(registers, D, D2, D3, offline=True, snapshots=(snap,))
    assert sum(registers.counts.values()) == 0
    match, mismatch, missing = (_verdict(result, i) for i in range(3))
    assert (match["verdict"], match["reason"]) == ("RESOLVES-AND-MATCHES", "DOI_TITLE_VERIFIED")
    assert (mismatch["verdict"], mismatch["reason"]) == (
        "RESOLVES-BUT-DIFFERS",
        "DOI_TITLE_MISMATCH",
    )
    for row in (match, mismatch):
        assert (row["tier"], row["retrieved_at"]) == ("snapshot", AT)
    assert mismatch["title_register"] == OTHER_TITLE
    # A DOI the snapshot lacks stays a failure to look, never absence.
    assert (missing["verdict"], missing["reason"]) == ("UNCHECKED", "offline")


async def test_snapshot_wins_over_the_cache(
    registers: ChineseRegisters, corpus: Corpus, tmp_path: Path
):
    corpus.csl[D] = csl(D)
    await _run(registers, D)  # caches TITLE
    snap = str(tmp_path / "istic.parquet")
    write_snapshot([_istic_row(D, OTHER_TITLE)], snap)
    result = await _run(registers, D, snapshots=(snap,))
    assert registers.counts["doi_csl"] == 1
    row = _verdict(result)
    assert (row["reason"], row["tier"]) == ("DOI_TITLE_MISMATCH", "snapshot")


async def test_snapshot_404_goes_to_the_handle_probe_offline_unchecked(
    registers: ChineseRegisters, tmp_path: Path
):
    snap = str(tmp_path / "istic.parquet")
    write_snapshot([_istic_row(D, None, status="not_found")], snap)
    result = await _run(registers, D, offline=True, snapshots=(snap,))
    assert sum(registers.counts.values()) == 0
    # The CSL 404 is known, but whether the DOI exists at all needs the Handle probe.
    assert (_verdict(result)["verdict"], _verdict(result)["reason"]) == ("UNCHECKED", "offline")


async def test_istic_row_does_not_shadow_the_primary_record(
    registers: ChineseRegisters, tmp_path: Path
):
    snap = str(tmp_path / "both.parquet")
    primary = _records(D).to_pylist()[0]
    write_snapshot([primary, _istic_row(D, TITLE)], snap)  # same (id_type, identifier)
    assert lookup_snapshots([snap], [("doi", D)])[("doi", D)]["register"] == "doi"
    assert lookup_istic([snap], [D])[D]["title"] == TITLE
    references = refs({"title": TITLE, "doi": D})
    settings = registers.settings(offline=True, snapshots=(snap,))
    records = (await resolve(references, settings, None)).to_pylist()
    assert len(records) == 1
    assert (records[0]["register"], records[0]["status"], records[0]["reason"]) == (
        "doi",
        "not_covered",
        "registered_with_istic",
    )
    assert records[0]["tier"] == "snapshot"


async def test_exported_cache_serves_a_later_offline_run(
    registers: ChineseRegisters, corpus: Corpus, tmp_path: Path
):
    corpus.csl[D] = csl(D)
    await _run(registers, D)
    out = str(tmp_path / "export.parquet")
    done = CliRunner().invoke(
        app, ["cache", "export-snapshot", out, "--cache-dir", registers.cache_dir]
    )
    assert done.exit_code == 0, done.output
    assert lookup_istic([out], [D])[D.lower()]["title"] == TITLE
    requests = sum(registers.counts.values())
    empty_cache = str(tmp_path / "other-cache")
    result = await _run(registers, D, offline=True, snapshots=(out,), cache_dir=empty_cache)
    assert sum(registers.counts.values()) == requests  # nothing asked
    row = _verdict(result)
    assert (row["reason"], row["tier"]) == ("DOI_TITLE_VERIFIED", "snapshot")
