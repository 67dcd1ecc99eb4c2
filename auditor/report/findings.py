"""The findings list on the terminal: one line per reference that needs a person, after the counts.

`thesis.bib:86  zhang2021quantum  DOES-NOT-RESOLVE  the register has no such record`, like
lychee's failing-link lines. Worst first decides which findings are shown when there are more than
`--max-findings`; those shown are grouped by file and sorted by line, and the rest are counted
("… 3 more in reports/thesis/report.html"). A row whose checklist holds a P0 item (a retracted
work, whose fields may all match) is a finding too, labelled `RETRACTED` or `P0`, because the
default `--fail-on` fails it and a person must not learn of it only from the HTML. Colour comes
from the console (off under `NO_COLOR` or when the stream is not a terminal). Keys, paths and
reasons come from the bibliography and the registers: they are untrusted, so Rich markup is
escaped and control characters are dropped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from auditor.report.interface import ReportFormat
from auditor.report.words import reason_text
from auditor.result import AuditResult

__all__ = ["SEVERITY", "Finding", "FindingsList", "findings", "plain_text", "safe_text"]

#: Verdicts and states that are findings, worst first (a lower number is worse).
SEVERITY: dict[str, int] = {
    "RETRACTED": 0,
    "P0": 0,
    "DOES-NOT-RESOLVE": 0,
    "RESOLVES-BUT-DIFFERS": 1,
    "NOT FOUND": 2,
    "INVALID": 3,
    "UNCHECKED": 4,
}

_STYLE = {
    "RETRACTED": "bold red",
    "P0": "bold red",
    "DOES-NOT-RESOLVE": "bold red",
    "RESOLVES-BUT-DIFFERS": "yellow",
    "NOT FOUND": "red",
    "INVALID": "magenta",
    "UNCHECKED": "blue",
}

#: C0/C1 controls, DEL, and the bidirectional overrides that can reorder a terminal line.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


#: A key or path wider than this does not widen its column further.
_MAX_COLUMN = 48


def plain_text(value: object) -> str:
    """`value` as one printable terminal line: control characters dropped."""
    return _CONTROL.sub("", "" if value is None else str(value))


def safe_text(value: object, width: int = 0) -> str:
    """`plain_text(value)` padded to `width`, with Rich markup escaped (print it as markup)."""
    return escape(plain_text(value).ljust(width))


def shown_path(path: str) -> str:
    """`path` relative to the working folder when it lies inside it, else as stored."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith("..") else relative


@dataclass(frozen=True)
class Finding:
    """One reference that needs a person: where it is, what it is, and why."""

    path: str
    line: int | None
    key: str
    verdict: str
    reason: str

    @property
    def severity(self) -> int:
        """Lower is worse (see `SEVERITY`)."""
        return SEVERITY[self.verdict]


def findings(result: AuditResult) -> list[Finding]:
    """Every finding of `result`, worst first, then by file and line."""
    urgent = _p0_reasons(result)
    out: list[Finding] = []
    for row in result.verdicts.to_pylist():
        p0 = urgent.get(row["row_id"])
        if p0 is not None:
            out.append(_urgent_finding(row, p0))
        elif row["verdict"] in SEVERITY:
            out.append(_finding(row, str(row["verdict"]), reason_text(row.get("reason"))))
    return sorted(out, key=lambda f: (f.severity, f.path, f.line or 0, f.key))


def _p0_reasons(result: AuditResult) -> dict[int, tuple[str, str]]:
    """Row id → (reason code, text) of its first P0 checklist item."""
    urgent: dict[int, tuple[str, str]] = {}
    for item in result.checklist.select(["row_id", "priority", "reason_code", "text"]).to_pylist():
        if item["priority"] == "P0":
            urgent.setdefault(item["row_id"], (str(item["reason_code"]), str(item["text"] or "")))
    return urgent


#: The checklist's closing words, which a one-line finding does not repeat.
_PENDING = re.compile(r"[;.]?\s*pending human check\.?\s*$", re.IGNORECASE)


def _urgent_finding(row: dict[str, Any], item: tuple[str, str]) -> Finding:
    """A P0 row. A retraction leads (the verdict's own finding follows it); another P0 item of a
    row that is already a finding keeps the verdict, and of one that is not is labelled `P0`."""
    code, text = item
    verdict, why = str(row["verdict"]), reason_text(row.get("reason"))
    said = _PENDING.sub("", text) or reason_text(code)
    if code == "work_retracted":
        also = f"; {verdict}: {why}" if verdict in SEVERITY and why else ""
        return _finding(row, "RETRACTED", said + also)
    if verdict in SEVERITY:
        return _finding(row, verdict, why)
    return _finding(row, "P0", said)


def _finding(row: dict[str, Any], verdict: str, reason: str) -> Finding:
    return Finding(
        path=shown_path(str(row.get("source_path") or "")),
        line=row.get("source_line"),
        key=str(row.get("key") or f"row {row['row_id']}"),
        verdict=verdict,
        reason=reason,
    )


def select(all_findings: list[Finding], limit: int) -> tuple[list[Finding], int]:
    """The worst `limit` findings grouped by file and sorted by line, and how many were left."""
    shown = all_findings[: max(0, limit)]
    return sorted(shown, key=lambda f: (f.path, f.line or 0, f.key)), len(all_findings) - len(shown)


class FindingsList(ReportFormat):
    """Prints the findings on `console` (stdout in the CLI): data, not the summary."""

    def __init__(self, console: Console, max_findings: int = 20) -> None:
        self.console = console
        self.max_findings = max_findings

    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Print one line per shown finding and the count of the rest; no file is written."""
        shown, more = select(findings(result), self.max_findings)
        if not shown and not more:
            return []
        where = min(_MAX_COLUMN, max((len(plain_text(_where(f))) for f in shown), default=0))
        keys = min(_MAX_COLUMN, max((len(plain_text(f.key)) for f in shown), default=0))
        verdicts = max((len(f.verdict) for f in shown), default=0)
        for f in shown:
            # Rich drops colours under NO_COLOR but keeps bold; the list is then plain text.
            style = "none" if self.console.no_color else _STYLE.get(f.verdict, "none")
            self.console.print(
                f"{safe_text(_where(f), where)}  {safe_text(f.key, keys)}  "
                f"[{style}]{f.verdict.ljust(verdicts)}[/]  {safe_text(f.reason)}",
                highlight=False,
                soft_wrap=True,
            )
        if more:
            report = safe_text(out_dir / "report.html")
            self.console.print(f"… {more} more in {report}", highlight=False, soft_wrap=True)
        return []


def _where(f: Finding) -> str:
    return f"{f.path}:{f.line}" if f.line is not None else f.path
