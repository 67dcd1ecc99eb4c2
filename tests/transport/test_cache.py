from __future__ import annotations

import logging

from auditor.transport.cache import RecordCache

FOUND = {
    "register": "crossref",
    "id_type": "doi",
    "identifier": "10.1/a",
    "status": "found",
    "title": "T",
    "tier": "live",
}


def test_round_trip_without_tier(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    assert cache.put("crossref", "v1", "10.1/a", FOUND)
    got = cache.get("crossref", "v1", "10.1/a")
    assert got is not None and got["title"] == "T" and "tier" not in got
    assert cache.get("crossref", "v2", "10.1/a") is None
    cache.close()


def test_failures_are_never_stored(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    for status, reason in [("unreachable", "timeout"), ("not_covered", "leg_closed")]:
        row = {**FOUND, "status": status, "reason": reason}
        assert not cache.put("crossref", "v1", "10.1/a", row)
    assert cache.get("crossref", "v1", "10.1/a") is None
    assert cache.put("crossref", "v1", "10.1/b", {**FOUND, "status": "not_found"})
    agency = {**FOUND, "status": "not_covered", "reason": "registered_with_datacite"}
    assert cache.put("doi", "v1", "10.1/c", agency)
    assert cache.stats().entries == 2
    cache.close()


def test_ttl_with_injected_clock(tmp_path):
    now = [0.0]
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1, now=lambda: now[0])
    cache.put("crossref", "v1", "10.1/a", FOUND)
    now[0] = 86399.0
    assert cache.get("crossref", "v1", "10.1/a") is not None
    now[0] = 86401.0
    assert cache.get("crossref", "v1", "10.1/a") is None


def test_stats_rows_clear(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    cache.put("crossref", "v1", "10.1/a", FOUND)
    cache.put("pubmed", "v1", "1", {**FOUND, "register": "pubmed", "identifier": "1"})
    stats = cache.stats()
    assert stats.by_register == {"crossref": 1, "pubmed": 1}
    assert sorted(r["identifier"] for r in cache.rows()) == ["1", "10.1/a"]
    assert cache.clear() == 2
    assert cache.stats().entries == 0


def test_broken_cache_costs_speed_not_the_run(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with caplog.at_level(logging.WARNING, logger="auditor.cache"):
        cache = RecordCache.open(str(blocker / "c"), ttl_days=1)
    assert not cache.usable
    assert cache.get("crossref", "v1", "x") is None
    assert not cache.put("crossref", "v1", "x", FOUND)
    assert cache.stats().entries == 0
    assert "continuing without it" in caplog.text


def test_corrupt_entry_is_a_miss(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    cache._cache.set("crossref|v1|x", "garbage")  # noqa: SLF001 - simulate a damaged entry
    assert cache.get("crossref", "v1", "x") is None
