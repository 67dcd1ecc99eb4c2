"""A references table resolved from a snapshot gives the verdicts it gets from the cache."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from pathlib import Path

import pyarrow.parquet as pq

from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.transport.cache import RecordCache

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import scaledata  # noqa: E402


def test_snapshot_and_cache_give_the_same_verdicts(tmp_path: Path) -> None:
    snapshot, vocab = scaledata.snapshot(600, seed=5)
    refs = scaledata.references(snapshot, 500, seed=5, vocab=vocab)
    snap_path, refs_path = tmp_path / "snap.parquet", tmp_path / "refs.parquet"
    pq.write_table(snapshot, snap_path)
    pq.write_table(refs, refs_path)
    base = registry.settings(
        offline=True, cache_dir=str(tmp_path / "empty-cache"), fail_on=("none",)
    )
    from_snapshot = asyncio.run(
        run_audit([str(refs_path)], dataclasses.replace(base, snapshots=(str(snap_path),)))
    )
    cache_dir = str(tmp_path / "cache")
    cache = RecordCache.open(cache_dir, ttl_days=30)
    try:
        for record in snapshot.to_pylist():
            register, asked = registry.first_for(record["id_type"], record["identifier"]) or (
                None,
                None,
            )
            assert register is not None and asked is not None
            cache.put(register.name, register.api_version, asked, {**record, "tier": "live"})
    finally:
        cache.close()
    from_cache = asyncio.run(
        run_audit([str(refs_path)], dataclasses.replace(base, cache_dir=cache_dir))
    )
    ignore = {"tier", "retrieved_at"}
    left = [
        {k: v for k, v in r.items() if k not in ignore} for r in from_snapshot.verdicts.to_pylist()
    ]
    right = [
        {k: v for k, v in r.items() if k not in ignore} for r in from_cache.verdicts.to_pylist()
    ]
    assert left == right
    assert set(from_snapshot.verdicts["tier"].drop_null().to_pylist()) == {"snapshot"}
    assert set(from_cache.verdicts["tier"].drop_null().to_pylist()) == {"cache"}
    verdicts = set(from_snapshot.verdicts["verdict"].to_pylist())
    assert {"RESOLVES-AND-MATCHES", "RESOLVES-BUT-DIFFERS", "UNCHECKED"} <= verdicts
