"""Fault injection: which fault a request gets, and what that fault does to its answer.

Kinds: `5xx` (HTTP 500), `timeout` (stall `hang_seconds`), `reset` (TCP RST before any byte),
`cut` (headers and half the body, then RST), `truncated` (half the body with a matching
Content-Length), `malformed` (HTML for JSON, an entity-expansion document for XML), `wrong_echo`
(the record names another id), `redirect_http` / `redirect_ip` (302 to an unsafe target), `429`.

Hostile kinds (issue #11), what a malicious or badly broken server sends: `deep_json` (JSON nested
100,000 deep), `big_number` (every integer of a JSON answer beyond 32 bits), `lone_surrogate`
(`\\ud800` escapes in every `title`), `wrong_type` (every `title` an object), `redirect_garbage`
(302 to the unparseable `http://[::1`), `retry_after_long` (429 with `Retry-After: 119`),
`rate_crawl` (a normal answer whose `X-Rate-Limit-*` headers allow one request a day),
`endless` (a body that never ends) and `slow_body` (a byte at a time, never finishing in time).

A fault named for an identifier (`EmulatorConfig.faults`) hits every request naming it, so a batch
containing a broken id keeps failing until the client splits it out; `wrong_echo` instead corrupts
only that id's record. Transient faults hit a request at `fault_rate`, so a retry can succeed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from auditor.emulator.config import EmulatorConfig
from auditor.emulator.reply import Reply, text_reply

#: Faults decided before the answer is built (they replace it outright).
REPLACING = frozenset(
    {"5xx", "429", "redirect_http", "redirect_ip", "redirect_garbage", "retry_after_long"}
)

#: Faults whose body is streamed by the app (`endless`, `slow_body`) instead of sent at once.
STREAMING = frozenset({"endless", "slow_body"})

#: Faults that rewrite a JSON answer's content (`corrupt`).
_JSON_REWRITES = frozenset({"deep_json", "big_number", "lone_surrogate", "wrong_type"})

#: Nesting of `deep_json` bodies: far past any parser's recursion limit.
DEEP = 100_000

#: Host of `redirect_http` targets: `.invalid` never resolves (RFC 6761), so a client that
#: wrongly follows the redirect fails without leaving the machine.
UNSAFE_HOST = "unsafe.invalid"

#: Bare-IP target of `redirect_ip`: another loopback address, never the internet.
UNSAFE_IP = "127.0.0.2"

_ENTITY_BOMB = (
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    '<!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n'
    '<feed xmlns="http://www.w3.org/2005/Atom"><title>&c;</title></feed>\n'
)
_HTML_GATEWAY = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@dataclass
class FaultPlan:
    """What happens to one request: at most one whole-request fault, plus ids to echo wrongly."""

    kind: str | None = None
    wrong_echo: set[str] = field(default_factory=set)


def plan(
    config: EmulatorConfig, service: str, identifiers: Iterable[str], rng: random.Random
) -> FaultPlan:
    """Decide the faults of a request of `service` naming `identifiers` (compared lowercase)."""
    table = {key.lower(): kind for key, kind in config.faults.items()}
    ids = [i.lower() for i in identifiers]
    result = FaultPlan()
    for ident in ids:
        kind = table.get(f"{service}:{ident}") or table.get(ident)
        if kind == "wrong_echo":
            result.wrong_echo.add(ident)
        elif kind is not None and result.kind is None:
            result.kind = kind
    if result.kind is None and config.fault_rate > 0 and rng.random() < config.fault_rate:
        kind = rng.choice(config.fault_kinds)
        if kind == "wrong_echo":
            result.wrong_echo.update(ids)
        else:
            result.kind = kind
    return result


def replacement(kind: str, path_qs: str, port: int) -> Reply:
    """The answer of a fault that replaces the real one (`REPLACING`)."""
    if kind == "5xx":
        return text_reply("Internal Server Error", 500)
    if kind == "429":
        return text_reply("Too Many Requests", 429, **{"Retry-After": "1"})
    if kind == "redirect_http":
        return text_reply("", 302, Location=f"http://{UNSAFE_HOST}{path_qs}")
    if kind == "redirect_ip":
        return text_reply("", 302, Location=f"https://{UNSAFE_IP}:{port}{path_qs}")
    if kind == "redirect_garbage":
        return text_reply("", 302, Location="http://[::1")
    if kind == "retry_after_long":
        return text_reply("Too Many Requests", 429, **{"Retry-After": "119"})
    raise ValueError(f"{kind} does not replace an answer")


def corrupt(kind: str, reply: Reply) -> Reply:
    """Apply a body fault: `truncated` cuts the body in half (with a matching Content-Length, so
    only the parser can notice); `malformed` swaps in an HTML error page for JSON, or an
    entity-expansion document for XML."""
    if kind == "truncated":
        return Reply(
            reply.status, reply.body[: len(reply.body) // 2], reply.content_type, reply.headers
        )
    if kind == "malformed":
        bad = _ENTITY_BOMB if "xml" in reply.content_type else _HTML_GATEWAY
        return Reply(reply.status, bad.encode("utf-8"), reply.content_type, reply.headers)
    if kind == "rate_crawl":
        crawl = {"X-Rate-Limit-Limit": "1", "X-Rate-Limit-Interval": "86400s"}
        return Reply(reply.status, reply.body, reply.content_type, {**reply.headers, **crawl})
    if kind in _JSON_REWRITES and "json" in reply.content_type:
        return Reply(reply.status, _rewrite(kind, reply.body), reply.content_type, reply.headers)
    return reply


def _rewrite(kind: str, body: bytes) -> bytes:
    """A JSON answer made hostile in one way (see the module docstring)."""
    if kind == "deep_json":
        return b"[" * DEEP + b"]" * DEEP
    try:
        data = json.loads(body)
    except ValueError:
        return body

    def walk(value: Any, key: str | None = None) -> Any:
        if key == "title" and kind == "wrong_type":
            return {"value": value}
        if key == "title" and kind == "lone_surrogate" and isinstance(value, str):
            return value + "\ud800"
        if key == "title" and kind == "lone_surrogate" and isinstance(value, list):
            return [v + "\ud800" if isinstance(v, str) else v for v in value]
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if kind == "big_number" and isinstance(value, int) and not isinstance(value, bool):
            return 2**40 + value
        return value

    # ensure_ascii writes a lone surrogate as the `\ud800` escape a hostile server would send.
    return json.dumps(walk(data)).encode("ascii")
