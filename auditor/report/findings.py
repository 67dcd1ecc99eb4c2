"""The findings list on the terminal: one line per reference that needs a person, after the counts.

`thesis.bib:86  zhang2021quantum  DOES-NOT-RESOLVE  the register has no such record`, like
lychee's failing-link lines. Worst first decides which findings are shown when there are more than
`--max-findings`; those shown are grouped by file and sorted by line, and the rest are counted
("… 3 more in reports/thesis/report.html"). Colour comes from the console (off under `NO_COLOR`
or when the stream is not a terminal). Keys, paths and reasons come from the bibliography and the
registers: they are untrusted, so Rich markup is escaped and control characters are dropped.
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
    "DOES-NOT-RESOLVE": 0,
    "RESOLVES-BUT-DIFFERS": 1,
    "NOT FOUND": 2,
    "INVALID": 3,
    "UNCHECKED": 4,
}

_STYLE = {
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
    out: list[Finding] = []
    for row in result.verdicts.to_pylist():
        if row["verdict"] not in SEVERITY:
            continue
        out.append(_finding(row))
    return sorted(out, key=lambda f: (f.severity, f.path, f.line or 0, f.key))


def _finding(row: dict[str, Any]) -> Finding:
    return Finding(
        path=shown_path(str(row.get("source_path") or "")),
        line=row.get("source_line"),
        key=str(row.get("key") or f"row {row['row_id']}"),
        verdict=str(row["verdict"]),
        reason=reason_text(row.get("reason")),
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
