"""The resolve stage: tiers in order, distinct ids, legs, offline, and the cache contract."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from registers.fakenet import Call, FakeNet, reply
from registers.test_batching import crossref_handler, esummary_handler

from auditor.registers import registry
from auditor.resolve import resolve, targets
from auditor.tables import RECORDS, REFERENCES, from_rows
from auditor.transport.cache import RecordCache
from auditor.transport.snapshot import lookup_snapshots, write_snapshot


def refs(*pairs: tuple[str | None, str | None], state: dict[int, str] | None = None):
    rows = [
        {
            "row_id": i,
            "source_path": "t.bib",
            "id_type": t,
            "identifier": v,
            "row_state": (state or {}).get(i),
        }
        for i, (t, v) in enumerate(pairs)
    ]
    return from_rows(rows, REFERENCES)


def router(dois: set[str], pmids: set[str]):
    crossref = crossref_handler(dois)
    pubmed = esummary_handler(pmids)

    def handle(call: Call):
        if call.register == "crossref":
            return crossref(call)
        if call.register == "ncbi":
            return pubmed(call)
        if call.register == "arxiv":
            ids = call.params["id_list"].split(",")
            entries = "".join(
                f"<entry><id>http://arxiv.org/abs/{i}v2</id><title>T</title>"
                "<published>2017-06-12T00:00:00Z</published></entry>"
                for i in ids
            )
            return reply(f"<feed xmlns='http://www.w3.org/2005/Atom'>{entries}</feed>".encode())
        if call.register == "doi":
            asked = call.url.split("/doiRA/", 1)[1].split(",")
            return reply([{"DOI": d, "status": "DOI does not exist"} for d in asked])
        raise AssertionError(call)

    return handle


def _net(tmp_path, handler, **kw):
    settings = registry.settings(cache_dir=str(tmp_path / "cache"), **kw)
    cache = RecordCache.open(settings.cache_dir, ttl_days=settings.cache_ttl_days)
    return FakeNet(settings, handler, cache=cache)


TABLE = refs(
    ("doi", "10.5555/a"),
    ("pmid", "123"),
    ("doi", "10.5555/a"),  # duplicate: one record
    ("arxiv", "1706.03762"),
    ("doi", "10.48550/arxiv.1706.03762"),  # arXiv DOI: arXiv leg
    ("doi", "10.5555/missing"),
    (None, None),
    ("doi", "10.5555/invalid-row"),
    state={7: "INVALID"},
)


async def test_one_row_per_distinct_id_in_order_with_tiers(tmp_path):
    net = _net(tmp_path, router({"10.5555/a"}, {"123"}))
    table = await resolve(TABLE, net.settings, net)
    assert table.schema == RECORDS
    rows = table.to_pylist()
    assert [(r["id_type"], r["identifier"]) for r in rows] == [
        ("doi", "10.5555/a"),
        ("pmid", "123"),
        ("arxiv", "1706.03762"),
        ("doi", "10.48550/arxiv.1706.03762"),
        ("doi", "10.5555/missing"),
    ]
    assert all(r["tier"] == "live" and r["retrieved_at"] for r in rows)
    by_id = {r["identifier"]: r for r in rows}
    assert by_id["10.48550/arxiv.1706.03762"]["register"] == "arxiv"
    assert by_id["10.48550/arxiv.1706.03762"]["status"] == "found"
    assert by_id["10.5555/missing"]["status"] == "not_found"
    assert by_id["10.5555/missing"]["register"] == "doi"  # condemned by the DOI system
    assert net.count("arxiv") == 1  # both arXiv targets share one id


async def test_warm_rerun_makes_zero_requests_and_an_edit_makes_one(tmp_path):
    net = _net(tmp_path, router({"10.5555/a", "10.5555/b"}, {"123"}))
    await resolve(TABLE, net.settings, net)
    net.calls.clear()
    warm = await resolve(TABLE, net.settings, net)
    assert net.calls == []
    assert set(warm.column("tier").to_pylist()) == {"cache"}
    edited = refs(
        ("doi", "10.5555/b"),
        ("pmid", "123"),
        ("arxiv", "1706.03762"),
        ("doi", "10.48550/arxiv.1706.03762"),
        ("doi", "10.5555/missing"),
    )
    await resolve(edited, net.settings, net)
    assert len(net.calls) == 1


async def test_failures_are_not_cached(tmp_path):
    def flaky(call: Call):
        return reply(b"<html>", 200)

    net = _net(tmp_path, flaky)
    first = await resolve(refs(("pmid", "5")), net.settings, net)
    assert first.column("status").to_pylist() == ["unreachable"]
    net.calls.clear()
    await resolve(refs(("pmid", "5")), net.settings, net)
    assert len(net.calls) >= 1


async def test_refresh_bypasses_the_cache(tmp_path):
    net = _net(tmp_path, router(set(), {"123"}))
    await resolve(refs(("pmid", "123")), net.settings, net)
    net.settings = registry.settings(cache_dir=net.settings.cache_dir, refresh=True)
    net.calls.clear()
    await resolve(refs(("pmid", "123")), net.settings, net)
    assert len(net.calls) == 1


async def test_offline_uses_cache_and_never_condemns(tmp_path):
    net = _net(tmp_path, router(set(), {"123"}))
    await resolve(refs(("pmid", "123")), net.settings, net)
    net.cache.close()
    offline = registry.settings(cache_dir=str(tmp_path / "cache"), offline=True)
    table = await resolve(refs(("pmid", "123"), ("pmid", "456")), offline, None)
    rows = {r["identifier"]: r for r in table.to_pylist()}
    assert rows["123"]["tier"] == "cache" and rows["123"]["status"] == "found"
    assert rows["456"]["status"] == "unreachable" and rows["456"]["reason"] == "offline"


async def test_closed_leg_makes_no_request(tmp_path):
    net = _net(tmp_path, router({"10.5555/a"}, {"123"}), pmid_leg=False)
    table = await resolve(refs(("pmid", "123"), ("doi", "10.5555/a")), net.settings, net)
    rows = {r["identifier"]: r for r in table.to_pylist()}
    assert rows["123"]["status"] == "not_covered" and rows["123"]["reason"] == "leg_closed"
    assert net.count("ncbi") == 0 and net.count("crossref") == 1


async def test_snapshot_first_then_export_round_trip(tmp_path):
    net = _net(tmp_path, router({"10.5555/a"}, {"123"}))
    await resolve(refs(("pmid", "123"), ("doi", "10.5555/a")), net.settings, net)
    out = tmp_path / "snap" / "export.parquet"
    assert write_snapshot(net.cache.rows(), str(out)) == 2
    assert pq.read_table(out).schema == RECORDS
    snap = lookup_snapshots([str(out)], [("pmid", "123")])
    assert snap[("pmid", "123")]["tier"] == "snapshot"
    settings = registry.settings(cache_dir=str(tmp_path / "other"), snapshots=(str(out),))
    fresh = FakeNet(settings, router(set(), set()))
    table = await resolve(refs(("pmid", "123"), ("doi", "10.5555/a")), settings, fresh)
    assert set(table.column("tier").to_pylist()) == {"snapshot"}
    assert fresh.calls == []


def test_targets_skip_rows_with_state():
    assert len(targets(TABLE)) == 5


async def test_answers_are_cached_as_batches_arrive(tmp_path):
    """A run killed half-way keeps what it already had: the rerun asks only for the rest."""
    dois = [f"10.5555/n{i}" for i in range(25)]
    healthy = crossref_handler(set(dois))

    def dies_on_second_batch(call: Call):
        if call.url.endswith("/works") and "10.5555/n20" in call.params["filter"]:
            raise RuntimeError("killed")
        return healthy(call)

    table = refs(*[("doi", d) for d in dois])
    net = _net(tmp_path, dies_on_second_batch)
    with pytest.raises(RuntimeError):
        await resolve(table, net.settings, net)
    net.handler = healthy
    net.calls.clear()
    rows = await resolve(table, net.settings, net)
    assert len(net.calls) == 1 and "10.5555/n20" in net.calls[0].params["filter"]
    assert rows.column("tier").to_pylist() == ["cache"] * 20 + ["live"] * 5


def test_offline_misses_built_as_columns_are_the_rows_built_one_by_one() -> None:
    from auditor.errors import Reason
    from auditor.resolve import _as, _offline, _unanswered
    from auditor.tables import RecordStatus

    refs = from_rows(
        [
            {"row_id": 0, "id_type": "doi", "identifier": "10.1/a"},
            {"row_id": 1, "id_type": "pmid", "identifier": "123"},
            {"row_id": 2, "id_type": "arxiv", "identifier": "2101.00001"},
        ],
        REFERENCES,
    )
    wanted = targets(refs)
    one_by_one = from_rows(
        [_as(t, _unanswered(t, Reason.OFFLINE, RecordStatus.UNREACHABLE), None) for t in wanted],
        RECORDS,
    )
    columns = _offline(wanted)
    assert columns.schema == RECORDS
    assert columns.drop_columns(["retrieved_at"]).equals(one_by_one.drop_columns(["retrieved_at"]))
    assert columns["retrieved_at"].null_count == 0


def test_a_cache_is_empty_until_it_holds_a_record(tmp_path: Path) -> None:
    cache = RecordCache.open(str(tmp_path / "c"), ttl_days=30)
    try:
        assert cache.empty
        row = {"register": "crossref", "id_type": "doi", "identifier": "10.1/a", "status": "found"}
        assert cache.put("crossref", "v1", "10.1/a", row)
        assert not cache.empty
    finally:
        cache.close()


async def test_a_snapshot_row_without_its_as_of_is_stamped_and_one_with_it_kept(tmp_path):
    rows = [
        {"register": "crossref", "id_type": "doi", "identifier": "10.5555/a", "status": "found",
         "title": "A", "retrieved_at": "2026-01-02T00:00:00+00:00"},
        {"register": "crossref", "id_type": "doi", "identifier": "10.5555/b", "status": "found",
         "title": "B", "retrieved_at": None},
    ]  # fmt: skip
    out = tmp_path / "snap.parquet"
    pq.write_table(from_rows(rows, RECORDS), out)
    settings = registry.settings(cache_dir=str(tmp_path / "cache"), snapshots=(str(out),))
    table = await resolve(refs(("doi", "10.5555/a"), ("doi", "10.5555/b")), settings, None)
    ids, stamps = table["identifier"].to_pylist(), table["retrieved_at"].to_pylist()
    stamped = dict(zip(ids, stamps, strict=True))
    assert stamped["10.5555/a"] == "2026-01-02T00:00:00+00:00"
    assert stamped["10.5555/b"] is not None and stamped["10.5555/b"] != stamped["10.5555/a"]
    # Both stamped: no null as-of for a snapshot's rows, so none needs a copy of the column.
    table = await resolve(refs(("doi", "10.5555/a")), settings, None)
    assert table["retrieved_at"].to_pylist() == ["2026-01-02T00:00:00+00:00"]
