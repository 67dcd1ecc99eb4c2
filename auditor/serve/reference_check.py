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
"could not look" is none of them. Allowances are per client (`gates.client_key`: the bearer
token's name, else the remote address; never the `caller` label, which anyone can rename):
`/precheck` is paced (`precheck_interval`, `precheck_daily`), `/check` counted (`check_daily`),
→ 429 with `Retry-After`; calls that need no lookup (400, NOT COVERED) are not counted. A body
must be `application/json` (415), and a client has at most `client_queue` requests in flight
(429). Strings in an answer are cut at 64 KiB and lists at 10,000 items.

Retention: the submitted reference lives in this request's memory only. Nothing of it is logged
(the server keeps no access log), cached (only register records are) or written to a file.
"""

from __future__ import annotations

import math
from typing import Any

import pyarrow as pa
from aiohttp import web

from auditor import tables
from auditor.compare.decisions import criteria_document
from auditor.errors import Reason
from auditor.serve.bodies import (
    BodyTooLarge,
    BodyTooSlow,
    bounded,
    json_response,
    problem,
    read_capped,
)
from auditor.serve.check_request import BadRequest, CheckRequest, parse_request
from auditor.serve.clients import RETRY_AFTER_BUSY, Busy
from auditor.serve.gates import client_key
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
#: Seconds a client is told to wait after a register could not be consulted.
RETRY_AFTER_UNAVAILABLE = 30

PAYMENTS = (
    "Payments are not adopted: this self-hosted service answers /check and /precheck without "
    "any payment, no route answers 402, and the prices of the published criteria do not apply."
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
    if request.content_type != "application/json":
        # A form or `text/plain` POST needs no CORS preflight: any web page could send one.
        return problem(
            415,
            "unsupported_media_type",
            f"application/json required, not {request.content_type or 'no Content-Type'}",
        )
    try:
        body = await read_capped(
            request, MAX_BODY_BYTES, timeout=request.app[STATE].settings.client_timeout
        )
    except BodyTooLarge as exc:
        return problem(413, "body_too_large", str(exc))
    except BodyTooSlow as exc:
        return problem(408, "request_timeout", str(exc))
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
    # Keyed on the token or the address, never on `caller`: a renamed caller gets nothing more.
    client = client_key(request)
    allowance = (state.pacer if paced else state.check_pacer).take(client)
    if not allowance.allowed:
        return problem(
            429,
            "rate_limited",
            allowance.detail,
            headers={"Retry-After": str(max(1, math.ceil(allowance.retry_after)))},
        )
    record = await state.lookups.record(references, client)
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
        "fields": bounded(report["fields"]),
        "record": bounded(report["record"]),
    }
    return shaped, report["verdict"] == Verdict.NOT_COVERED


async def _one_at_a_time(
    request: web.Request, *, paced: bool
) -> tuple[dict[str, Any], bool] | web.Response:
    """Read and decide the request inside one of its client's in-flight slots (429 if none)."""
    try:
        async with request.app[STATE].in_flight.slot(client_key(request)):
            req = await _read(request, caller_required=paced)
            if isinstance(req, web.Response):
                return req
            return await _decide(request, req, paced=paced)
    except Busy as exc:
        return problem(
            429, "too_many_requests", str(exc), headers={"Retry-After": str(RETRY_AFTER_BUSY)}
        )


_VERDICT_LINE = ("verdict", "reason", "identifier", "type", "register", "retrieved_at")


async def post_check(request: web.Request) -> web.Response:
    """The signed field-by-field report; 422 for NOT COVERED."""
    decided = await _one_at_a_time(request, paced=False)
    if isinstance(decided, web.Response):
        return decided
    report, not_covered = decided
    signed = sign_report(report, request.app[STATE].key)
    return json_response(signed, 422 if not_covered else 200)


async def post_precheck(request: web.Request) -> web.Response:
    """The signed verdict line only; NOT COVERED is a 200 like any verdict."""
    decided = await _one_at_a_time(request, paced=True)
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
