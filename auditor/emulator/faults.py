"""Fault injection: which fault a request gets, and what that fault does to its answer.

Kinds: `5xx` (HTTP 500), `timeout` (stall `hang_seconds`), `reset` (TCP RST before any byte),
`cut` (headers and half the body, then RST), `truncated` (half the body with a matching
Content-Length), `malformed` (HTML for JSON, an entity-expansion document for XML), `wrong_echo`
(the record names another id), `redirect_http` / `redirect_ip` (302 to an unsafe target), `429`.

A fault named for an identifier (`EmulatorConfig.faults`) hits every request naming it, so a batch
containing a broken id keeps failing until the client splits it out; `wrong_echo` instead corrupts
only that id's record. Transient faults hit a request at `fault_rate`, so a retry can succeed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from auditor.emulator.config import EmulatorConfig
from auditor.emulator.reply import Reply, text_reply

#: Faults decided before the answer is built (they replace it outright).
REPLACING = frozenset({"5xx", "429", "redirect_http", "redirect_ip"})

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
    return reply
