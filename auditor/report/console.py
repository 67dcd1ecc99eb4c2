"""The console summary after a run: counts per verdict and register, UNCHECKED reasons, outputs.

Only this module (and the CLI's progress bars) import `rich`; stages report through callbacks.
`summary_dict` is the same summary as plain data, printed by `--json` on stdout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from auditor import tables
from auditor.report.rows import totals
from auditor.report.terminal import one_line
from auditor.result import AuditResult

__all__ = ["print_summary", "summary_dict"]

#: Loader problems printed in the summary; all of them are in report.json and the HTML.
SHOWN_PROBLEMS = 20

_STYLE = {
    "RESOLVES-AND-MATCHES": "green",
    "RESOLVES-BUT-DIFFERS": "yellow",
    "DOES-NOT-RESOLVE": "bold red",
    "NOT COVERED": "dim",
    "UNCHECKED": "blue",
    "INVALID": "magenta",
}


def summary_dict(result: AuditResult) -> dict[str, Any]:
    """The run's totals (see `auditor.report.rows.totals`) with the criteria id and inputs."""
    run = result.run
    return {
        "criteria_id": run.criteria_id if run else tables.CRITERIA_ID,
        "inputs": [i.path for i in run.inputs] if run else [],
        "offline": run.offline if run else False,
        "tiers_used": list(run.tiers_used) if run else [],
        "load_problems": [
            {"path": p.path, "line": p.line, "severity": p.severity, "message": p.message}
            for p in (run.load_problems if run else ())
        ],
        **totals(result),
    }


def _safe(text: object) -> str:
    """Untrusted text (a path, a key, a message) as Rich markup that prints it literally."""
    return escape(one_line(str(text)))


def _verdict_table(summary: dict[str, Any]) -> Table:
    several = len(summary["by_file"]) > 1
    table = Table(title="Verdicts", title_justify="left", show_edge=False)
    table.add_column("verdict")
    if several:
        for f in summary["by_file"]:
            table.add_column(_safe(f["path"]), justify="right")
    table.add_column("total", justify="right")
    for name, n in summary["by_verdict"].items():
        per_file = (
            [str(f["by_verdict"].get(name, 0)) for f in summary["by_file"]] if several else []
        )
        table.add_row(f"[{_STYLE.get(name, '')}]{name}[/]", *per_file, str(n))
    return table


def _register_table(summary: dict[str, Any]) -> Table:
    table = Table(title="Registers", title_justify="left", show_edge=False)
    table.add_column("register")
    table.add_column("rows", justify="right")
    for name, n in summary["by_register"].items():
        table.add_row(_safe(name), str(n))
    return table


def print_summary(result: AuditResult, out_dir: Path, *, quiet: bool, console: Console) -> None:
    """Print the summary tables and where the reports are to `console` (stderr in the CLI).

    With `quiet` nothing is printed.
    """
    if quiet:
        return
    summary = summary_dict(result)
    console.print(_verdict_table(summary))
    console.print(_register_table(summary))
    if summary["unchecked_reasons"]:
        reasons = ", ".join(f"{_safe(k)} × {v}" for k, v in summary["unchecked_reasons"].items())
        console.print(f"[blue]UNCHECKED[/] (not verdicts; re-run later): {reasons}")
    if summary["checklist_items"]:
        prios = ", ".join(f"{k}: {v}" for k, v in summary["by_priority"].items() if v)
        console.print(
            f"Checklist: {summary['checklist_items']} items pending human check ({prios})"
        )
    if summary["offline"]:
        console.print("[dim]Offline run: only snapshots and the cache were consulted.[/]")
    _print_load_problems(summary["load_problems"], console)
    console.print(
        f"Reports in [bold]{_safe(out_dir)}[/] (report.html, verdicts.csv, checklist.csv, …)"
    )


def _print_load_problems(problems: list[dict[str, Any]], console: Console) -> None:
    """What the loader saw, one line each, the first `SHOWN_PROBLEMS` (the rest: report.json)."""
    if not problems:
        return
    console.print(f"[bold]Loader[/]: {len(problems)} problem(s) in the inputs")
    for p in problems[:SHOWN_PROBLEMS]:
        where = f"{p['path']}:{p['line']}" if p["line"] else p["path"]
        style = "magenta" if p["severity"] == "error" else "yellow"
        console.print(f"  [{style}]{p['severity']}[/] {_safe(where)}: {_safe(p['message'])}")
    if len(problems) > SHOWN_PROBLEMS:
        console.print(f"  … and {len(problems) - SHOWN_PROBLEMS} more in report.json")
