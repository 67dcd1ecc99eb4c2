"""The waterfall's one door to the network: memoized GETs and strict JSON decoding.

Every request of a run goes through one `Lookups`, which asks `fetch` at most once per
(register, URL, query, Accept) and replays the stored reply, or the stored failure, afterwards:
"no request twice within a run". `fetch` is the transport (throttles, retries, body cap, redirect
policy); it returns a `Reply` for any HTTP status the caller reads as data (200, 404) and raises a
`RegisterError` for everything that is a failure to look.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlencode

from auditor.errors import MalformedBody, Reason, RegisterError
from auditor.transport import safejson

#: Bodies larger than this are refused before decoding (cases: bodies are capped at 2 MiB).
MAX_JSON_BYTES = 2 * 1024 * 1024

#: JSON nesting deeper than this is refused before it can exhaust the parser (cases: deep JSON).
MAX_JSON_DEPTH = 32


@dataclass(frozen=True)
class Reply:
    """One HTTP answer the transport let through (policy already checked on every hop)."""

    status: int
    body: bytes
    url: str
    """The final URL, after redirects."""
    content_type: str | None = None


class Fetch(Protocol):
    """The transport seam: one GET; raises `RegisterError` on a failure to look."""

    def __call__(
        self,
        register: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        accept: str | None = None,
    ) -> Awaitable[Reply]: ...


@dataclass
class Lookups:
    """Memoized, counted GETs for one run of the waterfall."""

    fetch: Fetch
    memo: dict[tuple[str, str, str, str], Reply | RegisterError] = field(default_factory=dict)
    locks: dict[tuple[str, str, str, str], asyncio.Lock] = field(default_factory=dict)
    """One lock per key, so two concurrent askers of one URL still make one request."""
    log: list[str] = field(default_factory=list)
    """Every request actually sent, as `register URL?query`, in order."""

    async def get(
        self,
        register: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        accept: str | None = None,
    ) -> Reply:
        """GET once per run; a repeated call replays the reply or re-raises the failure."""
        query = urlencode(sorted((params or {}).items()))
        key = (register, url, query, accept or "")
        async with self.locks.setdefault(key, asyncio.Lock()):
            if key not in self.memo:
                self.log.append(f"{register} {url}" + (f"?{query}" if query else ""))
                try:
                    self.memo[key] = await self.fetch(register, url, params=params, accept=accept)
                except RegisterError as exc:
                    self.memo[key] = exc
        stored = self.memo[key]
        if isinstance(stored, RegisterError):
            raise stored
        return stored

    def count(self, register: str) -> int:
        """Requests sent to `register` so far."""
        return sum(1 for line in self.log if line.split(" ", 1)[0] == register)


def decode_json(reply: Reply, what: str) -> Any:
    """Decode `reply.body` as JSON or raise `MalformedBody` naming `what`.

    Refuses bodies over `MAX_JSON_BYTES`, non-UTF-8, non-JSON, NaN/Infinity literals and
    nesting deeper than `MAX_JSON_DEPTH`.
    """

    return safejson.loads(reply.body, what, max_bytes=MAX_JSON_BYTES, max_depth=MAX_JSON_DEPTH)


def malformed(what: str, reason: Reason = Reason.MALFORMED_BODY) -> MalformedBody:
    """A `MalformedBody` for a payload of the wrong shape."""
    return MalformedBody(f"{what}: unexpected payload shape", reason)
