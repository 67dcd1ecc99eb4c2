"""The console summary after a run: counts per verdict and register, UNCHECKED reasons, outputs.

Only this module (and the CLI's progress bars) import `rich`; stages report through callbacks.
`summary_dict` is the same summary as plain data, printed by `--json` on stdout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from auditor import tables
from auditor.report.rows import totals
from auditor.result import AuditResult

__all__ = ["print_summary", "summary_dict"]

_STYLE = {
    "RESOLVES-AND-MATCHES": "green",
    "RESOLVES-BUT-DIFFERS": "yellow",
    "DOES-NOT-RESOLVE": "bold red",
    "NOT COVERED": "dim",
    "UNCHECKED": "blue",
    "INVALID": "magenta",
    "NOT FOUND": "bold red",
}


def summary_dict(result: AuditResult) -> dict[str, Any]:
    """The run's totals (see `auditor.report.rows.totals`) with the criteria id and inputs."""
    run = result.run
    return {
        "criteria_id": run.criteria_id if run else tables.CRITERIA_ID,
        "inputs": [i.path for i in run.inputs] if run else [],
        "offline": run.offline if run else False,
        "tiers_used": list(run.tiers_used) if run else [],
        **totals(result),
    }


def _verdict_table(summary: dict[str, Any]) -> Table:
    several = len(summary["by_file"]) > 1
    table = Table(title="Verdicts", title_justify="left", show_edge=False)
    table.add_column("verdict")
    if several:
        for f in summary["by_file"]:
            table.add_column(f["path"], justify="right")
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
        table.add_row(name, str(n))
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
        reasons = ", ".join(f"{k} × {v}" for k, v in summary["unchecked_reasons"].items())
        console.print(f"[blue]UNCHECKED[/] (not verdicts; re-run later): {reasons}")
    if summary["checklist_items"]:
        prios = ", ".join(f"{k}: {v}" for k, v in summary["by_priority"].items() if v)
        console.print(
            f"Checklist: {summary['checklist_items']} items pending human check ({prios})"
        )
    if summary["offline"]:
        console.print("[dim]Offline run: only snapshots and the cache were consulted.[/]")
    console.print(f"Reports in [bold]{out_dir}[/] (report.html, verdicts.csv, checklist.csv, …)")
