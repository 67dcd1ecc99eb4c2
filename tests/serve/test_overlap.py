"""The citation-overlap contract over HTTP: its examples reproduce, with its 400/413/415."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.overlap.conftest import contract_examples
from tests.serve.conftest import Served

ROUTE = "/v1/sources/check"


@pytest.mark.parametrize("example", contract_examples(), ids=lambda e: e["name"])
async def test_the_contract_examples_reproduce_over_http(
    served: Served, example: dict[str, Any]
) -> None:
    status, body = await served.post(ROUTE, example["request"])
    assert status == 200
    assert body == example["response"]


async def test_the_same_code_as_auditor_overlap(served: Served) -> None:
    from auditor.overlap.contract import check_bundle

    request = contract_examples()[1]["request"]
    assert (await served.post(ROUTE, request))[1] == check_bundle(request)


async def test_not_json_media_type_is_415(served: Served) -> None:
    body = json.dumps(contract_examples()[0]["request"])
    async with served.http.post(
        served.url + ROUTE, data=body, headers={"Content-Type": "text/plain"}
    ) as resp:
        assert resp.status == 415
        assert (await resp.json())["error"] == "unsupported_media_type"


async def test_above_262144_bytes_is_413(served: Served) -> None:
    request = {"claim": "x" * 262_200, "citations": []}
    status, body = await served.post(ROUTE, json.dumps(request))
    assert status == 413 and body["error"] == "body_too_large"
    exact = json.dumps({"claim": "c", "citations": [], "pad": ""})
    padded = exact.replace('"pad": ""', '"pad": "' + "p" * (262_144 - len(exact)) + '"')
    assert len(padded.encode()) == 262_144
    status, body = await served.post(ROUTE, padded)
    assert status == 400  # at the bound it is read, then refused as a bundle (`pad`)


async def test_an_invalid_bundle_is_400_with_error_and_detail(served: Served) -> None:
    cases = [
        ({"claim": "c", "citations": [{"id": "a", "url": "https://a.test"}]}, "citations"),
        (
            {
                "claim": "c",
                "citations": [
                    {"id": "a", "url": "http://a.test"},
                    {"id": "b", "url": "https://b.test"},
                ],
            },
            "citations[0].url",
        ),
        (
            {
                "claim": "c",
                "citations": [
                    {"id": "a", "url": "https://a.test", "derives_from": "b",
                     "evidence_locator": "p1"},
                    {"id": "b", "url": "https://b.test", "derives_from": "a",
                     "evidence_locator": "p2"},
                ],
            },
            "citations[0].derives_from",
        ),
    ]  # fmt: skip
    for request, field in cases:
        status, body = await served.post(ROUTE, request)
        assert status == 400, body
        assert body["error"] == "invalid_request" and body["field"] == field
        assert body["detail"]
    status, body = await served.post(ROUTE, b"{not json")
    assert status == 400 and body["error"] == "invalid_request"
    status, body = await served.post(ROUTE, b"")
    assert status == 400


async def test_no_route_answers_402(served: Served) -> None:
    for path in ("/check", "/precheck", ROUTE):
        async with served.http.post(served.url + path, data=b"") as resp:
            assert resp.status != 402
