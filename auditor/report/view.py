"""The report's view of a run, built once: the verdict rows a reader sees and their totals.

`build_view(result)` joins the verdicts with what a reader needs (`rows.build_report_verdicts`)
and counts them (`rows.count_totals`) once, before any format runs; every format renders the
`ReportView` it is given and computes neither again. Built before the formats are written side
by side, so no thread ever builds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor.report.choice import ReportChoice, choose_reports
from auditor.report.rows import build_report_verdicts, count_totals
from auditor.result import AuditResult

__all__ = ["TABLES", "ReportView", "build_view", "report_tables"]

#: The tables a run's files hold, by file stem.
TABLES = ("verdicts", "checklist", "duplicates")


@dataclass(frozen=True)
class ReportView:
    """What every report format renders."""

    rows: pa.Table
    """`rows.REPORT_VERDICTS`: one row per input row, in input order."""
    totals: Mapping[str, Any]
    """`rows.count_totals` of `rows`: counts by verdict, register, priority, reason and file."""
    result: AuditResult
    """The run's tables and metadata (checklist, duplicates, records, run info), as made."""
    record_at: pa.Array
    """For each of `rows`, the index in `result.records` of the record it relied on (its
    `record_key`; null: none): the one join of verdicts and records every format shares."""
    alerts: pa.Array
    """For each of `rows`, its alert label (`RETRACTED`, `UNDER CONCERN`; null: none), from
    the checklist (`auditor.alerts`): shown beside the verdict wherever one is shown."""
    choice: ReportChoice
    """The reports this run writes (`--report`, else sized to the run): what the console and
    the summaries name as written."""

    def alert_counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """Alerted rows per file, verdict and label:
        `{"thesis.bib": {"RESOLVES-AND-MATCHES": {"RETRACTED": 1}}}`."""
        counts: dict[str, dict[str, dict[str, int]]] = {}
        alerted = pc.is_valid(self.alerts)  # few rows: only those become Python values
        picked = self.rows.select(["source_path", "verdict"]).filter(alerted).to_pylist()
        for row, label in zip(picked, self.alerts.filter(alerted).to_pylist(), strict=True):
            per = counts.setdefault(row["source_path"], {}).setdefault(row["verdict"], {})
            per[label] = per.get(label, 0) + 1
        return counts

    def relied_records(self) -> pa.Table:
        """`result.records` row-aligned with `rows`: the record each row relied on (nulls)."""
        return self.result.records.take(self.record_at)


def build_view(
    result: AuditResult, reports: Sequence[str] = (), fail_on: Sequence[str] = ()
) -> ReportView:
    """The `ReportView` of `result` (joins and counts over whole columns; never raises on data).

    `reports` is the `report` setting (`choice.choose_reports`: none named, the defaults sized
    to the run) and `fail_on` the policy's list, for JUnit. Raises `ConfigError` for a report
    name that does not exist.
    """
    choice = choose_reports(reports, result.verdicts.num_rows, fail_on)
    rows, record_at = build_report_verdicts(result)
    return ReportView(
        rows=rows,
        totals=count_totals(result, rows),
        result=result,
        record_at=record_at,
        alerts=rows["alert"].combine_chunks(),
        choice=choice,
    )


def report_tables(view: ReportView, names: Sequence[str] = TABLES) -> dict[str, pa.Table]:
    """The tables of `view` named in `names` (of `TABLES`), by file stem; `duplicates` only
    when there are duplicate groups (no empty file)."""
    result = view.result
    tables = {"verdicts": view.rows, "checklist": result.checklist}
    if result.duplicates.num_rows:
        tables["duplicates"] = result.duplicates
    return {name: tables[name] for name in names if name in tables}
