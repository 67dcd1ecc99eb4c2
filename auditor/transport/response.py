"""One HTTP answer as the registers see it: `Response`, its body read within a cap.

`read_capped` reads an aiohttp body in chunks and stops at the cap (or refuses a declared
`Content-Length` over it before reading), so no answer can fill memory; `Net` hands registers the
`Response` it makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from auditor.errors import MalformedBody, Reason
from auditor.transport import safejson

__all__ = ["Response", "read_capped"]

_READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Response:
    """One complete HTTP answer whose body was read within the cap."""

    status: int
    headers: Mapping[str, str]
    """Response headers, names lower-cased."""
    body: bytes
    url: str
    """The final URL after any followed redirects."""

    @property
    def content_type(self) -> str | None:
        """The media type of the body (`application/json`), without parameters."""
        value = self.headers.get("content-type")
        return value.split(";")[0].strip().lower() if value else None

    def json(self, max_bytes: int | None = None) -> Any:
        """The body as bounded JSON (`safejson.loads`); raises `MalformedBody` when it is not.

        `max_bytes` refuses a longer body (reason `body_too_large`) below the transport's cap.
        """
        return safejson.loads(self.body, self.url, max_bytes=max_bytes)


async def read_capped(resp: aiohttp.ClientResponse, headers: Mapping[str, str], cap: int) -> bytes:
    """The body of `resp`, at most `cap` bytes; raises `MalformedBody` (`body_too_large`, or
    `malformed_body` for an unreadable `Content-Length`) past it."""
    declared = headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise MalformedBody(f"bad Content-Length {declared!r}", Reason.MALFORMED_BODY)
        if int(declared) > cap:
            raise MalformedBody(f"body of {declared} bytes over cap", Reason.BODY_TOO_LARGE)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await resp.content.read(_READ_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > cap:
            raise MalformedBody(f"body over {cap} bytes", Reason.BODY_TOO_LARGE)
        chunks.append(chunk)
    return b"".join(chunks)
