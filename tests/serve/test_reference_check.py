"""The reference-check contract over HTTP against the emulator: verdicts, errors, signatures."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.emulator import EmulatorConfig
from auditor.signing import verify_report
from tests.serve.conftest import Served, check_body, until

GOOD = check_body(
    "https://doi.org/10.5555/SERVE.1",
    "Signed reference checks over HTTP",
    authors=["Lovelace, Ada", "Charles Babbage"],
    year=2021,
)


async def test_criteria_publishes_v1_the_key_and_no_payments(served: Served) -> None:
    status, body = await served.get("/criteria")
    assert status == 200
    assert "reference-resolution/v1" in body["criteria_ids"]
    assert body["criteria"][0]["criteria_id"] == "reference-resolution/v1"
    assert "not adopted" in body["payments"]
    raw = base64.urlsafe_b64decode(body["signing_key"]["public_key"] + "==")
    assert len(raw) == 32


async def test_a_correct_doi_matches_with_every_contract_field(served: Served) -> None:
    status, report = await served.post("/check", GOOD)
    assert status == 200, report
    assert report["verdict"] == "RESOLVES-AND-MATCHES"
    assert report["identifier"] == "10.5555/serve.1"
    assert report["type"] == "doi"
    assert report["register"] == "crossref"
    assert report["criteria_id"] == "reference-resolution/v1"
    assert report["retrieved_at"]
    assert [f["field"] for f in report["fields"]] == ["title", "authors", "year"]
    assert all({"field", "claimed", "register", "match"} <= set(f) for f in report["fields"])
    assert report["record"]["title"] == "Signed reference checks over HTTP"
    assert report["signature"]["alg"] == "Ed25519"


async def test_the_signature_verifies_and_fails_after_any_edit(
    served: Served, tmp_path: Path
) -> None:
    _, report = await served.post("/check", GOOD)
    _, criteria = await served.get("/criteria")
    key_file = tmp_path / "service.pub"
    key_file.write_text(criteria["signing_key"]["public_key"])
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report, indent=3), encoding="utf-8")
    ok = CliRunner().invoke(app, ["verify", str(path), "--key", str(key_file)])
    assert ok.exit_code == 0, ok.output
    edits: list[dict[str, Any]] = [
        {**report, "verdict": "RESOLVES-BUT-DIFFERS"},
        {**report, "retrieved_at": report["retrieved_at"][:-1] + "1"},
        {**report, "fields": report["fields"][::-1]},
        {**report, "extra": 1},
    ]
    for edited in edits:
        path.write_text(json.dumps(edited), encoding="utf-8")
        bad = CliRunner().invoke(app, ["verify", str(path), "--key", str(key_file)])
        assert bad.exit_code == 1, edited
    # the local key (the server's own, from the `signing_key` setting) verifies too
    path.write_text(json.dumps(report), encoding="utf-8")
    env = {"AUDITOR_SIGNING_KEY": served.settings.signing_key}
    local = CliRunner().invoke(app, ["verify", str(path)], env=env)
    assert local.exit_code == 0, local.output


async def test_a_wrong_title_differs(served: Served) -> None:
    status, report = await served.post(
        "/check", check_body("10.5555/serve.1", "An entirely different paper about cats")
    )
    assert status == 200
    assert report["verdict"] == "RESOLVES-BUT-DIFFERS"
    assert report["reason"] == "title_differs"
    assert report["fields"][0]["match"] is False


async def test_a_fabricated_doi_does_not_resolve(served: Served) -> None:
    status, report = await served.post(
        "/check", check_body("10.5555/fabricated.404", "A paper that never was")
    )
    assert status == 200
    assert report["verdict"] == "DOES-NOT-RESOLVE"
    assert report["record"]["status"] == "not_found"


async def test_isbn_is_422_on_check_and_not_covered_on_precheck(served: Served) -> None:
    body = check_body("978-3-16-148410-0", "A book", type_="isbn")
    status, report = await served.post("/check", body)
    assert status == 422
    assert report["verdict"] == "NOT COVERED" and report["reason"] == "unsupported_type"
    status, line = await served.post("/precheck", body)
    assert status == 200
    assert line["verdict"] == "NOT COVERED"
    unknown = check_body("not-an-identifier", "Something")
    assert (await served.post("/check", unknown))[0] == 422


async def test_a_closed_leg_is_not_covered(server_factory: Any) -> None:
    served = await server_factory(doi_leg=False, precheck_interval=0.0)
    status, report = await served.post("/check", GOOD)
    assert status == 422 and report["reason"] == "leg_closed"
    status, line = await served.post("/precheck", GOOD)
    assert status == 200 and line["verdict"] == "NOT COVERED"
    assert served.emu.total_requests == 0


async def test_bad_requests_are_400_naming_the_field(served: Served) -> None:
    contradiction = check_body("10.5555/serve.1", "x", type_="pmid")
    status, body = await served.post("/check", contradiction)
    assert status == 400 and body["field"] == "reference.type"
    assert body["error"] == "type_contradiction"
    no_title = {"reference": {"id": "10.5555/serve.1", "claimed": {}}, "caller": "c"}
    status, body = await served.post("/check", no_title)
    assert status == 400 and body["field"] == "reference.claimed.title"
    numeric_title = {"reference": {"id": 1, "claimed": {"title": 5}}, "caller": "c"}
    assert (await served.post("/check", numeric_title))[1]["field"] == "reference.claimed.title"
    status, body = await served.post("/check", b'{"reference": {"id": ')
    assert status == 400 and body["error"] == "invalid_json"
    cases = {
        "reference": {"caller": "c"},
        "reference.id": {"reference": {"claimed": {"title": "t"}}},
        "reference.claimed": {"reference": {"id": "1"}},
        "reference.claimed.authors[1]": {
            "reference": {"id": "1", "claimed": {"title": "t", "authors": ["a", 2]}}
        },
        "reference.claimed.year": {
            "reference": {"id": "1", "claimed": {"title": "t", "year": "2020"}}
        },
        "reference.claimed.tittle": {"reference": {"id": "1", "claimed": {"tittle": "t"}}},
        "body": [1, 2],
    }
    for field, case in cases.items():
        status, body = await served.post("/check", case)
        assert (status, body.get("field")) == (400, field), (field, body)
    status, body = await served.post(
        "/precheck", {"reference": {"id": "1", "claimed": {"title": "t"}}}
    )
    assert status == 400 and body["field"] == "caller"
    status, body = await served.post(
        "/precheck", {"reference": {"id": "1", "claimed": {"title": "t"}}, "caller": " "}
    )
    assert status == 400 and body["field"] == "caller"
    wrong_caller = {"reference": {"id": "x", "claimed": {"title": "t"}}, "caller": 5}
    assert (await served.post("/check", wrong_caller))[1]["field"] == "caller"
    assert served.emu.total_requests == 0
    isbn = {"reference": {"id": "isbn:1", "type": "isbn", "claimed": {"title": "t"}}, "caller": ""}
    assert (await served.post("/check", isbn))[0] == 422


async def test_a_body_over_16384_bytes_is_413(served: Served) -> None:
    big = check_body("10.5555/serve.1", "x" * 20_000)
    status, body = await served.post("/check", json.dumps(big))
    assert status == 413 and body["error"] == "body_too_large"
    status, _ = await served.post("/precheck", json.dumps(big))
    assert status == 413


async def test_precheck_is_the_signed_verdict_line_paced_per_caller(
    server_factory: Any,
) -> None:
    served = await server_factory(precheck_interval=5.0, precheck_daily=2)
    status, line = await served.post("/precheck", GOOD)
    assert status == 200
    assert line["verdict"] == "RESOLVES-AND-MATCHES"
    assert "fields" not in line and "record" not in line
    assert {"identifier", "type", "register", "retrieved_at", "criteria_id"} <= set(line)
    _, criteria = await served.get("/criteria")
    del criteria  # the key is the server's: verify with its own file below
    from auditor.signing import load_existing_key

    key = load_existing_key(served.settings.signing_key)
    assert key is not None and verify_report(line, key.public_key()).valid
    async with served.http.post(served.url + "/precheck", json=GOOD) as resp:
        assert resp.status == 429
        assert int(resp.headers["Retry-After"]) >= 1
    # The allowance is the client's (its address here), not the body's `caller` label: a
    # renamed caller gets nothing more (#26, 12).
    other = {**GOOD, "caller": "another-caller"}
    assert (await served.post("/precheck", other))[0] == 429


async def test_a_register_that_cannot_be_consulted_is_503_never_a_verdict(
    server_factory: Any,
) -> None:
    served = await server_factory(config=EmulatorConfig(down={"crossref"}))
    async with served.http.post(served.url + "/check", json=GOOD) as resp:
        body = await resp.json()
        assert resp.status == 503
        assert resp.headers["Retry-After"]
    assert body["error"] == "register_unavailable" and body["register"] == "crossref"
    assert "verdict" not in body


async def test_the_cache_answers_while_a_slow_register_is_busy(server_factory: Any) -> None:
    served = await server_factory()
    assert (await served.post("/check", GOOD))[0] == 200  # now cached
    before = served.emu.total_requests
    # The slow lookup never answers by itself (it is cancelled below; the emulator cancels its
    # handler), so "the cached answer came first" needs no clock.
    served.emu.config = EmulatorConfig(latency=3600.0)
    slow = asyncio.create_task(
        served.post("/check", check_body("10.5555/serve.2", "A second work for the batch"))
    )
    await until(lambda: served.emu.total_requests > before, "the slow lookup reached a register")
    status, report = await served.post("/check", GOOD)
    assert status == 200 and report["tier"] == "cache"
    assert not slow.done()
    slow.cancel()


async def test_nothing_submitted_is_written_anywhere(
    served: Served, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    marker = "Zanzibar quokka marmalade"
    body = check_body("10.5555/serve.1", marker, authors=["Quokkason, Z."])
    assert (await served.post("/check", body))[0] == 200
    assert (await served.post("/precheck", body))[0] == 200
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert marker.encode() not in data and b"Quokkason" not in data, path
    assert marker not in caplog.text and "Quokkason" not in caplog.text


async def test_every_criteria_document_is_published_and_selectable(served: Served) -> None:
    from auditor import tables

    _, body = await served.get("/criteria")
    assert body["criteria_ids"][0] == "reference-resolution/v1"
    assert set(body["criteria_ids"]) == set(tables.CRITERIA_IDS)
    assert [d["criteria_id"] for d in body["criteria"]] == body["criteria_ids"]
    for criteria in tables.CRITERIA_IDS:
        status, report = await served.post(f"/check?criteria={criteria}", GOOD)
        assert status == 200 and report["criteria_id"] == criteria
    status, refused = await served.post("/check?criteria=nope/v9", GOOD)
    assert status == 400 and refused["field"] == "criteria"


async def test_a_chunked_body_over_the_cap_is_413_after_the_cap(served: Served) -> None:
    async def chunks() -> Any:
        for _ in range(64):
            yield b" " * 1024

    async with served.http.post(
        served.url + "/check", data=chunks(), headers={"Content-Type": "application/json"}
    ) as resp:
        assert resp.status == 413


async def test_a_pmid_sent_as_a_json_number_is_that_pmid(served: Served) -> None:
    body = {"reference": {"id": 31452104, "claimed": {"title": "t"}}, "caller": "c"}
    status, report = await served.post("/check", body)
    assert status == 200, report
    assert (report["type"], report["identifier"]) == ("pmid", "31452104")
    assert report["verdict"] == "DOES-NOT-RESOLVE"


async def test_a_declared_body_over_the_cap_is_refused_before_it_is_sent(served: Served) -> None:
    host, port = served.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(
        b"POST /check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 20000\r\n\r\n{"reference":'
    )
    await writer.drain()
    # the answer comes although 19,987 bytes of the body were never sent
    status_line = await asyncio.wait_for(reader.readline(), 5)
    assert status_line.startswith(b"HTTP/1.1 413")
    writer.close()


async def test_a_lookup_that_breaks_is_503_not_a_hang(
    server_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import auditor.serve.lookups as lookups

    real = lookups.resolve

    async def broken(references: Any, settings: Any, net: Any) -> Any:
        if not settings.offline:
            raise RuntimeError("a bug of ours")
        return await real(references, settings, net)

    monkeypatch.setattr(lookups, "resolve", broken)
    served: Served = await server_factory()
    status, body = await served.post("/check", GOOD)
    assert status == 503 and body["register"] == "crossref"


async def test_a_lone_surrogate_or_a_control_in_the_id_is_this_requests_400(
    served: Served,
) -> None:
    # JSON admits "\ud800"; Arrow refused it inside the shared classify table: a 500 for every
    # request of that event-loop turn. A NUL in an id was looked up and came back DOES-NOT-RESOLVE.
    good = json.dumps(check_body("10.5555/serve.1", "x")).encode()
    cases = {
        "reference.claimed.title": good.replace(b'"x"', b'"x\\ud800"'),
        "reference.id": good.replace(b"serve.1", b"serve.1\\u0000"),
        "caller": good.replace(b'"7xK', b'"\\udc007xK'),
    }
    for field, raw in cases.items():
        answers = await asyncio.gather(served.post("/check", raw), served.post("/check", good))
        (status, body), (ok_status, _) = answers
        assert (status, body.get("field")) == (400, field), (field, body)
        assert ok_status == 200  # the request beside it is answered
    authors = check_body("10.5555/serve.1", "x", authors=["a", "\udc00"])
    raw = json.dumps(authors).encode()  # ensure_ascii writes the lone surrogate as \udc00
    status, body = await served.post("/check", raw)
    assert (status, body["field"]) == (400, "reference.claimed.authors[1]")
    assert served.emu.total_requests <= 2  # only the good requests were looked up


async def test_a_failing_batch_is_rerun_row_by_row() -> None:
    from auditor.serve.coalesce import Coalescer

    async def run(items: Any) -> list[str]:
        if "bad" in items:
            raise ValueError("one bad row")
        return [i.upper() for i in items]

    batcher: Coalescer[str, str] = Coalescer(run)
    got = await asyncio.gather(
        batcher.submit("a"), batcher.submit("bad"), batcher.submit("b"), return_exceptions=True
    )
    assert got[0] == "A" and got[2] == "B"
    assert isinstance(got[1], ValueError)


async def test_a_chinese_doi_is_decided_without_the_waterfall_as_the_contract_fixes(
    server_factory: Any,
) -> None:
    # An ISTIC DOI an audit verifies through doi.org content negotiation (the Chinese waterfall:
    # RESOLVES-AND-MATCHES). The contract's DOI register is Crossref, which does not hold it:
    # NOT COVERED (the DOI is another agency's), 422, and no CSL record is asked for.
    from auditor.emulator import Corpus
    from tests.chinese.helpers import TITLE, csl

    doi = "10.5555/cma.j.cn112137-20231008-00670"
    corpus = Corpus(agencies={"10.5555": "ISTIC"}, csl={doi: csl(doi)})
    served = await server_factory(corpus)
    status, report = await served.post("/check", check_body(doi, TITLE))
    assert status == 422, report
    assert (report["verdict"], report["reason"]) == ("NOT COVERED", "registered_with_istic")
    asked = {endpoint for endpoint, n in served.emu.counts.items() if n}
    assert not asked & {"doi_csl", "csl", "handle"}, asked
