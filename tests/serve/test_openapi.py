"""`GET /openapi.json` documents every route, and real answers validate against its schemas."""

from __future__ import annotations

from typing import Any

import jsonschema
from aiohttp import web

from auditor.serve.app import build_app
from auditor.settings import Settings
from tests.serve.conftest import Served, check_body


def _validator(doc: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    return jsonschema.Draft202012Validator(schema)


async def test_every_route_is_documented(served: Served) -> None:
    status, doc = await served.get("/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.1")
    app: web.Application = build_app(Settings())
    exposed = {
        (route.method.lower(), route.resource.canonical)
        for route in app.router.routes()
        if route.resource is not None and route.method != "HEAD"
    }
    documented = {(m, path) for path, ops in doc["paths"].items() for m in ops}
    assert exposed == documented
    for schema in doc["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


async def test_answers_validate_against_the_documented_schemas(served: Served) -> None:
    _, doc = await served.get("/openapi.json")
    body = check_body("10.5555/serve.1", "Signed reference checks over HTTP", year=2021)
    _validator(doc, "CheckRequest").validate(body)
    status, report = await served.post("/check", body)
    assert status == 200
    _validator(doc, "CheckReport").validate(report)
    status, line = await served.post("/precheck", body)
    _validator(doc, "VerdictLine").validate(line)
    status, refused = await served.post("/check", {"reference": {}})
    assert status == 400
    _validator(doc, "Problem").validate(refused)
    status, not_covered = await served.post("/check", check_body("isbn:1", "t", type_="isbn"))
    assert status == 422
    _validator(doc, "NotCovered").validate(not_covered)
