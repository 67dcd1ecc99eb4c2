"""Anchor extraction from supplied HTML, including hostile HTML."""

from __future__ import annotations

import time

from auditor.overlap.anchors import MAX_ANCHOR_TEXT, Anchor, extract_anchors

BASE = "https://a.test/news/story"
SELF = "https://a.test/news/story"


def targets(html: str) -> list[str]:
    return [a.target_url for a in extract_anchors(html, BASE, SELF)]


def test_position_is_one_based_line_zero_based_column() -> None:
    html = "<p>intro</p>\n  <p>see <a href='https://s.example/r'>the release</a></p>"
    assert extract_anchors(html, BASE, SELF) == [
        Anchor("https://s.example/r", line=2, column=9, anchor_text="the release")
    ]


def test_crlf_lines_count_once() -> None:
    html = "<p>x</p>\r\n<p>y</p>\r\n<a href='https://s.example/'>z</a>"
    (anchor,) = extract_anchors(html, BASE, SELF)
    assert (anchor.line, anchor.column) == (3, 0)


def test_relative_hrefs_resolve_against_the_citation_url() -> None:
    html = "<a href='/x'>1</a><a href='y'>2</a><a href='//o.test'>3</a><a href='../z?q'>4</a>"
    assert targets(html) == [
        "https://a.test/x",
        "https://a.test/news/y",
        "https://o.test/",
        "https://a.test/z?q",
    ]


def test_entities_in_hrefs_are_decoded() -> None:
    html = (
        "<a href='https://s.example/?a=1&amp;b=2'>1</a>"
        "<a href='https://s.example/&#x70;ath'>2</a>"
        "<a href='https&#58;//t.example/'>3</a>"
        "<a href='https://s.example/?x=1&copy=2'>4</a>"
    )
    assert targets(html) == [
        "https://s.example/?a=1&b=2",
        "https://s.example/path",
        "https://t.example/",
        "https://s.example/?x=1&copy=2",  # no `;`: a legacy entity is not expanded in attributes
    ]


def test_fragment_self_and_non_https_links_are_ignored() -> None:
    html = (
        "<a href='#top'>a</a><a href=''>b</a><a href='story'>c</a>"
        "<a href='https://A.test:443/news/story#p2'>d</a><a href='http://s.example/'>e</a>"
        "<a href='mailto:x@s.example'>f</a><a href='javascript:void(0)'>g</a><a>h</a>"
        "<a name='n'>i</a><a href='https://kept.example/'>j</a>"
    )
    assert targets(html) == ["https://kept.example/"]


def test_links_in_script_style_template_and_comments_are_ignored() -> None:
    html = """
    <script>document.write('<a href="https://js.example/">x</a>')</script>
    <style>a[href="https://css.example/"] {}</style>
    <template><div><a href="https://tpl.example/">t</a></div></template>
    <!-- <a href="https://comment.example/">c</a> -->
    <a href="https://real.example/">real</a>
    """
    assert targets(html) == ["https://real.example/"]


def test_script_inside_anchor_is_not_anchor_text() -> None:
    (anchor,) = extract_anchors(
        "<a href='https://s.example/'>Se<script>evil()</script>e <b>more</b></a>", BASE, SELF
    )
    assert anchor.anchor_text == "See more"


def test_only_completed_anchors_are_recorded() -> None:
    assert targets("<a href='https://open.example/'>never closed") == []
    assert targets("<p><a href='https://open.example/'>x</p>") == []
    # A second <a> before </a> leaves the first unfinished.
    assert targets("<a href='https://one.example/'>1<a href='https://two.example/'>2</a>") == [
        "https://two.example/"
    ]
    # A self-closing <a/> is only a start tag in HTML.
    assert targets("<a href='https://sc.example/'/>text</a>") == ["https://sc.example/"]


def test_unclosed_comment_and_tags_hide_links_without_error() -> None:
    assert targets("<!-- <a href='https://c.example/'>c</a>") == []
    assert targets("<div><span><a href='https://d.example/'>d</a>") == ["https://d.example/"]
    assert targets("<a href='https://e.example/' <b>broken</a>") in ([], ["https://e.example/"])
    assert targets("<<<>>></a></a><a") == []


def test_anchor_text_collapsed_and_capped() -> None:
    long = "word " * 200
    (anchor,) = extract_anchors(f"<a href='https://s.example/'>\n  {long}\n</a>", BASE, SELF)
    assert len(anchor.anchor_text) == MAX_ANCHOR_TEXT
    assert anchor.anchor_text == " ".join(long.split())[:MAX_ANCHOR_TEXT]
    (anchor,) = extract_anchors("<a href='https://s.example/'>" + "é" * 256 + "</a>", BASE, SELF)
    assert anchor.anchor_text == "é" * 256
    (anchor,) = extract_anchors("<a href='https://s.example/'>" + "é" * 257 + "</a>", BASE, SELF)
    assert anchor.anchor_text == "é" * 256


def test_anchor_text_is_untrusted_and_kept_verbatim() -> None:
    (anchor,) = extract_anchors(
        "<a href='https://s.example/'>&lt;img src=x onerror=alert(1)&gt;</a>", BASE, SELF
    )
    assert anchor.anchor_text == "<img src=x onerror=alert(1)>"


def test_huge_attributes_do_not_break_parsing() -> None:
    junk = "x" * 120_000
    html = f"<a data-junk='{junk}' href='https://s.example/'>a</a><a href='https://t.example/{junk}'>b</a>"
    assert targets(html) == ["https://s.example/"]  # the second target is past 2048 chars


def test_first_href_wins_and_uppercase_tags_count() -> None:
    html = "<A HREF='https://first.example/' href='https://second.example/'>x</A>"
    assert targets(html) == ["https://first.example/"]


def test_quoted_gt_does_not_end_a_tag() -> None:
    assert targets("<a title='a > b' href=\"https://s.example/?x>y\">t</a>") == [
        "https://s.example/?x%3Ey"
    ]


def test_unclosed_comment_hides_the_rest_of_the_document() -> None:
    html = "<!-- open <a href='https://x.test/'>x</a>\n<p>t</p><a href='https://y.test/'>y</a>"
    assert targets(html) == []
    assert targets("<!----><a href='https://z.test/'>z</a>") == ["https://z.test/"]


def test_marked_sections_are_bogus_comments() -> None:
    html = "<![CDATA[<a href='https://x.test/'>x</a>]]><![<![junk>]><a href='https://y.test/'>y</a>"
    assert targets(html) == ["https://y.test/"]


def test_unterminated_tags_at_the_end_are_dropped_in_linear_time() -> None:
    # Each of these took html.parser minutes (it retries the tail from every `<`); the bound is
    # generous on purpose: a regression is quadratic, not a few percent.
    started = time.perf_counter()
    for unit in ("<a ", "<a x='>' ", "<!-- >", "<![", "<a href='", "</"):
        html = "<a href='https://ok.test/'>ok</a>" + unit * (131_000 // len(unit))
        assert targets(html) == ["https://ok.test/"]
    assert time.perf_counter() - started < 20


def test_raw_text_elements_hold_no_links() -> None:
    link = "<a href='https://in.test/'>in</a>"
    after = "<a href='https://after.test/'>after</a>"
    for tag in ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"):
        assert targets(f"<{tag}>{link}</{tag}>{after}") == ["https://after.test/"], tag
    # `<script/>` is a start tag in HTML, so its raw text still runs to `</script>`.
    assert targets(f"<script/>{link}</script>{after}") == ["https://after.test/"]
    assert targets(f"<plaintext>{link}") == []


def test_deep_indentation_does_not_starve_anchor_text() -> None:
    html = "<a href='https://s.example/'>" + " \n" * 5000 + "Source" + "<b> </b>" * 2000 + "</a>"
    (anchor,) = extract_anchors(html, BASE, SELF)
    assert anchor.anchor_text == "Source"
