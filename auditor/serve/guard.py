"""Connections of `auditor serve`: a per-address cap, head timeouts, errors that log nothing.

Built only on documented interfaces (#37): aiohttp's low-level `web.Server` is the protocol
factory asyncio's `loop.create_server` is documented to take, a middleware sees each request,
and the server's `logger` is the documented keyword of `web.AppRunner`. No aiohttp class is
subclassed and no private member read, so aiohttp needs no upper pin.

- **connection cap**: at most `client_connections` open connections per remote address. One
  more is answered `429 Too Many Requests` with `Retry-After` before a byte of it is read, then
  closed once the client has gone or `client_timeout` has passed;
- **head timeout**: a connection that has not sent one whole request head within
  `client_timeout` seconds (since it opened, or since its last request) is closed; a request
  being handled is never cut by it (its body has its own deadline, `bodies.read_capped`); idle
  keep-alive connections close on the same clock (`keepalive_timeout`);
- **malformed requests**: the log gets one line with the error's type, never its message, the
  request's bytes or a traceback (the README's promise that nothing submitted is logged).
  aiohttp's answer to a request it cannot parse is its parser's message, sent to the one client
  that sent those bytes; no documented hook changes it.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from auditor.serve.gates import Handler

__all__ = ["HTTP_LOG", "Guard", "refusal"]

_log = logging.getLogger("auditor.serve")

#: The logger aiohttp's server writes to (`web.AppRunner(logger=…)`): its records lose their
#: message arguments and traceback, which carry the client's bytes.
HTTP_LOG = logging.getLogger("auditor.serve.http")

RETRY_AFTER_S = 1  # a connection of the same address usually ends within a request's time


def _scrub(record: logging.LogRecord) -> bool:
    """Keep a record of aiohttp's server with the error's type only."""
    if record.exc_info:
        kind = type(record.exc_info[1]).__name__
        record.msg, record.args = "request refused (%s)", (kind,)
        record.exc_info, record.exc_text = None, None
    record.stack_info = None
    return True


HTTP_LOG.addFilter(_scrub)


def refusal(per_address: int) -> bytes:
    """The whole answer to a connection over the cap: 429 with `Retry-After`, then close."""
    body = f"429 Too Many Requests: more than {per_address} connections from one address\n"
    return (
        "HTTP/1.1 429 Too Many Requests\r\n"
        f"Retry-After: {RETRY_AFTER_S}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n" + body
    ).encode()


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


class Guard:
    """The connections of one listening socket: counted per address, each on a head clock.

    `protocol()` is the factory for `loop.create_server` once `server` is the runner's
    `web.Server`; `middleware` must be the app's first, so the clock knows when a request is
    being handled."""

    def __init__(self, *, head_timeout: float, per_address: int) -> None:
        self.server: web.Server | None = None  # the runner's, once it is set up
        self.head_timeout = head_timeout
        self.per_address = per_address
        self.open: dict[str, int] = {}
        self.fronts: dict[asyncio.BaseTransport, _Front] = {}

    def close(self) -> None:
        """Close every connection still open (at shutdown, after aiohttp closed its own)."""
        for transport in list(self.fronts):
            transport.close()

    def protocol(self) -> asyncio.Protocol:
        """A new connection's protocol."""
        return _Front(self)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Mark the connection busy while its request is handled."""
        front = self.fronts.get(request.transport) if request.transport is not None else None
        if front is None or front.inner is None:
            return await handler(request)
        front.heads += 1
        front.busy += 1
        try:
            return await handler(request)
        finally:
            front.busy -= 1


class _Front(asyncio.Protocol):
    """One connection: counted, refused over the cap, else handed to aiohttp's protocol."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.peer = ""
        self.heads = 0  # requests that reached the app on this connection
        self.busy = 0  # of them, still being handled
        self._seen = 0
        self._tick: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        guard = self.guard
        self.peer = _peer(transport)
        guard.open[self.peer] = guard.open.get(self.peer, 0) + 1
        guard.fronts[transport] = self
        self._arm()
        if guard.open[self.peer] > guard.per_address:
            _log.warning(
                "connection refused: more than %d open from one address", guard.per_address
            )
            transport.write(refusal(guard.per_address))
            # Half-close and keep reading: closing with unread bytes would reset the connection
            # and could destroy the answer before the client reads it.
            if transport.can_write_eof():
                transport.write_eof()
            return
        assert guard.server is not None, "connections are accepted only once the runner is set up"
        self.inner = guard.server()
        self.inner.connection_made(transport)

    def _arm(self) -> None:
        self._tick = asyncio.get_running_loop().call_later(self.guard.head_timeout, self._check)

    def _check(self) -> None:
        """Close unless a request reached the app since the last check or one is handled."""
        self._tick = None
        if self.transport is None or self.transport.is_closing():
            return
        if self.inner is None or (self.busy == 0 and self.heads == self._seen):
            self.transport.close()
            return
        self._seen = self.heads
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        guard = self.guard
        left = guard.open.get(self.peer, 1) - 1
        if left > 0:
            guard.open[self.peer] = left
        else:
            guard.open.pop(self.peer, None)
        if self.transport is not None:
            guard.fronts.pop(self.transport, None)
        if self.inner is not None:
            self.inner.connection_lost(exc)
