"""Who `auditor serve` answers: its own host names, its own origin, and (when set) token holders.

One middleware, in this order, before any route reads a byte of the body:

1. **Host** (DNS rebinding): the `Host` header must name the bound address, `localhost` or a
   loopback address, a name of `allow_host`, or (bound to every address) any IP literal; else
   **421**. A page on `evil.example` whose name was rebound to 127.0.0.1 sends
   `Host: evil.example`, and is answered nothing.
2. **Origin**: a browser names the page that sent a request in `Origin`; one other than this
   service's own origin or an `allow_origin` is refused (**403**), so no web page can make a
   visitor's browser run lookups with their keys (a form or `text/plain` POST needs no
   preflight). Only an `allow_origin` gets CORS headers (and its preflight `OPTIONS`); without
   one, none are ever sent.
3. **Token**: with `serve_tokens`, every `POST` needs `Authorization: Bearer TOKEN` (the upload
   form may send a `token` field instead: see `page.py`); **401** otherwise.

`client_key(request)` is what allowances and queues are keyed on: the token's name, else the
remote address, never a label the client writes into its body.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from aiohttp import web

from auditor.errors import ConfigError
from auditor.serve.bodies import problem

__all__ = [
    "CLIENT",
    "GATE",
    "Gate",
    "check_token",
    "client_key",
    "is_loopback",
    "load_tokens",
    "middleware",
]

#: The allowance key of the request being handled, when a token named it (`token:NAME`). A
#: context variable, not a request item: aiohttp warns on string request keys. The middleware
#: sets it for each request and resets it after, so keep-alive requests never share it.
CLIENT: ContextVar[str | None] = ContextVar("auditor_client", default=None)
#: Largest token file read.
_MAX_TOKEN_FILE = 1 << 20


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or `localhost`) is this machine only."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def load_tokens(path: str) -> dict[str, str]:
    """Token → name from the file at `path`: one `NAME TOKEN` (or `TOKEN`, named by its line)
    a line, `#` comments and blank lines skipped. Raises `ConfigError` naming the file and line.
    (Make tokens long and random: `python -c "import secrets; print(secrets.token_urlsafe())"`.)"""
    try:
        with open(Path(path).expanduser(), "rb") as handle:
            raw = handle.read(_MAX_TOKEN_FILE + 1)
    except OSError as exc:
        raise ConfigError(f"serve_tokens {path}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > _MAX_TOKEN_FILE:
        raise ConfigError(f"serve_tokens {path}: larger than {_MAX_TOKEN_FILE} bytes")
    tokens: dict[str, str] = {}
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) > 2:
            raise ConfigError(f"serve_tokens {path}:{number}: expected `NAME TOKEN` or `TOKEN`")
        name = words[0] if len(words) == 2 else f"token{number}"
        tokens[words[-1]] = name
    if not tokens:
        raise ConfigError(f"serve_tokens {path}: no token in the file")
    return tokens


def check_token(tokens: Mapping[str, str], offered: str) -> str | None:
    """The name of the token `offered`, compared in constant time with each; `None` if none."""
    found = None
    for token, name in tokens.items():
        if hmac.compare_digest(token.encode(), offered.encode()):
            found = name
    return found


class Gate:
    """The names, origins and tokens one server answers (from its settings and bound address)."""

    def __init__(
        self,
        bound: str,
        port: int,
        allow_host: tuple[str, ...] = (),
        allow_origin: tuple[str, ...] = (),
        tokens: Mapping[str, str] | None = None,
    ) -> None:
        self.bound = bound.strip("[]").lower()
        self.port = port
        self.hosts = {"localhost", self.bound, *(h.strip().lower() for h in allow_host)}
        self.origins = {o.strip().rstrip("/").lower() for o in allow_origin if o.strip()}
        self.tokens = dict(tokens or {})
        self.any_address = self.bound in ("0.0.0.0", "::", "")

    def host_ok(self, header: str | None) -> bool:
        """Whether the `Host` header names this server."""
        if not header:
            return False
        host = urlsplit(f"//{header}").hostname or ""
        if host in self.hosts or is_loopback(host):
            return True
        return self.any_address and _is_ip(host)

    def origin_ok(self, origin: str, host_header: str) -> bool:
        """Whether `origin` is this service's own (same host and port) or an allowed one."""
        shown = origin.strip().rstrip("/").lower()
        if shown in self.origins:
            return True
        parts = urlsplit(shown)
        # https: behind a TLS-terminating proxy that keeps the Host header.
        return parts.scheme in ("http", "https") and parts.netloc == host_header.strip().lower()


#: Where the application keeps its `Gate` (the upload page reads a form's token against it).
GATE = web.AppKey("gate", Gate)


def _cors(response: web.StreamResponse, origin: str) -> web.StreamResponse:
    response.headers["Access-Control-Allow-Origin"] = origin
    response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type"
    response.headers["Access-Control-Allow-Methods"] = "GET, POST"
    response.headers["Access-Control-Max-Age"] = "600"
    response.headers.add("Vary", "Origin")
    return response


def client_key(request: web.Request) -> str:
    """The allowance key of `request`: its token's name, else its remote address."""
    return CLIENT.get() or f"addr:{request.remote or 'unknown'}"


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Middleware(Protocol):
    """An aiohttp middleware (the shape `web.Application(middlewares=…)` takes)."""

    def __call__(self, request: web.Request, handler: Handler) -> Awaitable[web.StreamResponse]: ...


def middleware(gate: Gate) -> Middleware:
    """The aiohttp middleware enforcing `gate` (Host, Origin, token) on every request."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host", "")
        if not gate.host_ok(host):
            return problem(421, "misdirected_request", "this server does not answer that Host")
        origin = request.headers.get("Origin")
        allowed_origin = origin is not None and origin.strip().rstrip("/").lower() in gate.origins
        if origin is not None and not gate.origin_ok(origin, host):
            return problem(403, "foreign_origin", "requests from other web origins are refused")
        if request.method == "OPTIONS":
            if allowed_origin and origin is not None:
                return _cors(web.Response(status=204), origin)
            return problem(405, "method_not_allowed", "no CORS preflight is answered here")
        token = _bearer(request) if gate.tokens else None
        name = check_token(gate.tokens, token) if token is not None else None
        if token is not None and name is None:
            return problem(401, "invalid_token", "the bearer token is not one of this server's")
        if name is None and gate.tokens and request.method == "POST" and request.path != "/audit":
            return problem(
                401,
                "token_required",
                "this server needs Authorization: Bearer TOKEN",
                headers={"WWW-Authenticate": "Bearer"},
            )
        bound = CLIENT.set(f"token:{name}" if name is not None else None)
        try:
            response = await handler(request)
        finally:
            CLIENT.reset(bound)
        if allowed_origin and origin is not None:
            _cors(response, origin)
        return response

    return guard
