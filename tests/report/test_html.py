"""`report.html` as text: escaping, self-containment, sections, word differences."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from auditor import tables
from auditor.report import write_reports
from auditor.report.html import diff_segments, render_html
from auditor.report.view import build_view
from auditor.result import AuditResult


class _Collector(HTMLParser):
    """Tags, attributes and script/style bodies of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.scripts += tag == "script"


def _parse(page: str) -> _Collector:
    collector = _Collector()
    collector.feed(page)
    return collector


def test_untrusted_strings_are_escaped(result: AuditResult) -> None:
    page = render_html(build_view(result))
    assert '<script>document.title="pwned"' not in page
    assert "&lt;script&gt;document.title=&#34;pwned&#34;&lt;/script&gt;" in page
    assert "<img src=x" not in page
    assert "<b>bold</b>" not in page  # a register title cannot close our markup
    assert "&gt;&lt;" in page and "&lt;/" in page  # shown as text, split by highlights
    parsed = _parse(page)
    assert parsed.scripts == 1  # ours only
    assert not any(tag == "img" for tag, _ in parsed.tags)


def test_parsed_names_sit_beside_the_names_as_written(result: AuditResult) -> None:
    page = render_html(build_view(result))
    assert "Vaswani, Ashish" in page  # as written
    assert "parsed: Vaswani (given Ashish; suffix &lt;i&gt;Jr&lt;/i&gt;)" in page  # escaped
    assert "<i>Jr</i>" not in page


def test_self_contained_and_locked_down(result: AuditResult) -> None:
    page = render_html(build_view(result))
    parsed = _parse(page)
    csp = [
        a
        for t, a in parsed.tags
        if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert csp and "default-src 'none'" in (csp[0]["content"] or "")
    for tag, attrs in parsed.tags:
        assert "src" not in attrs, f"<{tag}> loads {attrs['src']}"
        if tag == "link":
            raise AssertionError("no external stylesheet or preload")
        href = attrs.get("href")
        if href is not None:
            assert tag == "a" and href.startswith(("#", "https://")), href
    assert not re.search(r"url\(|@import", page)


def test_summary_counts_and_sections(result: AuditResult) -> None:
    page = render_html(build_view(result))
    counts = dict(re.findall(r'data-verdict="([^"]+)" data-count="(\d+)"', page))
    assert counts == {
        "RESOLVES-AND-MATCHES": "2",
        "RESOLVES-BUT-DIFFERS": "2",
        "DOES-NOT-RESOLVE": "2",
        "NOT COVERED": "1",
        "UNCHECKED": "1",
        "INVALID": "1",
        "NOT FOUND": "0",
    }
    assert page.count('<tr class="ref"') == 9
    assert page.count('<section class="file"') == 2  # one section per input file
    assert 'id="duplicate-groups"' in page and 'id="checklist-items"' in page
    assert page.count("<details>") == 9
    assert "https://doi.org/10.1000/xyz" in page
    assert "as of 2026-11-30T12:00:00+00:00" in page


def test_single_file_has_no_per_file_heading(result: AuditResult) -> None:
    keep = [
        i for i, p in enumerate(result.verdicts["source_path"].to_pylist()) if p == "thesis.bib"
    ]
    single = AuditResult(
        references=result.references.take(keep),
        records=result.records,
        verdicts=result.verdicts.take(keep),
        checklist=result.checklist.filter(
            [p == "thesis.bib" for p in result.checklist["source_path"].to_pylist()]
        ),
        duplicates=tables.empty(tables.DUPLICATES),
        run=None,
    )
    page = render_html(build_view(single))
    assert "<h3>" not in page
    assert "No reference appears twice" in page


def test_diff_segments_mark_words_the_other_side_lacks() -> None:
    assert diff_segments("Attention is all you need", "Attention span in goldfish") == [
        ("Attention ", False),
        ("is all you need", True),
    ]
    assert diff_segments("Deep  learning.", "deep learning") == [("Deep  learning.", False)]
    assert diff_segments("中华医学", "中华内科") == [("中华", False), ("医学", True)]
    assert diff_segments(None, "x") == []
    assert diff_segments("x y", None) == [("x y", False)]


def test_written_atomically_into_out_dir(result: AuditResult, tmp_path: Path) -> None:
    out = tmp_path / "nested" / "out"
    write_reports(build_view(result), out)
    assert (out / "report.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_each_row_names_its_criteria_venue_and_findings(result: AuditResult) -> None:
    rows = result.verdicts.to_pylist()
    rows[0].update(
        criteria_id="auditor/v2",
        venue_claimed="NeurIPS <script>",
        venue_register="ICML",
        venue_match=False,
        findings=["venue_differs", "year_differs"],
    )
    marked = AuditResult(
        references=result.references,
        records=result.records,
        verdicts=tables.from_rows(rows, tables.VERDICTS),
        checklist=result.checklist,
        duplicates=result.duplicates,
        run=result.run,
    )
    page = render_html(build_view(marked))
    assert "Decided under <code>auditor/v2</code>" in page
    assert "NeurIPS &lt;script&gt;" in page and "<td>venue</td>" in page
    assert "Findings: the journal or proceedings differs; the year differs" in page
