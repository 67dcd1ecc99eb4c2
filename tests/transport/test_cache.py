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
    assert cache.get("crossref", "v1", "x") is None
    assert not cache.put("crossref", "v1", "x", FOUND)
    assert cache.stats().entries == 0
    assert "continuing without it" in caplog.text


def test_corrupt_entry_is_a_miss(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    cache._cache.set("crossref|v1|x", "garbage")  # noqa: SLF001 - simulate a damaged entry
    assert cache.get("crossref", "v1", "x") is None


class _Payload:
    """Unpickling this creates a file: the proof that a planted pickle ran."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (open, (self.marker, "w"))


def _plant(folder, key, value) -> None:
    """Write `key` with diskcache's default (pickling) disk, as anyone with the folder could."""
    import diskcache

    planted = diskcache.Cache(str(folder))
    planted.set(key, value)
    planted.close()


def test_planted_pickle_never_runs_and_is_dropped(tmp_path, caplog):
    folder = tmp_path / "c"
    RecordCache.open(str(folder), ttl_days=1).close()
    marker = tmp_path / "pwned"
    _plant(folder, "crossref|v1|10.1/a", _Payload(str(marker)))
    _plant(folder, ("crossref", "v1", "10.1/b"), _Payload(str(marker)))  # a pickled key too
    cache = RecordCache.open(str(folder), ttl_days=1)
    with caplog.at_level(logging.WARNING, logger="auditor.cache"):
        assert cache.get("crossref", "v1", "10.1/a") is None
        assert cache.stats().entries == 0
        assert list(cache.rows()) == []
    assert not marker.exists()
    assert "dropped an unreadable entry" in caplog.text
    assert cache.dropped == 1
    # dropped, so the next look is a plain miss and a fresh answer can be stored
    assert cache.put("crossref", "v1", "10.1/a", FOUND)
    assert cache.get("crossref", "v1", "10.1/a") is not None
    cache.close()
    assert not marker.exists()


def test_a_cache_of_the_old_pickled_version_is_cleared(tmp_path):
    folder = tmp_path / "c"
    marker = tmp_path / "pwned"
    _plant(folder, "crossref|v1|10.1/a", {"stored_at": 0.0, "row": FOUND})
    _plant(folder, "crossref|v1|10.1/b", _Payload(str(marker)))
    cache = RecordCache.open(str(folder), ttl_days=1)
    assert cache.stats().entries == 0
    # still working after the clearing: a fresh answer is stored and found
    assert cache.put("crossref", "v1", "10.1/a", FOUND)
    assert cache.get("crossref", "v1", "10.1/a") is not None
    assert not marker.exists()


def _raw_set(cache: RecordCache, key: str, value: bytes) -> None:
    cache._cache.set(key, value)  # noqa: SLF001 - plant bytes past the validating `put`


def test_values_that_do_not_validate_are_dropped(tmp_path):
    from auditor.transport.cache import encode_entry

    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    bad_rows = {
        "deep": b"[" * 5000 + b"]" * 5000,
        "year": encode_entry(0.0, {**FOUND, "year": 2**40}),
        "type": encode_entry(0.0, {**FOUND, "title": {"x": 1}}),
        "future": encode_entry(1e12, FOUND),
        "nan": b'{"schema": 2, "stored_at": NaN, "row": {}}',
        "schema": b'{"schema": 1, "stored_at": 0, "row": {}}',
        "utf": b"\xff\xfe",
    }
    for name, value in bad_rows.items():
        _raw_set(cache, f"crossref|v1|{name}", value)
    for name in bad_rows:
        assert cache.get("crossref", "v1", name) is None, name
    assert cache.stats().entries == 1  # only the future-stamped one stays (ignored, not broken)


def test_unstorable_rows_are_refused(tmp_path):
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=1)
    assert not cache.put("crossref", "v1", "x", {**FOUND, "year": 2**40})
    assert not cache.put("crossref", "v1", "x", {**FOUND, "title": "\ud800"})
    assert cache.stats().entries == 0


def test_cache_folder_is_owner_only(tmp_path):
    import os
    import stat

    folder = tmp_path / "deep" / "c"
    old = os.umask(0o022)
    try:
        RecordCache.open(str(folder), ttl_days=1).close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
