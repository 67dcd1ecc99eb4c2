"""Connections of `auditor serve`: timeouts, a per-address cap, and errors that echo nothing.

aiohttp's server waits for ever on a request head that never ends and answers a malformed one
with its parser's message (the offending bytes) after logging a traceback with them. Here:

- **head timeout**: a connection that has not sent one whole request head within
  `client_timeout` seconds (since it opened, or since its last request) is closed; a request
  being handled is never cut by it (its body has its own deadline, `bodies.read_capped`);
- **connection cap**: at most `client_connections` open connections per remote address; one
  more is closed at once, before a byte is read;
- **malformed requests**: the answer is the bare status line's words (`400 Bad Request`), and
  the log gets one line with the status and the error's type, never its message, the request's
  bytes or a traceback (the README's promise that nothing submitted is logged).
"""

from __future__ import annotations

import asyncio
import logging
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

__all__ = ["GuardedRunner"]

_log = logging.getLogger("auditor.serve")


def _peer(transport: asyncio.BaseTransport | None) -> str:
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


class _GuardedHandler(RequestHandler):
    """One connection: closed when its head is late; its errors answered with status words."""

    def __init__(self, manager: Server, *, head_timeout: float, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self._head_timeout = head_timeout
        self._tick: asyncio.TimerHandle | None = None
        self._heads_seen = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._tick = self._loop.call_later(self._head_timeout, self._check_head)

    def _check_head(self) -> None:
        """Close unless a request head arrived since the last check or one is being handled."""
        self._tick = None
        if self.transport is None:
            return
        busy = getattr(self, "_current_request", None) is not None or bool(self._messages)
        count = getattr(self, "_request_count", 0)
        if not busy and count == self._heads_seen:
            self.force_close()
            return
        self._heads_seen = count
        self._arm()

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        super().connection_lost(exc)

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """The status's words only; one log line with the status and the error's type."""
        kind = type(exc).__name__ if exc is not None else "error"
        _log.warning("request refused: %s (%s)", status, kind)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun; the connection is closed")
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = ""
        response = web.Response(status=status, text=f"{status} {phrase}\n")
        response.force_close()
        return response


class _GuardedServer(Server):
    """aiohttp's `Server` making `_GuardedHandler`s and counting connections per address."""

    def __init__(self, *args: Any, head_timeout: float, per_address: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timeout = head_timeout
        self._per_address = per_address
        self._open: dict[str, int] = {}
        self._peers: dict[RequestHandler, str] = {}

    def __call__(self) -> RequestHandler:
        return _GuardedHandler(
            self, loop=self._loop, head_timeout=self._head_timeout, **self._kwargs
        )

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        peer = _peer(transport)
        self._peers[handler] = peer
        self._open[peer] = self._open.get(peer, 0) + 1
        super().connection_made(handler, transport)
        if self._open[peer] > self._per_address:
            _log.warning(
                "connection refused: more than %d open from one address", self._per_address
            )
            handler.force_close()

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        peer = self._peers.pop(handler, None)
        if peer is not None:
            left = self._open.get(peer, 1) - 1
            if left > 0:
                self._open[peer] = left
            else:
                self._open.pop(peer, None)
        super().connection_lost(handler, exc)


class GuardedRunner(web.AppRunner):
    """`web.AppRunner` whose server is a `_GuardedServer` (head timeout, connection cap)."""

    def __init__(
        self, app: web.Application, *, head_timeout: float, per_address: int, **kwargs: Any
    ) -> None:
        # Idle keep-alive connections close on the same clock as a late head.
        super().__init__(app, keepalive_timeout=head_timeout, **kwargs)
        self._head_timeout = head_timeout
        self._per_address = per_address

    async def _make_server(self) -> Server:
        made = await super()._make_server()
        return _GuardedServer(
            made.request_handler,
            request_factory=made.request_factory,
            handler_cancellation=made.handler_cancellation,
            loop=asyncio.get_running_loop(),
            head_timeout=self._head_timeout,
            per_address=self._per_address,
            **made._kwargs,
        )
