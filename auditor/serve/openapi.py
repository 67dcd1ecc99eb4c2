"""`GET /openapi.json`: the OpenAPI 3.1 document of every route `auditor serve` exposes.

The overlap route's request and response schemas are the contract's own
(`auditor/overlap/contract_schema.json`, copied verbatim from the spec); the reference-check
schemas are written here from `spec/reference-check-service.json`'s input contract and what a
verdict carries. `tests/serve/test_openapi.py` fails when a route is missing from the document,
and validates real answers against these schemas.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from aiohttp import web

from auditor import __version__
from auditor.serve.bodies import json_response
from auditor.serve.reference_check import MAX_BODY_BYTES, PAYMENTS

__all__ = ["document", "routes"]

_STR = {"type": "string"}
_NSTR = {"type": ["string", "null"]}
_BOOL_OR_NULL = {"type": ["boolean", "null"]}

_SIGNATURE = {
    "type": "object",
    "description": "Ed25519 over the RFC 8785 (JCS) canonical form of the answer without this "
    "member; verify with the public key of GET /criteria (`auditor verify`).",
    "required": ["alg", "canonicalization", "key_id", "value"],
    "properties": {
        "alg": {"const": "Ed25519"},
        "canonicalization": {"const": "RFC 8785"},
        "key_id": _STR,
        "value": {"type": "string", "description": "base64url, no padding"},
    },
}

_CHECK_REQUEST = {
    "type": "object",
    "additionalProperties": False,
    "required": ["reference"],
    "properties": {
        "reference": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "claimed"],
            "properties": {
                "type": {
                    "type": ["string", "null"],
                    "description": "doi, pmid or arxiv; inferred from the id when absent",
                },
                "id": {"type": "string", "minLength": 1},
                "claimed": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["title"],
                    "properties": {
                        "title": {"type": "string", "minLength": 1},
                        "authors": {"type": ["array", "null"], "items": _STR},
                        "year": {"type": ["integer", "null"]},
                    },
                },
            },
        },
        "caller": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "Keys the free pre-check allowance (required on /precheck).",
        },
    },
}

_VERDICT = {
    "enum": ["RESOLVES-AND-MATCHES", "RESOLVES-BUT-DIFFERS", "DOES-NOT-RESOLVE", "NOT COVERED"]
}

_VERDICT_LINE = {
    "type": "object",
    "required": [
        "verdict",
        "reason",
        "identifier",
        "type",
        "register",
        "retrieved_at",
        "criteria_id",
        "signature",
    ],
    "properties": {
        "verdict": _VERDICT,
        "reason": _NSTR,
        "identifier": _NSTR,
        "type": _NSTR,
        "register": _NSTR,
        "retrieved_at": _NSTR,
        "criteria_id": _STR,
        "signature": _SIGNATURE,
    },
}

_FIELD = {
    "type": "object",
    "required": ["field", "claimed", "register", "match"],
    "properties": {
        "field": {"enum": ["title", "authors", "year"]},
        "claimed": {},
        "register": {},
        "match": _BOOL_OR_NULL,
        "score": {"type": ["number", "null"]},
    },
}

_REPORT = {
    "type": "object",
    "required": [*_VERDICT_LINE["required"], "fields", "record", "tier", "id"],
    "properties": {
        **_VERDICT_LINE["properties"],  # type: ignore[dict-item]
        "id": {"type": "string", "description": "the id as submitted"},
        "tier": {"type": ["string", "null"], "description": "snapshot, cache or live"},
        "fields": {"type": "array", "items": _FIELD},
        "record": {"type": "object", "description": "the register record relied on"},
    },
}

_NOT_COVERED = {
    "type": "object",
    "required": ["verdict", "reason", "criteria_id", "signature"],
    "properties": {
        "verdict": {"const": "NOT COVERED"},
        "reason": _STR,
        "identifier": _NSTR,
        "type": _NSTR,
        "criteria_id": _STR,
        "signature": _SIGNATURE,
    },
}

_PROBLEM = {
    "type": "object",
    "required": ["error", "detail"],
    "properties": {"error": _STR, "detail": _STR, "field": _STR},
}

_UNAVAILABLE = {
    "type": "object",
    "required": ["error", "detail", "register", "reason"],
    "properties": {
        "error": {"const": "register_unavailable"},
        "detail": _STR,
        "register": _NSTR,
        "reason": _STR,
        "identifier": _NSTR,
        "type": _NSTR,
    },
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any] | str, description: str) -> dict[str, Any]:
    ref = _ref(schema) if isinstance(schema, str) else schema
    return {"description": description, "content": {"application/json": {"schema": ref}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "Malformed JSON, not the contract's shape, missing or non-string title, or a type "
        "that contradicts the id; `field` names where.",
        401: "This server needs Authorization: Bearer TOKEN (serve_tokens), or the token is "
        "not one of its own.",
        403: "A request from another web origin (Origin header) than this service or an "
        "allow_origin.",
        408: "The body did not arrive within client_timeout seconds.",
        413: f"Body over {MAX_BODY_BYTES} bytes (not read).",
        415: "The body is not application/json.",
        421: "The Host header names neither this server nor an allow_host.",
        429: "This client's allowance is used (the pre-check interval or daily count, or the "
        "/check daily count; per token, else per address), or it has client_queue requests in "
        "flight; see Retry-After.",
        503: "The register could not be consulted; no verdict. See Retry-After.",
    }
    return {str(c): _json("Unavailable" if c == 503 else "Problem", words[c]) for c in codes}


def _check_operation(op: str, summary: str, ok: str, not_covered: int) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": _json(ok, "A verdict.")}
    if not_covered == 422:
        words = "NOT COVERED: unsupported type, no covered form, or a closed leg."
        responses["422"] = _json("NotCovered", words)
    codes = (400, 401, 403, 408, 413, 415, 421, 429, 503)
    responses.update(_errors(*codes))
    return {
        "post": {
            "operationId": op,
            "summary": summary,
            "parameters": [
                {
                    "in": "query",
                    "name": "criteria",
                    "required": False,
                    "schema": {"type": "string", "default": "reference-resolution/v1"},
                    "description": "Grade under another criteria document GET /criteria lists.",
                }
            ],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref("CheckRequest")}},
            },
            "responses": responses,
        }
    }


@cache
def _overlap_schemas() -> dict[str, Any]:
    text = resources.files("auditor.overlap").joinpath("contract_schema.json").read_text("utf-8")
    schemas: dict[str, Any] = json.loads(text)
    return schemas


def _sources_operation(overlap: dict[str, Any]) -> dict[str, Any]:
    """`POST /v1/sources/check`: the citation-overlap contract's one operation."""
    return {
        "post": {
            "operationId": "checkSources",
            "summary": "Find citation overlap before relying on corroboration",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": overlap["request"]}},
            },
            "responses": {
                "200": _json(overlap["response"], "Service result."),
                "400": _json("Problem", "Invalid bundle; `detail` and `field` say why."),
                "413": _json("Problem", "Request exceeds 262144 bytes."),
                "415": _json("Problem", "application/json required."),
            },
        }
    }


def _audit_operation(html: dict[str, Any]) -> dict[str, Any]:
    """`POST /audit`: the upload page's form, answered with the HTML report."""
    return {
        "post": {
            "operationId": "auditUpload",
            "summary": "Audit the uploaded files as one bibliography; the HTML report "
            "with downloads",
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["bibliography"],
                            "properties": {
                                "bibliography": {
                                    "type": "array",
                                    "items": {"type": "string", "format": "binary"},
                                    "description": "One part per file.",
                                }
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": {"description": "report.html with download links.", "content": html},
                "400": {"description": "No usable file.", "content": html},
                "413": {
                    "description": "Files over upload_max_bytes together.",
                    "content": html,
                },
            },
        }
    }


def _components() -> dict[str, Any]:
    """The security scheme and the schemas the operations name."""
    return {
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "Needed on every POST when the server has serve_tokens "
                "(always when it binds beyond loopback); each token has its own allowance.",
            }
        },
        "schemas": {
            "CheckRequest": _CHECK_REQUEST,
            "CheckReport": _REPORT,
            "VerdictLine": _VERDICT_LINE,
            "NotCovered": _NOT_COVERED,
            "Signature": _SIGNATURE,
            "Problem": _PROBLEM,
            "Unavailable": _UNAVAILABLE,
        },
    }


def document() -> dict[str, Any]:
    """The OpenAPI document (a fresh dict)."""
    overlap = _overlap_schemas()
    html = {"text/html": {"schema": _STR}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "auditor serve",
            "version": __version__,
            "description": "Self-hosted reference-check service (criteria reference-resolution/v1) "
            "and citation-overlap checker, plus an upload page for whole bibliographies. "
            + PAYMENTS,
        },
        "paths": {
            "/criteria": {
                "get": {
                    "operationId": "criteria",
                    "summary": "The criteria documents and the public signing key",
                    "responses": {"200": _json({"type": "object"}, "Criteria and key.")},
                }
            },
            "/check": _check_operation(
                "check", "The signed field-by-field report of one reference", "CheckReport", 422
            ),
            "/precheck": _check_operation(
                "precheck",
                "The signed verdict line of one reference (free, paced)",
                "VerdictLine",
                200,
            ),
            "/v1/sources/check": _sources_operation(overlap),
            "/": {
                "get": {
                    "operationId": "uploadPage",
                    "summary": "The upload page for people",
                    "responses": {"200": {"description": "HTML form.", "content": html}},
                }
            },
            "/audit": _audit_operation(html),
            "/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document",
                    "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")},
                }
            },
        },
        "components": _components(),
    }


async def get_openapi(request: web.Request) -> web.Response:
    """This server's OpenAPI document."""
    return json_response(document())


def routes() -> list[web.RouteDef]:
    """`GET /openapi.json`."""
    return [web.get("/openapi.json", get_openapi)]
