"""The console summary after a run: counts per verdict and register, UNCHECKED reasons, outputs.

Only the report outputs (and the CLI's progress bars) import `rich`; stages report through
callbacks. `ConsoleSummary` prints on stderr in the CLI; `JsonSummary` prints the same summary as
plain data (`summary_dict`) for `--json` on stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from auditor.alerts import ALERTS
from auditor.report import choice as choices
from auditor.report.findings import safe_text
from auditor.report.interface import ReportFormat
from auditor.report.terminal import json_for_terminal
from auditor.report.view import ReportView
from auditor.report.words import reason_text

__all__ = ["ConsoleSummary", "JsonSummary", "print_summary", "summary_dict"]

#: `ReportView.alert_counts`: alerted rows per file, verdict and label.
Alerted = dict[str, dict[str, dict[str, int]]]

#: Loader problems printed in the summary; all of them are in report.json and the HTML.
SHOWN_PROBLEMS = 20

_STYLE = {
    "RESOLVES-AND-MATCHES": "green",
    "RESOLVES-BUT-DIFFERS": "yellow",
    "DOES-NOT-RESOLVE": "bold red",
    "NOT COVERED": "dim",
    "UNCHECKED": "blue",
    "INVALID": "magenta",
    "NOT FOUND": "bold red",
}


def summary_dict(view: ReportView) -> dict[str, Any]:
    """The run's totals (`view.totals`) with the criteria id and inputs."""
    run = view.result.run
    return {
        "criteria_id": view.result.criteria_id,
        "inputs": [i.path for i in run.inputs] if run else [],
        "offline": run.offline if run else False,
        "tiers_used": list(run.tiers_used) if run else [],
        "load_problems": [
            {"path": p.path, "line": p.line, "severity": p.severity, "message": p.message}
            for p in (run.load_problems if run else ())
        ],
        "search": [
            {
                "index": u.index,
                "requests": u.requests,
                "free": u.free,
                "waited_seconds": u.waited_seconds,
            }
            for u in (run.search_use if run else ())
        ],
        **view.totals,
    }


def _alerted(alerted: Alerted, path: str | None, verdict: str | None, label: str | None) -> int:
    """Alerted rows of one file (all: `None`), verdict (all: `None`) and label (any: `None`)."""
    return sum(
        n
        for file, by_verdict in alerted.items()
        if path is None or file == path
        for name, by_label in by_verdict.items()
        if verdict is None or name == verdict
        for which, n in by_label.items()
        if label is None or which == label
    )


def _verdict_table(summary: dict[str, Any], alerted: Alerted) -> Table:
    """Counts by verdict; a row with an alert (a retracted work) is counted under its alert,
    never among the plain rows of its verdict (a retracted work that matches is no match)."""
    files = [f["path"] for f in summary["by_file"]] if len(summary["by_file"]) > 1 else []
    table = Table(title="Verdicts", title_justify="left", show_edge=False)
    table.add_column("verdict")
    for path in files:
        table.add_column(safe_text(path), justify="right")
    table.add_column("total", justify="right")
    for label in ALERTS.values():
        if _alerted(alerted, None, None, label):
            per_file = [str(_alerted(alerted, path, None, label)) for path in files]
            table.add_row(
                f"[bold red]{label}[/]", *per_file, str(_alerted(alerted, None, None, label))
            )
    for name, n in summary["by_verdict"].items():
        per_file = [
            str(f["by_verdict"].get(name, 0) - _alerted(alerted, f["path"], name, None))
            for f in summary["by_file"]
            if f["path"] in files
        ]
        plain = n - _alerted(alerted, None, name, None)
        table.add_row(f"[{_STYLE.get(name, '')}]{name}[/]", *per_file, str(plain))
    return table


def _alert_line(alerted: Alerted) -> str | None:
    """`retracted: 1 (…)`: the alerts said in words, or `None` when there is none."""
    said = [
        f"{label.lower()}: {_alerted(alerted, None, None, label)} ({reason_text(code)})"
        for code, label in ALERTS.items()
        if _alerted(alerted, None, None, label)
    ]
    if not said:
        return None
    return "[bold red]" + "; ".join(said) + "[/]: never a pass, whatever the fields say"


def _register_table(summary: dict[str, Any]) -> Table:
    table = Table(title="Registers", title_justify="left", show_edge=False)
    table.add_column("register")
    table.add_column("rows", justify="right")
    for name, n in summary["by_register"].items():
        table.add_row(safe_text(name), str(n))
    return table


def print_summary(view: ReportView, out_dir: Path, *, quiet: bool, console: Console) -> None:
    """Print the summary tables and where the reports are to `console` (stderr in the CLI).

    With `quiet` nothing is printed.
    """
    if quiet:
        return
    summary = summary_dict(view)
    alerted = view.alert_counts()
    console.print(_verdict_table(summary, alerted))
    console.print(_register_table(summary))
    alert_line = _alert_line(alerted)
    if alert_line:
        console.print(alert_line)
    if summary["unchecked_reasons"]:
        reasons = ", ".join(
            f"{safe_text(k)} × {v}" for k, v in summary["unchecked_reasons"].items()
        )
        console.print(f"[blue]UNCHECKED[/] (not verdicts; re-run later): {reasons}")
    if summary["checklist_items"]:
        prios = ", ".join(f"{k}: {v}" for k, v in summary["by_priority"].items() if v)
        console.print(
            f"Checklist: {summary['checklist_items']} items pending human check ({prios})"
        )
    if summary["search"]:
        spent = ", ".join(
            f"{safe_text(u['index'])} {u['requests']} requests"
            + (f" + {u['free']} from snapshot/cache" if u["free"] else "")
            + f" (waited {u['waited_seconds']:.1f} s)"
            for u in summary["search"]
        )
        console.print(f"Title search: {spent}")
    if summary["offline"]:
        console.print("[dim]Offline run: only snapshots and the cache were consulted.[/]")
    _print_load_problems(summary["load_problems"], console)
    _print_written(view, out_dir, console)


def _print_written(view: ReportView, out_dir: Path, console: Console) -> None:
    """Where the reports are, which were written, and how to ask for the ones that were not."""
    choice = view.choice
    if choice.names == choices.SMALL_DEFAULT and not choice.large:
        files = "report.html, verdicts.csv, checklist.csv, …"  # every report: the usual line
    else:
        written = choice.files(duplicates=view.result.duplicates.num_rows > 0)
        files = ", ".join(written) if written else "no report files"
    console.print(f"Reports in [bold]{safe_text(out_dir)}[/] ({files})")
    ask = choice.ask_for_rest()
    if ask is None:
        return
    missing = ", ".join(choice.files(choice.left_out(), duplicates=False))
    why = f" (more than {choices.LISTED_ROWS:,} rows)" if choice.large and not choice.asked else ""
    console.print(f"Not written{why}: {missing}; ask with --report {ask}", highlight=False)


def _print_load_problems(problems: list[dict[str, Any]], console: Console) -> None:
    """What the loader saw, one line each, the first `SHOWN_PROBLEMS` (the rest: report.json)."""
    if not problems:
        return
    console.print(f"[bold]Loader[/]: {len(problems)} problem(s) in the inputs")
    for p in problems[:SHOWN_PROBLEMS]:
        where = f"{p['path']}:{p['line']}" if p["line"] else p["path"]
        style = "magenta" if p["severity"] == "error" else "yellow"
        console.print(
            f"  [{style}]{p['severity']}[/] {safe_text(where)}: {safe_text(p['message'])}",
            highlight=False,
        )
    if len(problems) > SHOWN_PROBLEMS:
        console.print(f"  … and {len(problems) - SHOWN_PROBLEMS} more in report.json")


class ConsoleSummary(ReportFormat):
    """The summary tables on `console` (stderr in the CLI); no file is written."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Print the summary of `view` and where its reports are."""
        print_summary(view, out_dir, quiet=False, console=self.console)
        return []


class JsonSummary(ReportFormat):
    """The summary as JSON on `stream` (`--json`, stdout): data for scripts."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `summary_dict(view)` as indented JSON and a newline."""
        text = json.dumps(summary_dict(view), indent=2, ensure_ascii=False)
        self.stream.write(json_for_terminal(text) + "\n")
        return []
