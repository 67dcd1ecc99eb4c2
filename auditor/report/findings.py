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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rich.console import Console
from rich.markup import escape

from auditor.report.interface import ReportFormat
from auditor.report.view import ReportView
from auditor.report.words import reason_text
from auditor.result import AuditResult

__all__ = [
    "SEVERITY",
    "Finding",
    "FindingsList",
    "findings",
    "plain_text",
    "safe_text",
    "worst_findings",
]

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
    rows = _finding_rows(result)
    return _build(rows.take(pc.sort_indices(rows, sort_keys=_WORST_FIRST)))


def worst_findings(result: AuditResult, limit: int) -> tuple[list[Finding], int]:
    """`select(findings(result), limit)`, building only the findings shown (a million-row run
    has hundreds of thousands)."""
    rows = _finding_rows(result)
    if limit <= 0 or rows.num_rows == 0:
        return [], rows.num_rows
    worst = pc.select_k_unstable(rows, k=min(limit, rows.num_rows), sort_keys=_WORST_FIRST)
    return select(_build(rows.take(worst)), limit)[0], rows.num_rows - len(worst)


#: The order of `findings`; the row's position last makes it a total order, so the selection of
#: the worst few picks the same rows as a stable sort of all.
_WORST_FIRST = [
    ("severity", "ascending"),
    ("path", "ascending"),
    ("line", "ascending"),
    ("name", "ascending"),
    ("position", "ascending"),
]


def _finding_rows(result: AuditResult) -> pa.Table:
    """The verdict rows that are findings, in input order, with the first P0 checklist item of
    each, the severity of the label `_urgent_finding`/`_finding` give it, and the sort keys."""
    verdicts = result.verdicts
    checklist = result.checklist
    p0 = checklist.filter(pc.equal(checklist["priority"], "P0"))
    first_p0 = pc.index_in(verdicts["row_id"], value_set=p0["row_id"])
    urgent = pc.is_valid(first_p0)
    code = p0["reason_code"].take(first_p0)
    verdict = verdicts["verdict"]
    listed = pc.is_in(verdict, value_set=pa.array(list(SEVERITY), pa.string()))
    retracted = pc.fill_null(pc.equal(code, "work_retracted"), False)
    label = pc.if_else(
        urgent,
        pc.if_else(retracted, "RETRACTED", pc.if_else(listed, verdict, "P0")),
        verdict,
    )
    severity = pa.array(list(SEVERITY.values()), pa.int32()).take(
        pc.index_in(label, value_set=pa.array(list(SEVERITY), pa.string()))
    )
    key = verdicts["key"]
    named = pc.fill_null(pc.not_equal(key, ""), False)
    unnamed = pc.binary_join_element_wise("row ", verdicts["row_id"].cast(pa.string()), "")
    table = pa.table(
        {
            "severity": severity,
            "path": _shown_paths(verdicts["source_path"]),
            "line": pc.fill_null(verdicts["source_line"], 0),
            "name": pc.if_else(named, key, unnamed),
            "position": pa.array(np.arange(verdicts.num_rows)),
            "source_line": verdicts["source_line"],
            "verdict": verdict,
            "reason": verdicts["reason"],
            "urgent": urgent,
            "code": code,
            "text": p0["text"].take(first_p0),
        }
    )
    return table.filter(pc.or_(urgent, listed))


def _shown_paths(paths: pa.ChunkedArray) -> pa.Array:
    """`shown_path` of each source path (null as ""), worked out once per distinct path."""
    paths = pc.fill_null(paths, "")
    distinct = pc.unique(paths)
    shown = pa.array([shown_path(p) for p in distinct.to_pylist()], pa.string())
    return shown.take(pc.index_in(paths, value_set=distinct))


def _build(rows: pa.Table) -> list[Finding]:
    """The `Finding` of each of `_finding_rows`' rows, in their order."""
    columns = ["path", "source_line", "name", "verdict", "reason", "urgent", "code", "text"]
    out = []
    for row in rows.select(columns).to_pylist():
        if row["urgent"]:
            out.append(_urgent_finding(row, (str(row["code"]), str(row["text"] or ""))))
        else:
            out.append(_finding(row, str(row["verdict"]), reason_text(row.get("reason"))))
    return out


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
        path=row["path"], line=row["source_line"], key=row["name"], verdict=verdict, reason=reason
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

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Print one line per shown finding and the count of the rest; no file is written."""
        shown, more = worst_findings(view.result, self.max_findings)
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
            listed = view.choice.row_list()
            found = f" in {safe_text(out_dir / listed)}" if listed else ""
            self.console.print(f"… {more} more{found}", highlight=False, soft_wrap=True)
        return []


def _where(f: Finding) -> str:
    return f"{f.path}:{f.line}" if f.line is not None else f.path
