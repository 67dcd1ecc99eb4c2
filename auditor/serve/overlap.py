"""The citation-overlap contract over HTTP: `POST /v1/sources/check`.

`spec/citation-overlap-openapi.json`, without its payments (no 402, 202 or 409; no payment
headers). The body goes to `auditor.overlap.contract.check_bundle`, the function `auditor overlap
BUNDLE.json` calls, with the contract's own limits. Answers: 200 with the result (compact JSON,
at most 65,536 bytes); 415 when the body is not `application/json`; 413 above 262,144 bytes
(refused from `Content-Length` before reading, else after reading one byte past the bound);
400 `{"error": "invalid_request", "detail": …, "field": …}` for any bundle the contract rejects,
including one whose result would exceed the result bound. Nothing is fetched.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from auditor.overlap.contract import CONTRACT_LIMITS, OverlapRequestError, check_bundle
from auditor.overlap.response import encode_result
from auditor.serve.bodies import BodyTooLarge, BodyTooSlow, problem, read_capped
from auditor.serve.state import STATE

__all__ = ["MAX_REQUEST_BYTES", "post_sources_check", "routes"]

MAX_REQUEST_BYTES = CONTRACT_LIMITS.max_request_bytes or 262_144


def _timeout(request: web.Request) -> float | None:
    state = request.app.get(STATE)
    return state.settings.client_timeout if state is not None else None


async def post_sources_check(request: web.Request) -> web.Response:
    """Find citation overlap among a claim's 2-10 citations."""
    if request.content_type != "application/json":
        return problem(
            415,
            "unsupported_media_type",
            f"application/json required, not {request.content_type or 'no Content-Type'}",
        )
    try:
        body = await read_capped(request, MAX_REQUEST_BYTES, timeout=_timeout(request))
    except BodyTooLarge as exc:
        return problem(413, "body_too_large", str(exc))
    except BodyTooSlow as exc:
        return problem(408, "request_timeout", str(exc))
    try:
        result = await asyncio.to_thread(check_bundle, body)  # CPU work, off the loop
    except OverlapRequestError as exc:
        return problem(400, "invalid_request", str(exc), field=exc.field)
    return web.Response(
        text=encode_result(result), content_type="application/json", charset="utf-8"
    )


def routes() -> list[web.RouteDef]:
    """The contract's one route."""
    return [web.post("/v1/sources/check", post_sources_check)]
