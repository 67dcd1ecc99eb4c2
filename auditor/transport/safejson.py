"""JSON from untrusted bytes (a register body, a cache value), bounded in size and depth.

`json.loads` alone lets a hostile answer raise `RecursionError` (1,000 nested `[`), pass
`NaN`/`Infinity`, or hand back lone surrogates (`"\\ud800"`) that Arrow refuses later, after the
value was cached. `loads` refuses the first two as `MalformedBody` and replaces lone surrogates
with U+FFFD, so whatever it returns is plain data any later stage can keep.
"""

from __future__ import annotations

import json
import re
from typing import Any

from auditor.errors import MalformedBody, Reason

#: Nesting deeper than this is refused. Real register bodies nest under 10 levels (a Crossref
#: work-list item's `issued.date-parts` is the deepest, at 7).
MAX_DEPTH = 64

#: A JSON string literal; run only over text `json.loads` accepted, so every quote is closed
#: and the match is linear.
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
#: Every byte but the four brackets, for `bytes.translate(None, delete=…)`.
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _no_constants(name: str) -> Any:
    raise ValueError(f"non-standard JSON literal {name}")


def _nests_deeper(brackets: bytes, limit: int) -> bool:
    """Whether a string of brackets is not emptied by `limit` passes that each delete the
    innermost `[]`/`{}` pairs (a balanced string of depth d empties in d passes)."""
    for _ in range(limit):
        if not brackets:
            return False
        brackets = brackets.replace(b"[]", b"").replace(b"{}", b"")
    return bool(brackets)


def _too_deep(data: bytes, limit: int) -> bool:
    """Whether valid JSON `data` nests deeper than `limit`, without recursing.

    Fast path: the brackets of the whole text, strings included; brackets inside strings can
    only make that look deeper or unbalanced, never shallower, so only a document that fails it
    is checked again with its strings cut out.
    """
    if not _nests_deeper(data.translate(None, _NOT_BRACKETS), limit):
        return False
    return _nests_deeper(_STRING.sub(b"", data).translate(None, _NOT_BRACKETS), limit)


def clean_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (a pair was already joined by JSON)."""
    return _SURROGATE.sub("\ufffd", text)


def _clean(value: Any) -> Any:
    """`value` with lone surrogates replaced in every string and key (depth already bounded)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(k): _clean(v) for k, v in value.items()}
    return value


def loads(
    data: bytes, what: str, *, max_bytes: int | None = None, max_depth: int = MAX_DEPTH
) -> Any:
    """Decode UTF-8 JSON `data`; raise `MalformedBody` naming `what` when it is not plain JSON.

    Refused: more than `max_bytes` (reason `body_too_large`), non-UTF-8, invalid JSON,
    `NaN`/`Infinity`, integers too long for Python, nesting deeper than `max_depth`.
    """
    if max_bytes is not None and len(data) > max_bytes:
        raise MalformedBody(f"{what}: body over {max_bytes} bytes", Reason.BODY_TOO_LARGE)
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        detail = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise MalformedBody(f"{what}: not JSON ({detail})", Reason.MALFORMED_BODY) from None
    if _too_deep(data, max_depth):
        raise MalformedBody(f"{what}: JSON nested deeper than {max_depth}", Reason.MALFORMED_BODY)
    if _SURROGATE_ESCAPE.search(data):
        value = _clean(value)
    return value


__all__ = ["MAX_DEPTH", "clean_text", "loads"]
