"""Console summary and its `--json` twin."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from auditor.report.console import print_summary, summary_dict
from auditor.report.view import build_view
from auditor.result import AuditResult


def test_summary_dict_is_json_and_complete(result: AuditResult) -> None:
    summary = summary_dict(build_view(result))
    assert json.loads(json.dumps(summary)) == summary
    assert summary["criteria_id"] == "reference-resolution/v1"
    assert summary["inputs"] == ["thesis.bib", "submission2.bib"]
    assert summary["rows"] == 9
    assert summary["by_verdict"]["RESOLVES-AND-MATCHES"] == 2
    assert summary["unchecked_reasons"] == {"timeout": 1}


def test_print_summary_names_counts_reasons_and_folder(result: AuditResult) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system=None)
    print_summary(build_view(result), Path("reports/thesis"), quiet=False, console=console)
    text = buffer.getvalue()
    assert "DOES-NOT-RESOLVE" in text and "submission2.bib" in text
    assert "timeout × 1" in text
    assert "reports/thesis" in text
    assert "7 items pending human check" in text


def test_quiet_prints_nothing(result: AuditResult) -> None:
    buffer = io.StringIO()
    print_summary(build_view(result), Path("x"), quiet=True, console=Console(file=buffer))
    assert buffer.getvalue() == ""


def test_a_run_too_large_for_a_page_names_no_page(result: AuditResult, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import auditor.report

    buffer = io.StringIO()
    print_summary(
        build_view(result),
        Path("reports/big"),
        quiet=False,
        console=Console(file=buffer, width=200),
    )
    assert "(report.html, verdicts.csv" in buffer.getvalue()
    monkeypatch.setattr(auditor.report, "LISTED_ROWS", 1)
    buffer = io.StringIO()
    print_summary(
        build_view(result),
        Path("reports/big"),
        quiet=False,
        console=Console(file=buffer, width=200),
    )
    text = buffer.getvalue()
    assert "report.html, " not in text and "no report.html above" in text
