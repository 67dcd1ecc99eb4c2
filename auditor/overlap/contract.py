"""Request validation of the citation-overlap contract, and `check_bundle`, its one entry point.

`spec/citation-overlap-openapi.json` (`POST /v1/sources/check`): a claim label and 2-10 citations
(`id`, HTTPS `url`, optional `html`, optional `derives_from` with `evidence_locator`). Every bound
and rule of the request schema and of `x-agent-guide.constraints` is checked here, in schema
order, and the first violation raises `OverlapRequestError` naming the field
(`citations[2].url`). Nothing is fetched; HTML is parsed, never executed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from auditor.errors import InputError
from auditor.overlap.anchors import extract_anchors
from auditor.overlap.response import Citation, build_result, result_bytes
from auditor.overlap.urls import normalize_url, url_problem

__all__ = [
    "BATCH_LIMITS",
    "CONTRACT_LIMITS",
    "Limits",
    "OverlapRequestError",
    "check_bundle",
    "check_citations",
    "parse_request",
]

_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class OverlapRequestError(InputError):
    """A bundle the contract rejects; `field` names where (`citations[1].html`, `claim`, …)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        """JSON path of the offending value, `request` for the body as a whole."""
        self.message = message
        """What is wrong, for a person."""


@dataclass(frozen=True)
class Limits:
    """Bounds of the contract that the batch form may lift; `None` means unbounded."""

    max_request_bytes: int | None = 262_144
    """Largest request body (as compact UTF-8 JSON when given as an object)."""
    max_citations: int | None = 10
    """Most citations in one bundle."""
    max_result_bytes: int | None = 65_536
    """Largest result as compact UTF-8 JSON."""


@dataclass(frozen=True)
class _Bounds:
    """The request bounds of the contract (`x-agent-guide.constraints` and the schema)."""

    claim_chars: int = 4000
    citations_min: int = 2
    html_bytes: int = 131_072
    anchors_per_citation: int = 100
    derives_from_chars: int = 64
    locator_chars: int = 256


_BOUNDS = _Bounds()

CONTRACT_LIMITS = Limits()
"""The contract's own limits."""

BATCH_LIMITS = Limits(max_request_bytes=None, max_citations=None, max_result_bytes=None)
"""The batch form checks a whole bibliography at once: no count or size bound on the bundle."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON object hook: a repeated key is ambiguous, so it is an error, not last-one-wins."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise OverlapRequestError("request", f"duplicate key {key!r}")
        obj[key] = value
    return obj


def parse_request(
    request: Mapping[str, Any] | bytes | str, limits: Limits = CONTRACT_LIMITS
) -> dict[str, Any]:
    """The request as a dict, after the byte bound; `OverlapRequestError("request", …)` if not.

    Bytes must be UTF-8 JSON of at most 262,144 bytes, with no repeated key. A dict is measured
    as the compact UTF-8 JSON it would travel as.
    """
    if isinstance(request, str):
        request = request.encode("utf-8", "surrogatepass")
    if limits.max_request_bytes is None:
        size = 0
    elif isinstance(request, bytes):
        size = len(request)
    else:
        try:
            # Lone surrogates are measured here and reported later under their own field.
            size = len(_compact(request).encode("utf-8", "surrogatepass"))
        except (TypeError, ValueError, UnicodeError) as exc:
            raise OverlapRequestError("request", f"not JSON-serializable: {exc}") from None
    if limits.max_request_bytes is not None and size > limits.max_request_bytes:
        raise OverlapRequestError(
            "request", f"{size} bytes exceeds the {limits.max_request_bytes}-byte limit"
        )
    if not isinstance(request, bytes):
        if not isinstance(request, Mapping):
            raise OverlapRequestError("request", "must be a JSON object")
        return dict(request)
    try:
        # A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 allows ignoring it).
        text = request.decode("utf-8-sig")
        parsed = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except UnicodeDecodeError:
        raise OverlapRequestError("request", "body is not UTF-8") from None
    except RecursionError:
        raise OverlapRequestError("request", "JSON nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise OverlapRequestError("request", f"not JSON: {exc.msg} at {exc.pos}") from None
    if not isinstance(parsed, dict):
        raise OverlapRequestError("request", "must be a JSON object")
    return parsed


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value: object, field: str, *, min_chars: int, max_chars: int, blank_ok: bool) -> str:
    """A string within its bounds, encodable as UTF-8, and not only whitespace unless allowed."""
    if not isinstance(value, str):
        raise OverlapRequestError(field, "must be a string")
    if len(value) < min_chars:
        raise OverlapRequestError(field, f"must be at least {min_chars} character(s)")
    if len(value) > max_chars:
        raise OverlapRequestError(field, f"must be at most {max_chars} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise OverlapRequestError(field, "is not valid Unicode (lone surrogate)") from None
    if not blank_ok and not value.strip():
        raise OverlapRequestError(field, "must contain non-whitespace text")
    return value


def _citation(raw: object, at: str) -> dict[str, Any]:
    """One citation object checked field by field; returns the fields as given."""
    if not isinstance(raw, dict):
        raise OverlapRequestError(at, "must be an object")
    for name in raw:
        if name not in ("id", "url", "html", "derives_from", "evidence_locator"):
            raise OverlapRequestError(f"{at}.{name!s}", "is not a citation field")
    for name in ("id", "url"):
        if name not in raw:
            raise OverlapRequestError(f"{at}.{name}", "is required")
    cid = raw["id"]
    if not isinstance(cid, str) or not _ID.fullmatch(cid):
        raise OverlapRequestError(f"{at}.id", "must match ^[A-Za-z0-9_.-]{1,64}$")
    problem = url_problem(raw["url"])
    if problem:
        raise OverlapRequestError(f"{at}.url", problem)
    if "html" in raw:
        html = _text(raw["html"], f"{at}.html", min_chars=0, max_chars=10**9, blank_ok=True)
        size = len(html.encode("utf-8"))
        if size > _BOUNDS.html_bytes:
            raise OverlapRequestError(
                f"{at}.html", f"{size} UTF-8 bytes exceeds the {_BOUNDS.html_bytes}-byte limit"
            )
    if "derives_from" in raw:
        _text(raw["derives_from"], f"{at}.derives_from", min_chars=0,
              max_chars=_BOUNDS.derives_from_chars, blank_ok=True)  # fmt: skip
        if "evidence_locator" not in raw:
            raise OverlapRequestError(f"{at}.evidence_locator", "is required with derives_from")
    if "evidence_locator" in raw:
        _text(raw["evidence_locator"], f"{at}.evidence_locator", min_chars=1,
              max_chars=_BOUNDS.locator_chars, blank_ok=False)  # fmt: skip
        if "derives_from" not in raw:
            raise OverlapRequestError(f"{at}.derives_from", "is required with evidence_locator")
    return raw


def _check_lineage(citations: list[dict[str, Any]]) -> None:
    """Unique ids, declared parents exist, and no cycles (a citation cannot derive from itself)."""
    index: dict[str, int] = {}
    for i, cit in enumerate(citations):
        if cit["id"] in index:
            raise OverlapRequestError(f"citations[{i}].id", f"duplicate id {cit['id']!r}")
        index[cit["id"]] = i
    for i, cit in enumerate(citations):
        parent = cit.get("derives_from")
        if parent is not None and parent not in index:
            raise OverlapRequestError(
                f"citations[{i}].derives_from", f"names no citation in this bundle: {parent!r}"
            )
    for i, cit in enumerate(citations):
        # Each citation has at most one parent, so walking up either ends or meets a cycle.
        seen = {cit["id"]}
        parent = cit.get("derives_from")
        while parent is not None:
            if parent in seen:
                raise OverlapRequestError(
                    f"citations[{i}].derives_from", f"lineage cycle through {parent!r}"
                )
            seen.add(parent)
            parent = citations[index[parent]].get("derives_from")


def check_citations(
    raw_citations: list[dict[str, Any]], limits: Limits = CONTRACT_LIMITS
) -> list[Citation]:
    """Validated `Citation`s (anchors extracted) from citation dicts, or `OverlapRequestError`."""
    if len(raw_citations) < _BOUNDS.citations_min:
        raise OverlapRequestError("citations", f"needs at least {_BOUNDS.citations_min} items")
    if limits.max_citations is not None and len(raw_citations) > limits.max_citations:
        raise OverlapRequestError("citations", f"allows at most {limits.max_citations} items")
    checked = [_citation(raw, f"citations[{i}]") for i, raw in enumerate(raw_citations)]
    _check_lineage(checked)
    citations: list[Citation] = []
    for i, cit in enumerate(checked):
        url = normalize_url(cit["url"])
        html = cit.get("html")
        anchors = tuple(extract_anchors(html, cit["url"], url)) if html else ()
        if len(anchors) > _BOUNDS.anchors_per_citation:
            raise OverlapRequestError(
                f"citations[{i}].html",
                f"{len(anchors)} usable HTTPS anchors exceeds the limit of "
                f"{_BOUNDS.anchors_per_citation}",
            )
        citations.append(
            Citation(
                id=cit["id"],
                url=url,
                has_html=bool(html),
                anchors=anchors,
                derives_from=cit.get("derives_from"),
                evidence_locator=cit.get("evidence_locator"),
            )
        )
    return citations


def check_bundle(
    request: Mapping[str, Any] | bytes | str, limits: Limits = CONTRACT_LIMITS
) -> dict[str, Any]:
    """The contract's result for one bundle, keys in the contract's order.

    `request` is the JSON body (bytes or text) or the already parsed object. Raises
    `OverlapRequestError(field, message)` for anything the contract rejects, including a result
    that would exceed 65,536 bytes (`field` is then `result`). `limits` exists for the batch form,
    which lifts the citation count and result size; every other bound always holds.
    """
    body = parse_request(request, limits)
    for name in body:
        if name not in ("claim", "citations"):
            raise OverlapRequestError(str(name), "is not a request field")
    if "claim" not in body:
        raise OverlapRequestError("claim", "is required")
    _text(body["claim"], "claim", min_chars=1, max_chars=_BOUNDS.claim_chars, blank_ok=False)
    if "citations" not in body:
        raise OverlapRequestError("citations", "is required")
    if not isinstance(body["citations"], list):
        raise OverlapRequestError("citations", "must be an array")
    result = build_result(check_citations(body["citations"], limits))
    if limits.max_result_bytes is not None:
        size = result_bytes(result)
        if size > limits.max_result_bytes:
            raise OverlapRequestError(
                "result", f"{size} bytes exceeds the {limits.max_result_bytes}-byte result limit"
            )
    return result
