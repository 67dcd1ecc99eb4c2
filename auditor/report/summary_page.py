"""`report.html` of a run too large to list row by row: counts, urgent items, largest groups.

A page of a million rows is one no browser opens, so a run of more than `LISTED_ROWS` rows gets
this summary instead: the counts by verdict, register and file, the checklist's P0 and P1 items
(the first `SHOWN_ITEMS`), and the `SHOWN_GROUPS` largest duplicate groups; it names the files
that hold every row and how to ask for the ones not written. Same head, styles and escaping as
the full page (`auditor.report.html`); no script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor.report.choice import REPORTS
from auditor.report.html import TEMPLATES, checklist_item, summary_context
from auditor.report.interface import ReportFormat, atomic_write_text
from auditor.report.view import ReportView

__all__ = ["SHOWN_FILES", "SHOWN_GROUPS", "SHOWN_ITEMS", "HtmlSummaryReport", "render_summary"]

#: P0/P1 checklist items listed on the page (the rest: `checklist.parquet`/`.csv`).
SHOWN_ITEMS = 500
#: Duplicate groups listed, largest first.
SHOWN_GROUPS = 20
#: Keys listed per group.
SHOWN_KEYS = 12
#: Input files listed with their counts, most rows first.
SHOWN_FILES = 200

_URGENT = ("P0", "P1")


def _urgent(checklist: pa.Table) -> tuple[list[dict[str, Any]], int]:
    """The first `SHOWN_ITEMS` P0/P1 items (checklist order: priority first) and their count."""
    urgent = checklist.filter(pc.is_in(checklist["priority"], pa.array(_URGENT)))
    shown = urgent.slice(0, SHOWN_ITEMS).to_pylist()
    return [checklist_item(item) for item in shown], urgent.num_rows


def _largest_groups(duplicates: pa.Table) -> list[dict[str, Any]]:
    """The `SHOWN_GROUPS` largest duplicate groups (ties: lower id first), each with its size,
    what its members share and its first `SHOWN_KEYS` keys."""
    if duplicates.num_rows == 0:
        return []
    sizes = duplicates.group_by("group_id").aggregate([("row_id", "count")])
    top = sizes.sort_by([("row_id_count", "descending"), ("group_id", "ascending")])
    top = top.slice(0, SHOWN_GROUPS)
    members = duplicates.filter(pc.is_in(duplicates["group_id"], top["group_id"]))
    by_group: dict[int, list[dict[str, Any]]] = {}
    for dup in members.to_pylist():
        by_group.setdefault(dup["group_id"], []).append(dup)
    groups = []
    for gid, size in zip(top["group_id"].to_pylist(), top["row_id_count"].to_pylist(), strict=True):
        rows = by_group[gid]
        groups.append(
            {
                "group_id": gid,
                "size": size,
                "basis": rows[0]["basis"],
                "value": rows[0]["value"] or "",
                "members": [r["key"] or f"row {r['row_id']}" for r in rows[:SHOWN_KEYS]],
                "more": max(0, size - SHOWN_KEYS),
            }
        )
    return groups


def _context(view: ReportView) -> dict[str, Any]:
    choice = view.choice
    items, urgent = _urgent(view.result.checklist)
    files = sorted(view.totals["by_file"], key=lambda f: -f["rows"])
    left_out = [f"{', '.join(REPORTS[n].files)} (--report {n})" for n in choice.left_out()]
    return {
        **summary_context(view),
        "files": files[:SHOWN_FILES],
        "files_more": max(0, len(files) - SHOWN_FILES),
        "urgent": items,
        "urgent_count": urgent,
        "groups": _largest_groups(view.result.duplicates),
        "row_files": list(choice.row_files()),
        "left_out": left_out,
    }


def render_summary(view: ReportView) -> str:
    """The summary page of `view` as text."""
    return TEMPLATES.get_template("summary.html.j2").render(**_context(view))


class HtmlSummaryReport(ReportFormat):
    """Writes the summary `report.html` of a large run."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `report.html` atomically."""
        return [atomic_write_text(out_dir / "report.html", render_summary(view))]
