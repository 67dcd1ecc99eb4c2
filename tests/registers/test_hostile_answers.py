"""Hostile register answers cost only their own row (UNCHECKED `malformed_body`), never the run,
and nothing unreadable is cached: an offline rerun on the same cache gives the same rows."""

from __future__ import annotations

import json

import pytest

from auditor.registers import registry
from auditor.registers.crossref import CrossrefRegister
from auditor.registers.pubmed import PubmedRegister
from auditor.resolve import resolve
from auditor.tables import REFERENCES, from_rows
from auditor.transport.cache import RecordCache

from .fakenet import Call, FakeNet, reply

GOOD = {
    "DOI": "",
    "title": ["A title"],
    "author": [{"family": "Doe"}],
    "issued": {"date-parts": [[2020]]},
}

HOSTILE: dict[str, dict[str, object]] = {
    "10.5555/bigyear": {"issued": {"date-parts": [[2**40]]}},
    "10.5555/title-object": {"title": {"en": "A title"}},
    "10.5555/title-number": {"title": 42},
    "10.5555/title-list-of-numbers": {"title": [1, 2]},
    "10.5555/author-string": {"author": "Doe"},
    "10.5555/author-family-list": {"author": [{"family": ["Doe"]}]},
}
SURROGATE = "10.5555/surrogate"


def _work(doi: str) -> dict[str, object]:
    return {**GOOD, "DOI": doi, **HOSTILE.get(doi, {})}


def _body(payload: dict[str, object], doi: str) -> bytes:
    text = json.dumps(payload)
    if doi == SURROGATE or any(
        isinstance(i, dict) and i.get("DOI") == SURROGATE
        for i in payload.get("message", {}).get("items", [])  # type: ignore[union-attr]
    ):
        # a raw lone-surrogate escape, as a hostile server would send it
        text = text.replace('"A title"', '"A \\ud800 title"', 1)
    return text.encode()


def handler(call: Call):
    if call.url.endswith("/works"):
        dois = [p.removeprefix("doi:") for p in call.params["filter"].split(",")]
        payload = {
            "status": "ok",
            "message-type": "work-list",
            "message": {"items": [_work(d) for d in dois]},
        }
        return reply(_body(payload, ""))
    doi = call.url.split("/works/", 1)[1]
    payload = {"status": "ok", "message-type": "work", "message": _work(doi)}
    return reply(_body(payload, doi))


# Interleaved with good DOIs: six failures in a row would open the register's breaker.
DOIS = ["10.5555/ok1", *(d for h in HOSTILE for d in (h, f"{h}-ok")), "10.5555/ok2"]


@pytest.mark.parametrize("batching", [True, False])
async def test_hostile_fields_are_unchecked_for_their_row_only(tmp_path, batching):
    net = FakeNet(registry.settings(cache_dir=str(tmp_path), batching=batching), handler)
    rows = await CrossrefRegister().fetch(DOIS, net)
    for doi in HOSTILE:
        assert (rows[doi]["status"], rows[doi]["reason"]) == ("unreachable", "malformed_body"), doi
    good = [d for d in DOIS if d not in HOSTILE]
    assert all(rows[d]["status"] == "found" for d in good)


async def test_lone_surrogate_is_replaced_not_fatal(tmp_path):
    net = FakeNet(registry.settings(cache_dir=str(tmp_path)), handler)
    rows = await CrossrefRegister().fetch([SURROGATE], net)
    assert rows[SURROGATE]["status"] == "found"
    assert rows[SURROGATE]["title"] == "A \ufffd title"


async def test_pubmed_wrong_author_shape_is_unchecked(tmp_path):
    def esummary(call: Call):
        doc = {"uid": "7", "title": "T", "authors": "Doe J", "pubdate": "2020"}
        return reply({"result": {"uids": ["7"], "7": doc}})

    net = FakeNet(registry.settings(cache_dir=str(tmp_path)), esummary)
    rows = await PubmedRegister().fetch(["7"], net)
    assert (rows["7"]["status"], rows["7"]["reason"]) == ("unreachable", "malformed_body")


def _refs(dois: list[str]):
    rows = [
        {"row_id": i, "source_path": "t.bib", "id_type": "doi", "identifier": d}
        for i, d in enumerate(dois)
    ]
    return from_rows(rows, REFERENCES)


async def test_nothing_unreadable_is_cached_and_offline_rerun_agrees(tmp_path):
    dois = [*DOIS, SURROGATE]
    settings = registry.settings(cache_dir=str(tmp_path / "cache"))
    cache = RecordCache.open(settings.cache_dir, ttl_days=30)
    net = FakeNet(settings, handler, cache=cache)
    live = (await resolve(_refs(dois), settings, net)).to_pylist()  # builds the Arrow table
    cache.close()
    offline = registry.settings(cache_dir=settings.cache_dir, offline=True)
    again = (await resolve(_refs(dois), offline, None)).to_pylist()
    by_live = {r["identifier"]: r for r in live}
    by_again = {r["identifier"]: r for r in again}
    for doi in HOSTILE:
        assert by_live[doi]["status"] == "unreachable"
        assert (by_again[doi]["status"], by_again[doi]["reason"]) == ("unreachable", "offline")
    for doi in ("10.5555/ok1", SURROGATE):
        assert by_again[doi]["tier"] == "cache" and by_again[doi]["title"] == by_live[doi]["title"]
