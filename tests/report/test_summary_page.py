"""The summary `report.html` of a run too large to list row by row (#36)."""

from __future__ import annotations

import dataclasses
import re

import pyarrow as pa
import pytest

import auditor.report.choice
import auditor.report.summary_page as summary_page
from auditor.report.summary_page import render_summary
from auditor.report.view import build_view
from auditor.result import AuditResult
from tests.report.conftest import EVIL_TITLE


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 1)


def test_counts_urgent_items_and_groups_no_rows(result: AuditResult, large: None) -> None:
    page = render_summary(build_view(result))
    view = build_view(result)
    urgent = result.checklist.filter(
        [p in ("P0", "P1") for p in result.checklist["priority"].to_pylist()]
    )
    assert urgent.num_rows  # the fixture has urgent items: the table is not vacuous
    assert len(re.findall(r'<tr class="item" data-priority="P[01]"', page)) == urgent.num_rows
    assert 'data-priority="P2"' not in page and 'data-priority="P3"' not in page
    for bar in view.totals["by_verdict"].items():
        assert f'data-verdict="{bar[0]}" data-count="{bar[1]}"' in page
    assert 'class="ref"' not in page  # no row of the verdicts is listed
    groups = len(set(result.duplicates["group_id"].to_pylist()))
    assert page.count("</code></td>\n    <td>") == groups  # one line per group
    assert "<script" not in page  # no script; untrusted text is escaped


def test_untrusted_text_is_escaped_and_the_list_is_capped(
    result: AuditResult, large: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(summary_page, "SHOWN_ITEMS", 1)
    checklist = result.checklist
    at = checklist.schema.get_field_index("cited_title")
    titles = pa.array([EVIL_TITLE] * checklist.num_rows, pa.string())
    duplicates = result.duplicates
    keys = pa.array(["<b>k</b>"] * duplicates.num_rows, pa.string())
    hostile = dataclasses.replace(
        result,
        checklist=checklist.set_column(at, "cited_title", titles),
        duplicates=duplicates.set_column(duplicates.schema.get_field_index("key"), "key", keys),
    )
    page = render_summary(build_view(hostile))
    assert len(re.findall(r'<tr class="item"', page)) == 1
    assert "the first 1 listed" in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<b>k</b>" not in page and "&lt;b&gt;k&lt;/b&gt;" in page
