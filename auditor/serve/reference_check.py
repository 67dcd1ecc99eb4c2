"""The reference-check contract over HTTP: `GET /criteria`, `POST /precheck`, `POST /check`.

`spec/reference-check-service.json`, without its payments (no route answers 402; `/criteria`
says so). A request body is `{reference: {type?, id, claimed: {title, authors?, year?}},
caller}`, at most 16,384 bytes (413 from `Content-Length`, before reading). Its shape is checked
strictly, and a 400 names the field at fault (`reference.claimed.title`); an explicit type that
contradicts the id is a 400 too. Type inference and normalization are `auditor.classify`'s,
exactly as an audit classifies a row, and the verdict is `auditor.single.check_report`'s, the
path `auditor check` takes.

Outcomes: a verdict → 200 with the signed report (`/check`) or the signed verdict line
(`/precheck`); NOT COVERED (unsupported type, id of no covered form, closed leg) → `/precheck`
200, `/check` 422. A register that could not be consulted is **503** with the register and the
reason and a `Retry-After`, never a verdict: the contract's vocabulary has four verdicts and
"could not look" is none of them. `/precheck` is paced per `caller` (`precheck_interval`,
`precheck_daily`) → 429 with `Retry-After`; calls that need no lookup (400, NOT COVERED) are
not counted.

Retention: the submitted reference lives in this request's memory only. Nothing of it is logged
(the server keeps no access log), cached (only register records are) or written to a file.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from aiohttp import web

from auditor import tables
from auditor.compare.decisions import criteria_document
from auditor.errors import Reason
from auditor.serve.bodies import BodyTooLarge, json_response, problem, read_capped
from auditor.serve.state import STATE, ServeState
from auditor.signing import ALG, CANONICALIZATION, key_id, public_key_text, sign_report
from auditor.single import reference_rows
from auditor.tables import RecordStatus, RowState, Verdict

__all__ = [
    "MAX_BODY_BYTES",
    "PAYMENTS",
    "CONTRACT_CRITERIA",
    "BadRequest",
    "CheckRequest",
    "criteria_documents",
    "parse_request",
    "routes",
]

#: The criteria the contract publishes and grades under unless `?criteria=` asks for another.
CONTRACT_CRITERIA = tables.CRITERIA_V1

#: `input_contract.caps.max_body_bytes`.
MAX_BODY_BYTES = 16_384
#: Longest `caller` accepted (a Solana base58 wallet is 32-44 characters).
MAX_CALLER_CHARS = 128
#: Seconds a client is told to wait after a register could not be consulted.
RETRY_AFTER_UNAVAILABLE = 30

PAYMENTS = (
    "Payments are not adopted: this self-hosted service answers /check and /precheck without "
    "any payment, no route answers 402, and the prices of the published criteria do not apply."
)

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
    claimed = _object(ref["claimed"], "reference.claimed", _CLAIMED)
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
    caller = top.get("caller")
    if caller is not None and not isinstance(caller, str):
        raise BadRequest("caller", "must be a string")
    if isinstance(caller, str) and not caller.strip():
        if caller_required:
            raise BadRequest("caller", "must be a non-empty string")
        caller = None  # /check keys nothing on the caller: an empty one is no caller
    if caller is not None and len(caller) > MAX_CALLER_CHARS:
        raise BadRequest("caller", f"must be at most {MAX_CALLER_CHARS} characters")
    if caller_required and caller is None:
        raise BadRequest("caller", "is required on /precheck (it keys the free allowance)")
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


def criteria_documents() -> list[dict[str, Any]]:
    """Every criteria document this service grades under, its default (the contract's) first."""
    ids = [CONTRACT_CRITERIA, *(c for c in tables.CRITERIA_IDS if c != CONTRACT_CRITERIA)]
    return [criteria_document(c) for c in ids]


def _public_key(state: ServeState) -> dict[str, str]:
    public = state.key.public_key()
    return {
        "alg": ALG,
        "canonicalization": CANONICALIZATION,
        "key_id": key_id(public),
        "public_key": public_key_text(public),
        "encoding": "base64url of the 32 raw Ed25519 public-key bytes",
        "verify": "auditor verify REPORT.json --key FILE_WITH_public_key",
    }


async def get_criteria(request: web.Request) -> web.Response:
    """The criteria documents and the public key that verifies every signed answer."""
    state = request.app[STATE]
    documents = criteria_documents()
    return json_response(
        {
            "service": "reference-check",
            "criteria_ids": [d["criteria_id"] for d in documents],
            "default_criteria_id": CONTRACT_CRITERIA,
            "choosing_criteria": (
                "POST /check?criteria=ID (and /precheck) grades under another published "
                f"document; without it, under {CONTRACT_CRITERIA}."
            ),
            "criteria": documents,
            "signing_key": _public_key(state),
            "signature_rule": (
                "Ed25519 over the RFC 8785 (JCS) canonical form of the answer without its "
                "top-level 'signature' member"
            ),
            "payments": PAYMENTS,
            "unavailable_register": (
                "A register that cannot be consulted gives HTTP 503 with the register and the "
                "reason and a Retry-After header, never a verdict."
            ),
            "retention": (
                "Submitted references are processed in memory only: never logged, cached or "
                "written to a file; only register records are cached."
            ),
        }
    )


async def _read(request: web.Request, *, caller_required: bool) -> CheckRequest | web.Response:
    try:
        body = await read_capped(request, MAX_BODY_BYTES)
    except BodyTooLarge as exc:
        return problem(413, "body_too_large", str(exc))
    try:
        return parse_request(body, caller_required=caller_required)
    except BadRequest as exc:
        return problem(400, exc.error, exc.detail, field=exc.field)


async def _classified(state: ServeState, req: CheckRequest) -> pa.Table:
    row = reference_rows(req.id, req.type, req.title, req.authors, req.year, source="<request>")
    return await state.classify.submit(row)


def _not_covered(
    references: pa.Table, req: CheckRequest, reason: str | None, criteria: str
) -> dict[str, Any]:
    ref = references.to_pylist()[0]
    return {
        "verdict": str(Verdict.NOT_COVERED),
        "reason": reason,
        "identifier": ref["identifier"],
        "type": ref["id_type"] or req.type,
        "register": None,
        "retrieved_at": None,
        "criteria_id": criteria,
    }


def _unavailable(record: dict[str, Any], ref: dict[str, Any]) -> web.Response:
    register = record.get("register")
    reason = record.get("reason") or str(Reason.CONNECTION_ERROR)
    return problem(
        503,
        "register_unavailable",
        f"{register} could not be consulted ({reason}); no verdict is given. Retry later.",
        headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
        register=register,
        reason=reason,
        identifier=ref["identifier"],
        type=ref["id_type"],
    )


def _criteria(request: web.Request) -> str | web.Response:
    """The criteria asked for with `?criteria=ID`, else the contract's."""
    asked = request.query.get("criteria", CONTRACT_CRITERIA)
    if asked not in tables.CRITERIA_IDS:
        known = ", ".join(tables.CRITERIA_IDS)
        detail = f"criteria: unknown criteria {asked!r} (published: {known})"
        return problem(400, "unknown_criteria", detail, field="criteria")
    return asked


async def _decide(
    request: web.Request, req: CheckRequest, *, paced: bool
) -> tuple[dict[str, Any], bool] | web.Response:
    """The report and whether it is NOT COVERED, or the error answer to give instead."""
    state = request.app[STATE]
    criteria = _criteria(request)
    if isinstance(criteria, web.Response):
        return criteria
    references = await _classified(state, req)
    ref = references.to_pylist()[0]
    if ref["row_state"] == RowState.INVALID:
        field = "reference.type" if ref["row_reason"] == Reason.TYPE_CONTRADICTION else "reference"
        detail = {
            Reason.TYPE_CONTRADICTION: f"type {req.type!r} contradicts the form of the id",
            Reason.MISSING_TITLE: "reference.claimed.title is required",
        }.get(ref["row_reason"], str(ref["row_reason"]))
        return problem(400, str(ref["row_reason"]), f"{field}: {detail}", field=field)
    if ref["row_state"] == Verdict.NOT_COVERED:
        return _not_covered(references, req, ref["row_reason"], criteria), True
    if paced:
        assert req.caller is not None
        allowance = state.pacer.take(req.caller)
        if not allowance.allowed:
            return problem(
                429,
                "rate_limited",
                allowance.detail,
                headers={"Retry-After": str(max(1, math.ceil(allowance.retry_after)))},
            )
    caller = req.caller or (request.remote or "anonymous")
    record = await state.lookups.record(references, caller)
    if record.get("status") == RecordStatus.UNREACHABLE:
        return _unavailable(record, ref)
    report = await state.compare.submit((references, record, criteria))
    if report["verdict"] == RowState.UNCHECKED:
        return _unavailable(record, ref)
    shaped = {
        "verdict": report["verdict"],
        "reason": report["reason"],
        "id": report["id"],
        "identifier": report["identifier"],
        "type": report["id_type"],
        "register": report["register"],
        "retrieved_at": report["retrieved_at"],
        "tier": report["tier"],
        "criteria_id": report["criteria_id"],
        "fields": report["fields"],
        "record": report["record"],
    }
    return shaped, report["verdict"] == Verdict.NOT_COVERED


_VERDICT_LINE = ("verdict", "reason", "identifier", "type", "register", "retrieved_at")


async def post_check(request: web.Request) -> web.Response:
    """The signed field-by-field report; 422 for NOT COVERED."""
    req = await _read(request, caller_required=False)
    if isinstance(req, web.Response):
        return req
    decided = await _decide(request, req, paced=False)
    if isinstance(decided, web.Response):
        return decided
    report, not_covered = decided
    signed = sign_report(report, request.app[STATE].key)
    return json_response(signed, 422 if not_covered else 200)


async def post_precheck(request: web.Request) -> web.Response:
    """The signed verdict line only; NOT COVERED is a 200 like any verdict."""
    req = await _read(request, caller_required=True)
    if isinstance(req, web.Response):
        return req
    decided = await _decide(request, req, paced=True)
    if isinstance(decided, web.Response):
        return decided
    report, _ = decided
    line = {k: report.get(k) for k in _VERDICT_LINE}
    line["criteria_id"] = report["criteria_id"]
    return json_response(sign_report(line, request.app[STATE].key))


def routes() -> list[web.RouteDef]:
    """The contract's three routes."""
    return [
        web.get("/criteria", get_criteria),
        web.post("/check", post_check),
        web.post("/precheck", post_precheck),
    ]
