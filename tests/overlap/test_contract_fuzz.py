"""Differential fuzzing of request validation against the contract's own request schema.

Whatever the input, `check_bundle` either returns a schema-valid result or raises
`OverlapRequestError`; and every request the schema rejects, `check_bundle` rejects too.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from hypothesis import event, given, settings
from hypothesis import strategies as st

from auditor.overlap.contract import OverlapRequestError, check_bundle
from tests.properties import examples

from .conftest import contract_schemas

SCHEMAS = contract_schemas()
REQUEST = jsonschema.Draft202012Validator(SCHEMAS["request"])

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.sampled_from(["", " ", "a", "b", "x" * 65, "https://a.test", "http://a.test",
                     "https://u@a.test", "https://a.test:99999", "<a href='https://s.test'>s</a>"]),
)  # fmt: skip
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
_field_values = {
    "id": st.one_of(st.sampled_from(["a", "b", "c", "a.b", "", "a b", "x" * 64]), _json),
    "url": st.one_of(st.sampled_from(["https://a.test", "https://b.test/x", "https://A.test:443/",
                                      "http://a.test", "https://a.test/ x"]), _json),
    "html": st.one_of(st.sampled_from(["", "<a href='https://s.test'>s</a>", "<a href=/b>x</a>"]),
                      _json),
    "derives_from": st.one_of(st.sampled_from(["a", "b", "c", "zz"]), _json),
    "evidence_locator": st.one_of(st.sampled_from(["p", " ", "", "x" * 257]), _json),
    "extra": _json,
}  # fmt: skip


@st.composite
def _requests(draw: st.DrawFn) -> Any:
    """A valid bundle, then up to three mutations: a field replaced, dropped or added."""
    n = draw(st.integers(2, 4))
    citations: list[Any] = [{"id": cid, "url": f"https://{cid}.test/"} for cid in "abcd"[:n]]
    body: dict[str, Any] = {"claim": "claim", "citations": citations}
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        where = draw(st.sampled_from(["body", "citation", "citations"]))
        if where == "body":
            name = draw(st.sampled_from(["claim", "citations", "other"]))
            if draw(st.booleans()):
                body.pop(name, None)
            else:
                body[name] = draw(_json)
        elif where == "citations" and isinstance(body.get("citations"), list):
            body["citations"] = draw(st.sampled_from([[], citations[:1], citations * 3]))
        elif isinstance(body.get("citations"), list) and body["citations"]:
            cit = draw(st.sampled_from(body["citations"]))
            if isinstance(cit, dict):
                name = draw(st.sampled_from(sorted(_field_values)))
                if draw(st.integers(0, 3)) == 0:
                    cit.pop(name, None)
                else:
                    cit[name] = draw(_field_values[name])
    return body


@settings(max_examples=examples(400), deadline=None)
@given(_requests())
def test_validation_agrees_with_the_request_schema(request: Any) -> None:
    body = json.dumps(request).encode()
    schema_ok = REQUEST.is_valid(request)
    try:
        result = check_bundle(body)
    except OverlapRequestError as exc:
        assert exc.field
        event(f"rejected ({'schema valid: extra rule' if schema_ok else 'schema invalid'})")
        return
    event("accepted")
    # Accepted: the schema must accept it too, and the result must satisfy the response schema.
    REQUEST.validate(request)
    jsonschema.validate(result, SCHEMAS["response"])
