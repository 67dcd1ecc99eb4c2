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


def test_a_large_run_names_what_it_wrote_and_how_to_ask(result: AuditResult, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import auditor.report

    buffer = io.StringIO()
    print_summary(
        build_view(result),
        Path("reports/big"),
        quiet=False,
        console=Console(file=buffer, width=200),
    )
    assert "(report.html, verdicts.csv" in buffer.getvalue()
    monkeypatch.setattr(auditor.report.choice, "LISTED_ROWS", 1)
    buffer = io.StringIO()
    print_summary(
        build_view(result),
        Path("reports/big"),
        quiet=False,
        console=Console(file=buffer, width=200),
    )
    text = buffer.getvalue()
    # What was written, then what was not and how to ask for it (#36).
    assert (
        "(verdicts.parquet, duplicates.parquet, checklist.parquet, checklist.csv, report.html, "
        "report.json)"
    ) in text
    assert (
        "Not written (more than 1 rows): verdicts.csv; "
        "ask with --report parquet,csv,checklist,html,json"
    ) in text


def test_the_title_search_s_use_of_each_index_is_shown(result: AuditResult) -> None:
    import dataclasses

    from auditor.result import SearchUse

    assert result.run is not None
    use = (SearchUse("openalex_search", 12, 3, 1.25), SearchUse("dblp", 2, 0, 4.0))
    searched = dataclasses.replace(result, run=dataclasses.replace(result.run, search_use=use))
    summary = summary_dict(build_view(searched))
    assert summary["search"][0] == {
        "index": "openalex_search",
        "requests": 12,
        "free": 3,
        "waited_seconds": 1.25,
    }
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None)
    print_summary(build_view(searched), Path("r"), quiet=False, console=console)
    text = buffer.getvalue()
    assert "openalex_search 12 requests + 3 from snapshot/cache (waited 1.2 s)" in text
    assert "dblp 2 requests (waited 4.0 s)" in text
