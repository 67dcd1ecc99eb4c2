"""`auditor serve` and GROBID (#37 item 5): the GROBID URL is the operator's setting alone. A
request that names one, in the upload form, its query or a check body, reaches no server."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from auditor.emulator import Corpus, start_emulator
from tests.serve.conftest import WORKS, Served, check_body
from tests.serve.test_page import _downloads
from tests.test_grobid import PDF, REFERENCE, WORK


@pytest.fixture
async def elsewhere() -> AsyncIterator[tuple[str, list[str]]]:
    """A loopback server standing for an address the client would like the service to reach."""
    reached: list[str] = []

    async def note(request: web.Request) -> web.Response:
        reached.append(request.path)
        return web.Response(status=204)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", note)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    yield str(server.make_url("")).rstrip("/"), reached
    await server.close()


async def _upload_naming(served: Served, url: str) -> tuple[int, list[dict[str, str]]]:
    """Upload the PDF with `url` in every place a client could name a GROBID server."""
    form = aiohttp.FormData()
    for name in ("grobid_url", "grobid", "AUDITOR_GROBID_URL"):
        form.add_field(name, url)
    form.add_field("bibliography", PDF, filename="paper.pdf", content_type="application/pdf")
    query = {"grobid_url": url, "grobid": url}
    headers = {"X-Grobid-Url": url}
    async with served.http.post(
        served.url + "/audit", data=form, params=query, headers=headers
    ) as resp:
        page = await resp.text()
        if resp.status != 200:
            return resp.status, []
    table = _downloads(page)["verdicts.csv"].decode("utf-8-sig")
    return resp.status, list(csv.DictReader(io.StringIO(table)))


async def test_an_upload_naming_a_grobid_url_reaches_nothing(
    server_factory: Any, elsewhere: tuple[str, list[str]]
) -> None:
    url, reached = elsewhere
    served: Served = await server_factory()  # the operator set no GROBID
    status, rows = await _upload_naming(served, url)
    assert status == 200
    assert [r["source_label"] for r in rows] == ["1"]  # the built-in reader read the PDF
    assert reached == []


async def test_the_operators_grobid_is_asked_and_the_requests_is_not(
    server_factory: Any, elsewhere: tuple[str, list[str]]
) -> None:
    url, reached = elsewhere
    grobid = await start_emulator(Corpus(grobid=[REFERENCE]))  # GROBID on a host of its own
    try:
        corpus = Corpus(crossref={**WORKS, WORK["DOI"]: WORK}, agencies={"10.5555": "Crossref"})
        served: Served = await server_factory(corpus, grobid_url=f"{grobid.origin}/grobid")
        status, rows = await _upload_naming(served, url)
        assert grobid.counts["grobid_references"] == 1
    finally:
        await grobid.close()
    assert status == 200
    assert [(r["key"], r["verdict"]) for r in rows] == [("b0", "RESOLVES-AND-MATCHES")]
    assert reached == []


async def test_a_check_body_naming_a_grobid_url_is_refused(served: Served) -> None:
    body = {**check_body("10.5555/serve.1", "Signed reference checks over HTTP")}
    body["grobid_url"] = "http://127.0.0.1:9/"
    status, answer = await served.post("/check", body)
    assert status == 400 and "grobid_url" in str(answer)
