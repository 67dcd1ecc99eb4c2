"""The contract's result: its examples exactly, its grouping rules, its schema and byte bound."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor.overlap.contract import OverlapRequestError, check_bundle
from auditor.overlap.response import LIMITATIONS, encode_result, result_bytes
from tests.missing_fixtures import need
from tests.properties import examples

from .conftest import SPEC, contract_examples, contract_schemas

EXAMPLES = contract_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["name"] for e in EXAMPLES])
def test_contract_examples_reproduce_exactly(example: dict[str, Any]) -> None:
    body = json.dumps(example["request"]).encode()
    result = check_bundle(body)
    assert result == example["response"]
    assert list(result) == list(example["response"])  # key order too
    # Same serializer, same bytes: ours reproduces the example byte for byte.
    assert encode_result(result, indent=4) == json.dumps(example["response"], indent=4)
    assert encode_result(result) == json.dumps(
        example["response"], ensure_ascii=False, separators=(",", ":")
    )


def test_examples_and_schemas_are_the_specs_own() -> None:
    spec = json.loads(need(SPEC).read_text("utf-8"))
    post = spec["paths"]["/v1/sources/check"]["post"]
    schemas = contract_schemas()
    assert schemas["request"] == post["requestBody"]["content"]["application/json"]["schema"]
    assert schemas["response"] == post["responses"]["200"]["content"]["application/json"]["schema"]
    pairs = [
        (post["requestBody"]["content"]["application/json"]["example"],
         post["responses"]["200"]["content"]["application/json"]["example"]),
        *((e["request"], e["response"]) for e in spec["x-agent-guide"]["additional_examples"]),
    ]  # fmt: skip
    assert [(e["request"], e["response"]) for e in EXAMPLES] == pairs


def cit(cid: str, url: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "url": url or f"https://{cid}.test/", **extra}


def run(*citations: dict[str, Any]) -> dict[str, Any]:
    return check_bundle({"claim": "c", "citations": list(citations)})


def test_identical_normalized_urls_group() -> None:
    result = run(
        cit("x", "https://News.Example:443/story#top"),
        cit("y", "https://news.example/story"),
        cit("z", "https://news.example/story?page=2"),  # query strings stay significant
        cit("w", "https://other.example"),
    )
    assert result["shared_origin_groups"] == [
        {
            "origin_url": "https://news.example/story",
            "citation_ids": ["x", "y"],
            "basis": "supplied_lineage_or_identical_url",
        }
    ]
    assert result["unresolved_citation_ids"] == ["z", "w"]


def test_lineage_chain_is_one_group_rooted_at_the_origin() -> None:
    def link(cid: str, parent: str) -> dict[str, Any]:
        return cit(cid, derives_from=parent, evidence_locator=f"{cid} cites {parent}")

    result = run(link("c", "b"), cit("root", "https://src.example/r"), link("b", "root"),
                 cit("lone"), link("d", "root"))  # fmt: skip
    (group,) = result["shared_origin_groups"]
    assert group["origin_url"] == "https://src.example/r"
    assert group["citation_ids"] == ["b", "c", "d", "root"]
    assert result["supplied_lineage_links"] == [
        {"from_id": "c", "to_id": "b", "evidence_locator": "c cites b"},
        {"from_id": "b", "to_id": "root", "evidence_locator": "b cites root"},
        {"from_id": "d", "to_id": "root", "evidence_locator": "d cites root"},
    ]
    assert result["unresolved_citation_ids"] == ["lone"]


def test_url_and_lineage_groups_merge() -> None:
    result = run(
        cit("a", "https://s.example/"),
        cit("b", "https://t.example/", derives_from="a", evidence_locator="p"),
        cit("c", "https://T.example"),
    )
    (group,) = result["shared_origin_groups"]
    assert group["citation_ids"] == ["a", "b", "c"]
    assert group["origin_url"] == "https://s.example/"


def test_shared_press_release_link() -> None:
    html_a = "<p>Intro</p>\n<p>As <a href='https://press.example/r?id=7#x'>the release</a> says</p>"
    html_b = (
        "<a href='https://press.example/r?id=7'>Release</a>\n"
        "<a href='/other'>nav</a> <a href='HTTPS://PRESS.example:443/r?id=7'>again</a>"
    )
    result = run(cit("a", html=html_a), cit("b", html=html_b), cit("c", html=""))
    assert result["shared_link_candidates"] == [
        {
            "linked_url": "https://press.example/r?id=7",
            "documents": [
                {"id": "a", "locations": [
                    {"target_url": "https://press.example/r?id=7", "line": 2, "column": 6,
                     "anchor_text": "the release"}]},
                {"id": "b", "locations": [
                    {"target_url": "https://press.example/r?id=7", "line": 1, "column": 0,
                     "anchor_text": "Release"},
                    {"target_url": "https://press.example/r?id=7", "line": 2, "column": 25,
                     "anchor_text": "again"}]},
            ],
            "status": "shared_link_candidate",
        }
    ]  # fmt: skip
    assert result["coverage"] == {"citation_count": 3, "html_document_count": 2}
    assert result["shared_origin_groups"] == []


def test_one_document_linking_twice_is_not_shared() -> None:
    html = "<a href='https://s.example/'>1</a><a href='https://s.example/'>2</a>"
    assert run(cit("a", html=html), cit("b"))["shared_link_candidates"] == []


def test_citation_link_candidates_use_normalized_urls() -> None:
    result = run(
        cit("a", html="<a href='https://B.test:443/#p'>b</a>\n<a href='https://c.test'>c</a>"),
        cit("b"),
        cit("c", html="<a href='https://b.test/'>b again</a>"),
    )
    assert [(c["from_id"], c["to_id"]) for c in result["citation_link_candidates"]] == [
        ("a", "b"),
        ("a", "c"),
        ("c", "b"),
    ]
    first = result["citation_link_candidates"][0]
    assert first["locations"] == [
        {"target_url": "https://b.test/", "line": 1, "column": 0, "anchor_text": "b"}
    ]
    # Both a and c link to b: also a shared link, independent of the candidates list.
    assert [s["linked_url"] for s in result["shared_link_candidates"]] == ["https://b.test/"]
    assert result["unresolved_citation_ids"] == ["a", "b", "c"]


def test_link_to_a_citation_with_the_same_url_is_a_self_link() -> None:
    result = run(cit("a", "https://s.test/", html="<a href='https://s.test/'>me</a>"),
                 cit("b", "https://s.test/"))  # fmt: skip
    assert result["citation_link_candidates"] == []
    assert result["shared_origin_groups"][0]["citation_ids"] == ["a", "b"]


def test_constant_fields() -> None:
    result = run(cit("a"), cit("b"))
    assert result["independence"] == "unknown"
    assert result["limitations"] == list(LIMITATIONS)
    assert (result["service"], result["schema_version"]) == ("citation-overlap-checker", "1")


# --- properties ------------------------------------------------------------------------------

_ids = st.from_regex(r"[A-Za-z0-9_.-]{1,12}", fullmatch=True)
_hosts = st.sampled_from(["a.test", "B.test", "press.example", "news.example:443", "c.test:8443"])
_paths = st.sampled_from(["", "/", "/r", "/r?id=1", "/r#frag", "/x/y", "/%C3%A4"])
_hrefs = st.one_of(
    st.builds(lambda h, p: f"https://{h}{p}", _hosts, _paths),
    st.sampled_from(["/rel", "../up", "#frag", "", "http://plain.test/", "//cdn.test/x",
                     "https://u:p@x.test/", "mailto:a@b.test", "?q=1&amp;r=2", "&#x2F;p"]),
)  # fmt: skip
_texts = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=300)


@st.composite
def _html(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["a", "a_open", "comment", "script", "text", "nl"]))
        href = draw(_hrefs).replace("'", "%27")
        text = draw(_texts).replace("<", "&lt;")
        parts.append(
            {
                "a": f"<a href='{href}'>{text}</a>",
                "a_open": f"<a href='{href}'>{text}",
                "comment": f"<!-- <a href='{href}'>x</a> -->",
                "script": f"<script><a href='{href}'>x</a></script>",
                "text": text,
                "nl": "\n",
            }[kind]
        )
    return "".join(parts)


@st.composite
def bundles(draw: st.DrawFn) -> dict[str, Any]:
    ids = draw(st.lists(_ids, min_size=2, max_size=10, unique=True))
    citations = []
    for i, cid in enumerate(ids):
        c: dict[str, Any] = {"id": cid, "url": f"https://{draw(_hosts)}{draw(_paths)}"}
        if draw(st.booleans()):
            c["html"] = draw(_html())
        if i > 0 and draw(st.booleans()):  # parents only earlier: never a cycle
            c["derives_from"] = ids[draw(st.integers(0, i - 1))]
            c["evidence_locator"] = draw(st.text(min_size=1, max_size=256).filter(str.strip))
        citations.append(c)
    claim = draw(st.text(min_size=1, max_size=50).filter(str.strip))
    return {"claim": claim, "citations": citations}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bundles())
def test_any_valid_bundle_gives_a_schema_valid_bounded_result(bundle: dict[str, Any]) -> None:
    schemas = contract_schemas()
    jsonschema.validate(bundle, schemas["request"])  # the generator makes only valid bundles
    try:
        result = check_bundle(json.dumps(bundle).encode())
    except OverlapRequestError as exc:  # only the result bound may refuse a valid bundle
        assert exc.field == "result"
        return
    jsonschema.validate(result, schemas["response"])
    assert result_bytes(result) <= 65_536
    ids = [c["id"] for c in bundle["citations"]]
    grouped = [i for g in result["shared_origin_groups"] for i in g["citation_ids"]]
    assert sorted(grouped + result["unresolved_citation_ids"]) == sorted(ids)
    for group in result["shared_origin_groups"]:
        assert len(group["citation_ids"]) >= 2
    for shared in result["shared_link_candidates"]:
        assert len({d["id"] for d in shared["documents"]}) >= 2
        for doc in shared["documents"]:
            for loc in doc["locations"]:
                assert loc["line"] >= 1 and loc["column"] >= 0
                assert len(loc["anchor_text"]) <= 256
                assert loc["target_url"].startswith("https://")


def test_schema_check_can_fail(response_schema: dict[str, Any]) -> None:
    result = run(cit("a"), cit("b"))
    jsonschema.validate(result, response_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**result, "independence": "independent"}, response_schema)
