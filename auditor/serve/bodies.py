"""Request bodies read within a byte cap, and the JSON error answers every route gives.

A body over its cap is refused from its `Content-Length` before a byte is read, and a body
without one (chunked) is read only one byte past the cap: a 20 MB upload costs 16 KB of reading.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from auditor.load.caps import MAX_FIELD_CHARS, MAX_NAMES

__all__ = ["BodyTooLarge", "BodyTooSlow", "bounded", "json_response", "problem", "read_capped"]

_CHUNK = 64 * 1024


class BodyTooLarge(Exception):
    """The body is larger than the route allows."""

    def __init__(self, cap: int, size: int | None) -> None:
        shown = f"{size} bytes" if size is not None else f"more than {cap} bytes"
        super().__init__(f"request body of {shown} exceeds the {cap}-byte limit")
        self.cap = cap


class BodyTooSlow(Exception):
    """The body did not arrive within the time a client has to send it."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"the request body did not arrive within {timeout:g} s")


async def read_capped(request: web.Request, cap: int, *, timeout: float | None = None) -> bytes:
    """The whole body, or `BodyTooLarge` as soon as it is known to exceed `cap` bytes, or
    `BodyTooSlow` when it has not all arrived within `timeout` seconds."""
    declared = request.content_length
    if declared is not None and declared > cap:
        raise BodyTooLarge(cap, declared)
    if timeout is None:
        return await _read(request, cap)
    try:
        async with asyncio.timeout(timeout):
            return await _read(request, cap)
    except TimeoutError:
        raise BodyTooSlow(timeout) from None


async def _read(request: web.Request, cap: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await request.content.read(min(_CHUNK, cap + 1 - size))
        if not chunk:
            break
        size += len(chunk)
        if size > cap:
            raise BodyTooLarge(cap, None)
        chunks.append(chunk)
    return b"".join(chunks)


def bounded(value: Any) -> Any:
    """`value` with every string cut to `MAX_FIELD_CHARS` and every list to `MAX_NAMES` items:
    a register's record of any size gives an answer of bounded size."""
    if isinstance(value, str):
        return value[:MAX_FIELD_CHARS]
    if isinstance(value, list):
        return [bounded(v) for v in value[:MAX_NAMES]]
    if isinstance(value, dict):
        return {k: bounded(v) for k, v in value.items()}
    return value


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A UTF-8 JSON answer (non-ASCII kept as is)."""
    return web.Response(
        body=json.dumps(data, ensure_ascii=False).encode("utf-8"),
        status=status,
        content_type="application/json",
        charset="utf-8",
        headers=headers,
    )


def problem(
    status: int,
    error: str,
    detail: str,
    *,
    field: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> web.Response:
    """`{"error": code, "detail": text, "field"?: path, …}` with `status`."""
    body: dict[str, Any] = {"error": error, "detail": detail}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return json_response(body, status, headers)
