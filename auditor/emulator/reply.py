"""`Reply`: a finished answer (status, body bytes, headers) before faults and latency touch it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

JSON_UTF8 = "application/json;charset=UTF-8"


@dataclass
class Reply:
    """One HTTP answer as bytes, so faults can cut or corrupt it exactly."""

    status: int
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


def json_reply(
    obj: Any,
    status: int = 200,
    content_type: str = JSON_UTF8,
    escape_slashes: bool = False,
    **headers: str,
) -> Reply:
    """`obj` as compact JSON; `escape_slashes` writes `/` as Crossref does (`10.1371\\/j…`)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    if escape_slashes:
        # Crossref's serializer escapes every solidus; `\/` is valid JSON for `/`.
        text = text.replace("/", "\\/")
    return Reply(status, text.encode("utf-8"), content_type, dict(headers))


def text_reply(text: str, status: int, content_type: str = "text/plain", **headers: str) -> Reply:
    """A plain or HTML body."""
    return Reply(status, text.encode("utf-8"), content_type, dict(headers))


def mangle(identifier: str) -> str:
    """A different, plausible identifier for wrong-echo faults (last digit bumped, or `x` added)."""
    if identifier and identifier[-1].isdigit():
        return identifier[:-1] + str((int(identifier[-1]) + 1) % 10)
    return identifier + "x"
