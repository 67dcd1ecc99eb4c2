"""The body of `/check` and `/precheck`, checked strictly against the contract's shape.

`parse_request(body)` gives a `CheckRequest`, or `BadRequest` naming the JSON path at fault
(`reference.claimed.title`) in the words a 400 answer carries.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_CALLER_CHARS", "BadRequest", "CheckRequest", "parse_request"]

#: Longest `caller` accepted (a Solana base58 wallet is 32-44 characters).
MAX_CALLER_CHARS = 128
_TOP = ("reference", "caller")
_REFERENCE = ("type", "id", "claimed")
_CLAIMED = ("title", "authors", "year")


class BadRequest(Exception):
    """A body the contract refuses; `field` is the JSON path at fault."""

    def __init__(self, field: str, detail: str, error: str = "invalid_request") -> None:
        super().__init__(f"{field}: {detail}")
        self.field = field
        self.detail = f"{field}: {detail}"
        self.error = error


@dataclass(frozen=True)
class CheckRequest:
    """A body that has the contract's shape."""

    id: str
    type: str | None
    title: str
    authors: list[str]
    year: int | None
    caller: str | None


_SURROGATE = re.compile("[\ud800-\udfff]")
#: C0 controls and DEL: never part of a DOI, PMID or arXiv id (they would be looked up as given).
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise BadRequest("body", f"duplicate key {key!r}", "invalid_json")
        obj[key] = value
    return obj


def _object(value: object, at: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadRequest(at, "must be a JSON object")
    for name in value:
        if name not in allowed:
            raise BadRequest(f"{at}.{name}" if at != "body" else name, "is not a contract field")
    return value


def _claimed(claimed: dict[str, Any]) -> tuple[str, list[Any], int | None]:
    """The claimed title, authors and year, or `BadRequest` naming the first that is wrong."""
    title = claimed.get("title")
    if not isinstance(title, str) or not title.strip():
        raise BadRequest("reference.claimed.title", "is required (a non-empty string)")
    authors = claimed.get("authors")
    if authors is None:
        authors = []
    if not isinstance(authors, list):
        raise BadRequest("reference.claimed.authors", "must be an array of strings")
    for i, author in enumerate(authors):
        if not isinstance(author, str):
            raise BadRequest(f"reference.claimed.authors[{i}]", "must be a string")
    year = claimed.get("year")
    if year is not None and (
        isinstance(year, bool) or not isinstance(year, int) or not -9999 <= year <= 9999
    ):
        raise BadRequest("reference.claimed.year", "must be an integer year")
    return title, authors, year


def _caller(caller: object, required: bool) -> str | None:
    """The caller wallet (`None` on `/check` when empty or absent), or `BadRequest`."""
    if caller is not None and not isinstance(caller, str):
        raise BadRequest("caller", "must be a string")
    if isinstance(caller, str) and not caller.strip():
        if required:
            raise BadRequest("caller", "must be a non-empty string")
        caller = None  # /check keys nothing on the caller: an empty one is no caller
    if caller is not None and len(caller) > MAX_CALLER_CHARS:
        raise BadRequest("caller", f"must be at most {MAX_CALLER_CHARS} characters")
    if required and caller is None:
        raise BadRequest("caller", "is required on /precheck (it keys the free allowance)")
    return caller


def parse_request(body: bytes, *, caller_required: bool) -> CheckRequest:
    """The request in `body`, or `BadRequest` naming the first field that is wrong."""
    try:
        data = json.loads(body.decode("utf-8-sig"), object_pairs_hook=_no_duplicates)
    except UnicodeDecodeError:
        raise BadRequest("body", "is not UTF-8", "invalid_json") from None
    except RecursionError:
        raise BadRequest("body", "JSON nested too deeply", "invalid_json") from None
    except json.JSONDecodeError as exc:
        detail = f"malformed JSON ({exc.msg} at {exc.pos})"
        raise BadRequest("body", detail, "invalid_json") from None
    top = _object(data, "body", _TOP)
    if "reference" not in top:
        raise BadRequest("reference", "is required")
    ref = _object(top["reference"], "reference", _REFERENCE)
    ident = ref.get("id")
    if isinstance(ident, int) and not isinstance(ident, bool) and ident >= 0:
        ident = str(ident)  # a PMID sent as a JSON number is the same all-digits id
    if not isinstance(ident, str) or not ident.strip():
        raise BadRequest("reference.id", "is required (a non-empty string)")
    declared = ref.get("type")
    if declared is not None and not isinstance(declared, str):
        raise BadRequest("reference.type", "must be a string when given")
    if "claimed" not in ref:
        raise BadRequest("reference.claimed", "is required")
    title, authors, year = _claimed(_object(ref["claimed"], "reference.claimed", _CLAIMED))
    caller = _caller(top.get("caller"), caller_required)
    strings = [("reference.id", ident), ("reference.type", declared or "")]
    strings += [("reference.claimed.title", title), ("caller", caller or "")]
    strings += [(f"reference.claimed.authors[{i}]", a) for i, a in enumerate(authors)]
    for at, text in strings:
        # JSON lets `"\ud800"` through; Arrow refuses it later, failing every request that
        # shares the batch, so it is this request's 400.
        if _SURROGATE.search(text):
            raise BadRequest(at, "is not valid Unicode (lone surrogate)")
    if _CONTROL.search(ident.strip()):
        raise BadRequest("reference.id", "must not contain control characters")
    return CheckRequest(
        id=ident,
        type=declared.strip() or None if isinstance(declared, str) else None,
        title=title,
        authors=list(authors),
        year=year,
        caller=caller,
    )
