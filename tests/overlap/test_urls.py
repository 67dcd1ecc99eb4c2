"""URL rules of the citation-overlap contract: what is rejected, how URLs are normalized."""

from __future__ import annotations

import pytest

from auditor.overlap.urls import MAX_URL_CHARS, normalize_url, resolve_href, url_problem


@pytest.mark.parametrize(
    ("url", "normal"),
    [
        ("https://a.test", "https://a.test/"),
        ("https://A.Example.ORG/Path", "https://a.example.org/Path"),  # path case kept
        ("https://a.test:443/x", "https://a.test/x"),
        ("https://a.test:8443/x", "https://a.test:8443/x"),
        ("https://a.test/x#frag", "https://a.test/x"),
        ("https://a.test?b=1&a=2#f", "https://a.test/?b=1&a=2"),  # query kept as is
        ("https://a.test:/", "https://a.test/"),  # empty port is the default port
        ("https://[2001:db8::1]:443/", "https://[2001:db8::1]/"),
    ],
)
def test_valid_urls_normalize(url: str, normal: str) -> None:
    assert url_problem(url) is None
    assert normalize_url(url) == normal


@pytest.mark.parametrize(
    ("url", "word"),
    [
        ("http://a.test/", "https"),
        ("HTTPS://a.test/", "https"),  # the schema's pattern is case-sensitive
        ("ftp://a.test/", "https"),
        ("https://user:pw@a.test/", "credentials"),
        ("https://user@a.test/", "credentials"),
        ("https://a.test:99999/", "port"),
        ("https://a.test:12a/", "port"),
        ("https://a.test:-1/", "port"),
        ("https://a .test/", "whitespace"),
        ("https://a.test/x y", "whitespace"),
        (" https://a.test/", "https"),
        ("https://a.test/\t", "whitespace"),
        ("https://a.test/\x00", "control"),
        ("https:///path", "host"),
        ("https://a.test/<script>", "URI"),
        ("https://a.test/%zz", "URI"),
        ("https://ü.test/", "URI"),
        (42, "string"),
        (None, "string"),
    ],
)
def test_invalid_urls_are_named(url: object, word: str) -> None:
    problem = url_problem(url)
    assert problem is not None
    assert word.lower() in problem.lower()


def test_url_length_bound_at_and_past_limit() -> None:
    base = "https://a.test/"
    at = base + "x" * (MAX_URL_CHARS - len(base))
    assert len(at) == MAX_URL_CHARS
    assert url_problem(at) is None
    assert url_problem(at + "x") is not None


@pytest.mark.parametrize(
    ("href", "target"),
    [
        ("https://s.example", "https://s.example/"),
        ("/press", "https://a.test/press"),
        ("../up", "https://a.test/up"),
        ("sib?q=1", "https://a.test/dir/sib?q=1"),
        ("//cdn.test/x", "https://cdn.test/x"),
        ("  https://s.example/\n\tx  ", "https://s.example/x"),  # browsers drop tabs/newlines
        ("https://S.example:443/a#b", "https://s.example/a"),
        ("https://s.example/ä b", "https://s.example/%C3%A4%20b"),
        ("https://bücher.test/", "https://xn--bcher-kva.test/"),
    ],
)
def test_hrefs_resolve_against_the_citation_url(href: str, target: str) -> None:
    assert resolve_href(href, "https://a.test/dir/page") == target


@pytest.mark.parametrize(
    "href",
    [
        "",
        "#section",
        "http://s.example/",
        "mailto:x@y.test",
        "javascript:alert(1)",
        "data:text/html,<a>",
        "https://u:p@s.example/",
        "https://s.example:70000/",
        "https://s.example/" + "x" * MAX_URL_CHARS,
    ],
)
def test_unusable_hrefs_are_ignored(href: str) -> None:
    assert resolve_href(href, "https://a.test/dir/page") is None
