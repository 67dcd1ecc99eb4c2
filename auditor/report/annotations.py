"""GitHub Actions workflow commands: one `::error` per failing reference, on its source line.

The rows that fail are those of the `--fail-on` policy (`auditor.policy`); rows that could not be
checked (`UNCHECKED`, `INVALID`) and retracted works the policy lets by get a `::warning`, so a
CI log shows them without failing on them. A retracted work is titled `RETRACTED (verdict)`.
Untrusted text is escaped as the workflow-command syntax requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.compute as pc

from auditor.alerts import ALERT_CODES, alert_column
from auditor.policy import failing_rows, parse_fail_on
from auditor.report.interface import ReportFormat
from auditor.report.terminal import printable
from auditor.report.view import ReportView
from auditor.report.words import reason_text
from auditor.result import AuditResult
from auditor.tables import RowState

__all__ = ["GithubAnnotations", "escape_data", "escape_property", "github_annotations"]


def escape_data(text: str) -> str:
    """Escape a workflow-command message (`%`, CR, LF); other control characters (ESC, OSC,
    BEL from a citation key or title) are shown as `\\xNN`, never sent raw to the log."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return printable(text)


def escape_property(text: str) -> str:
    """Escape a workflow-command property value (also `:` and `,`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, row: dict[str, object], message: str) -> str:
    props = [f"file={escape_property(str(row['source_path']))}"]
    if row.get("source_line") is not None:
        props.append(f"line={row['source_line']}")
    # a retracted work is titled as one (its verdict may be a match): `RETRACTED (…)`
    alert = row.get("alert")
    title = (
        f"auditor: {alert} ({row.get('verdict')})" if alert else f"auditor: {row.get('verdict')}"
    )
    props.append(f"title={escape_property(title)}")
    return f"::{level} {','.join(props)}::{escape_data(message)}"


def _message(row: dict[str, object]) -> str:
    key = row.get("key") or f"row {row['row_id']}"
    why = reason_text(row.get("reason"))  # type: ignore[arg-type]
    ident = f" {row.get('identifier')}" if row.get("identifier") else ""
    text = f"{key}:{ident} {row['verdict']}"
    alert = row.get("alert")
    if alert:
        said = reason_text(ALERT_CODES[str(alert)])
        text = f"{key}:{ident} {alert} ({said}); verdict {row['verdict']}"
    return f"{text} ({why}); pending human check" if why else f"{text}; pending human check"


def _said(verdicts: pa.Table, failing: set[int], alerts: pa.Array) -> pa.Table:
    """The rows that get a command (failing, unchecked or invalid) by row id, with the columns
    the commands name: only those become Python values."""
    columns = ["row_id", "source_path", "source_line", "key", "verdict", "reason", "identifier"]
    table = verdicts.select(columns)
    table = table.append_column("alert", alerts)
    warned = pa.array([RowState.UNCHECKED.value, RowState.INVALID.value], pa.string())
    said = pc.or_(
        pc.is_in(
            table["row_id"], value_set=pa.array(sorted(failing), table.schema.field("row_id").type)
        ),
        pc.is_in(table["verdict"], value_set=warned),
    )
    said = pc.or_(said, pc.is_valid(table["alert"]))  # a retracted work is always said
    table = table.filter(said)
    return table.take(pc.sort_indices(table["row_id"]))


def github_annotations(result: AuditResult, fail_on: Sequence[str] = ()) -> str:
    """Workflow commands, one line each, in input order; empty string when nothing to say.

    `fail_on` is the `--fail-on` list (empty means `auditor.policy.DEFAULT_FAIL_ON`).
    """
    policy = parse_fail_on(fail_on)
    failing = set(failing_rows(result.verdicts, result.checklist, policy))
    lines: list[str] = []
    alerts = alert_column(result.verdicts, result.checklist)
    for row in _said(result.verdicts, failing, alerts).to_pylist():
        if row["row_id"] in failing:
            lines.append(_command("error", row, _message(row)))
        elif row["verdict"] in (RowState.UNCHECKED, RowState.INVALID) or row["alert"]:
            lines.append(_command("warning", row, _message(row)))
    return "".join(line + "\n" for line in lines)


class GithubAnnotations(ReportFormat):
    """`--output-format github`: the workflow commands on `stream` (stdout); no file is written."""

    def __init__(self, stream: TextIO, fail_on: Sequence[str] = ()) -> None:
        self.stream = stream
        self.fail_on = tuple(fail_on)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `github_annotations(result, fail_on)` to the stream."""
        self.stream.write(github_annotations(view.result, self.fail_on))
        return []
