"""The report's verdict table and totals."""

from __future__ import annotations

import pyarrow as pa

from auditor import tables
from auditor.report.rows import REPORT_VERDICTS, report_verdicts, totals
from auditor.result import AuditResult


def test_one_row_per_input_row_in_input_order_even_if_verdicts_are_shuffled(
    result: AuditResult,
) -> None:
    shuffled = result.verdicts.take(pa.array([8, 3, 0, 5, 1, 7, 2, 6, 4]))
    table = report_verdicts(AuditResult(**{**result.__dict__, "verdicts": shuffled}))
    assert table.schema == REPORT_VERDICTS
    assert table["row_id"].to_pylist() == list(range(9))
    assert table.schema.names[: len(tables.VERDICTS)] == tables.VERDICTS.names


def test_joined_columns(result: AuditResult) -> None:
    rows = {r["key"]: r for r in report_verdicts(result).to_pylist()}
    assert rows["lecun2015"]["agency"] == "crossref"
    assert rows["lecun2015"]["record_status"] == "found"
    assert rows["evil"]["id_raw"] == "2101.00001v2"
    assert rows["zh"]["priority"] == "P0"
    assert rows["wrongtitle"]["priority"] == "P1"
    assert rows["lecun2015"]["priority"] is None
    assert rows["lecun2015"]["checklist_items"] == 0
    assert rows["timeout"]["record_status"] == "unreachable"


def test_totals_count_every_outcome_and_file(result: AuditResult) -> None:
    counts = totals(result)
    assert counts["rows"] == 9
    assert list(counts["by_verdict"]) == list(tables.OUTCOMES)
    assert sum(counts["by_verdict"].values()) == 9
    assert counts["by_verdict"]["UNCHECKED"] == 1
    assert counts["unchecked_reasons"] == {"timeout": 1}
    assert counts["by_priority"] == {"P0": 1, "P1": 2, "P2": 2, "P3": 2}
    assert [f["path"] for f in counts["by_file"]] == ["thesis.bib", "submission2.bib"]
    assert [f["rows"] for f in counts["by_file"]] == [6, 3]
    assert counts["duplicate_groups"] == 1
