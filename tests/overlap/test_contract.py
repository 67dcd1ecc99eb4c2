"""Request validation: every bound at and just past its limit, every rule, the field named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from auditor.errors import InputError
from auditor.overlap.contract import OverlapRequestError, check_bundle


def cit(cid: str, url: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "url": url or f"https://{cid}.test/", **extra}


def bundle(*citations: dict[str, Any], claim: str = "Reported benefit") -> dict[str, Any]:
    return {"claim": claim, "citations": list(citations) or [cit("a"), cit("b")]}


def rejects(request: Any, field: str) -> OverlapRequestError:
    with pytest.raises(OverlapRequestError) as info:
        check_bundle(request)
    assert info.value.field == field, info.value
    assert field in str(info.value)
    return info.value


def test_error_is_an_input_error_naming_field_and_message() -> None:
    err = rejects(bundle(cit("a"), cit("b", "http://b.test/")), "citations[1].url")
    assert isinstance(err, InputError)
    assert "https" in err.message


# --- body -----------------------------------------------------------------------------------


def test_request_bytes_at_and_past_limit() -> None:
    base = json.dumps(bundle(cit("a"), cit("b"), claim="c"), separators=(",", ":"))
    pad = 262_144 - len(base.encode())
    at = base[:-1] + " " * pad + "}"
    assert len(at.encode()) == 262_144
    check_bundle(at.encode())
    rejects((at[:-1] + " }").encode(), "request")


def test_object_request_is_measured_as_compact_json() -> None:
    empty = bundle(cit("a", html=""), cit("b", html="x" * 131_072))
    room = 262_144 - len(json.dumps(empty, separators=(",", ":")).encode())
    at = bundle(cit("a", html="é" * (room // 2)), cit("b", html="x" * 131_072))
    assert room % 2 == 0  # the pad is made of two-byte characters
    assert check_bundle(at)["coverage"]["html_document_count"] == 2
    past = bundle(cit("a", html="é" * (room // 2) + "x"), cit("b", html="x" * 131_072))
    rejects(past, "request")


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[1, 2]", b"\xff\xfe{}", b'"text"', b'{"claim": "x", "claim": "y"}'],
)
def test_body_must_be_one_json_object(body: bytes) -> None:
    rejects(body, "request")


def test_unknown_top_level_field() -> None:
    rejects({**bundle(), "extra": 1}, "extra")


# --- claim ----------------------------------------------------------------------------------


def test_claim_bounds() -> None:
    check_bundle(bundle(claim="x"))
    check_bundle(bundle(claim="x" * 4000))
    rejects(bundle(claim="x" * 4001), "claim")
    rejects(bundle(claim=""), "claim")
    rejects(bundle(claim=" \n\t "), "claim")
    rejects({"citations": [cit("a"), cit("b")]}, "claim")
    rejects(bundle(claim=7), "claim")  # type: ignore[arg-type]
    rejects(bundle(claim="\ud800"), "claim")


# --- citations ------------------------------------------------------------------------------


def test_citation_count_bounds() -> None:
    many = [cit(f"c{i}") for i in range(11)]
    check_bundle(bundle(*many[:2]))
    check_bundle(bundle(*many[:10]))
    rejects(bundle(*many[:11]), "citations")
    rejects({"claim": "x", "citations": [cit("a")]}, "citations")
    rejects({"claim": "x", "citations": []}, "citations")
    rejects({"claim": "x", "citations": {"a": 1}}, "citations")
    rejects({"claim": "x"}, "citations")


def test_citation_shape() -> None:
    rejects(bundle(cit("a"), "b"), "citations[1]")  # type: ignore[arg-type]
    rejects(bundle(cit("a"), {"url": "https://b.test/"}), "citations[1].id")
    rejects(bundle(cit("a"), {"id": "b"}), "citations[1].url")
    rejects(bundle(cit("a"), cit("b", title="x")), "citations[1].title")


@pytest.mark.parametrize("good", ["a", "A-z_0.9", "x" * 64, "..", "-"])
def test_id_pattern_accepts(good: str) -> None:
    check_bundle(bundle(cit(good, "https://a.test/"), cit("other")))


@pytest.mark.parametrize("bad", ["", "x" * 65, "a b", "a/b", "ä", "a\n", "a:b", 5])
def test_id_pattern_rejects(bad: Any) -> None:
    rejects(bundle(cit("a"), cit(bad, "https://b.test/")), "citations[1].id")


def test_ids_are_unique() -> None:
    rejects(bundle(cit("a"), cit("a", "https://b.test/")), "citations[1].id")


def test_url_rules_name_the_field() -> None:
    for url in (
        "http://b.test/",
        "https://u:p@b.test/",
        "https://b.test:70000/",
        "https://b .test/",
        "https://b.test/" + "x" * 2048,
    ):
        rejects(bundle(cit("a"), cit("b", url)), "citations[1].url")
    check_bundle(bundle(cit("a"), cit("b", "https://b.test/" + "x" * (2048 - 15))))


def test_html_bytes_at_and_past_limit() -> None:
    check_bundle(bundle(cit("a", html="x" * 131_072), cit("b")))
    rejects(bundle(cit("a", html="x" * 131_073), cit("b")), "citations[0].html")
    # The bound is in UTF-8 bytes, not characters: 65,536 two-byte characters fit, one more not.
    check_bundle(bundle(cit("a", html="é" * 65_536), cit("b")))
    rejects(bundle(cit("a", html="é" * 65_537), cit("b")), "citations[0].html")
    rejects(bundle(cit("a", html=["<a>"]), cit("b")), "citations[0].html")


def _links(n: int, host: str = "s") -> str:
    return "\n".join(f'<a href="https://{host}.example/{i}">{i}</a>' for i in range(n))


def test_usable_anchors_at_and_past_limit() -> None:
    check_bundle(bundle(cit("a", html=_links(100)), cit("b")))
    rejects(bundle(cit("a"), cit("b", html=_links(101))), "citations[1].html")
    # Only usable anchors count: ignored links (non-HTTPS, fragments, script) are free.
    noise = "<a href='http://x.test/'>x</a><a href='#f'>f</a>" * 200
    check_bundle(bundle(cit("a", html=_links(100) + noise), cit("b")))


def test_lineage_pairs_and_parents() -> None:
    ok = cit("b", derives_from="a", evidence_locator="para 2")
    check_bundle(bundle(cit("a"), ok))
    rejects(bundle(cit("a"), cit("b", derives_from="a")), "citations[1].evidence_locator")
    rejects(bundle(cit("a"), cit("b", evidence_locator="p")), "citations[1].derives_from")
    rejects(
        bundle(cit("a"), cit("b", derives_from="zz", evidence_locator="p")),
        "citations[1].derives_from",
    )
    rejects(
        bundle(cit("a"), cit("b", derives_from="x" * 65, evidence_locator="p")),
        "citations[1].derives_from",
    )


def test_evidence_locator_bounds() -> None:
    def with_locator(text: Any) -> dict[str, Any]:
        return bundle(cit("a"), cit("b", derives_from="a", evidence_locator=text))

    check_bundle(with_locator("p"))
    check_bundle(with_locator("p" * 256))
    rejects(with_locator("p" * 257), "citations[1].evidence_locator")
    rejects(with_locator(""), "citations[1].evidence_locator")
    rejects(with_locator("   "), "citations[1].evidence_locator")
    rejects(with_locator(None), "citations[1].evidence_locator")


def test_cycles_are_rejected() -> None:
    def link(cid: str, parent: str) -> dict[str, Any]:
        return cit(cid, derives_from=parent, evidence_locator="p")

    rejects(bundle(link("a", "a"), cit("b")), "citations[0].derives_from")
    rejects(bundle(link("a", "b"), link("b", "a")), "citations[0].derives_from")
    ring = bundle(cit("r"), link("a", "c"), link("b", "a"), link("c", "b"))
    rejects(ring, "citations[1].derives_from")
    chain = [cit("c0")] + [link(f"c{i}", f"c{i - 1}") for i in range(1, 10)]
    assert len(check_bundle(bundle(*chain))["supplied_lineage_links"]) == 9


def test_result_bytes_bound() -> None:
    # 10 documents x 100 anchors with long URLs and 256-character text cannot fit in 64 KiB.
    text = "t" * 256
    html = "".join(f"<a href='https://s.example/{'p' * 300}{i}'>{text}</a>" for i in range(100))
    cits = [cit(f"c{i}", html=html) for i in range(2)]
    rejects(bundle(*cits), "result")


def test_deep_nesting_and_byte_order_mark() -> None:
    rejects(b"[" * 100_000, "request")
    rejects(b'{"claim": "x", "citations": [' + b"[" * 50_000 + b"]" * 50_000 + b"]}", "request")
    body = json.dumps(bundle()).encode()
    assert check_bundle(b"\xef\xbb\xbf" + body) == check_bundle(body)
