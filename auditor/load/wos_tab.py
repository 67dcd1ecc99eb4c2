"""Web of Science tab-delimited loader (`savedrecs.txt` "Tab-delimited file"): one record a line.

The first line is a header of field tags (`PT\tAU\tBA\t…\tUT`, tag order and count vary by
export year), each later line one record with its values in those columns. Clarivate writes it
in UTF-8 or UTF-16LE with a BOM ("Windows" / "Mac" variants); most lines end with one extra tab.
The file name is the plain-text export's (`savedrecs.txt`), so the header decides, not the name.

Values are not quoted; name lists (`AU`, `AF`, `CA`, …) are separated by `; `. A cell that a
spreadsheet re-saved in quotes (`"A ""quoted"" word"`) is unquoted. Rows are read exactly as
the plain-text reader reads its records (`auditor.load.wos.add_wos_row`): `DI`, `PM`, `UT`, and
the rest. A line with more or fewer cells than the header is still a row, with a warning.
"""

from __future__ import annotations

import re
from typing import ClassVar

from auditor.load.interface import Loader, Problem, Rows
from auditor.load.wos import add_wos_row

__all__ = ["WosTabLoader", "looks_like_wos_tab"]
_NAME_TAGS = frozenset({"AU", "AF", "BA", "BF", "CA", "BE", "GP"})
_TAG_RE = re.compile(r"^[A-Z][A-Z0-9]$")


def _unquote(cell: str) -> str:
    """A cell a spreadsheet wrapped in quotes (inner quotes doubled) back to its value."""
    if len(cell) >= 2 and cell[0] == cell[-1] == '"' and '"' not in cell[1:-1].replace('""', ""):
        return cell[1:-1].replace('""', '"')
    return cell


def looks_like_wos_tab(head: str) -> bool:
    """Whether the first line of `head` is a tab-separated header of Web of Science field tags:
    five or more, every one a tag, among them `TI` and `PT` or `UT` (the column order varies
    by product and year; `PT` first is the usual)."""
    first = head.lstrip("\ufeff \r\n").split("\n", 1)[0].rstrip("\r")
    if "\t" not in first:
        return False
    tags = [c.strip() for c in first.split("\t")]
    while tags and not tags[-1]:
        tags.pop()
    return (
        len(tags) >= 5
        and all(_TAG_RE.match(t) for t in tags)
        and "TI" in tags
        and ("PT" in tags or "UT" in tags)
    )


class WosTabLoader(Loader):
    """Loads Web of Science "Tab-delimited file" exports: one row per line after the header."""

    format: ClassVar[str] = "wos_tab"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per non-blank line after the header, in file order; never raises."""
        rows, problems = Rows(), list[Problem]()
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        at = next((i for i, line in enumerate(lines) if line.strip("\ufeff \t")), None)
        if at is None:
            return rows, problems
        header = [c.strip("\ufeff \t") for c in lines[at].split("\t")]
        while header and not header[-1]:
            header.pop()
        odd = [c for c in header if not _TAG_RE.match(c)]
        if odd:
            problems.append(
                Problem(path, at + 1, f"header column {odd[0]!r} is not a field tag", "warning")
            )
        for number, line in enumerate(lines[at + 1 :], at + 2):
            if not line.strip():
                continue
            cells = [_unquote(c.strip()) for c in line.split("\t")]
            warnings: list[str] = []
            extra = cells[len(header) :]
            if any(extra) or len(cells) < len(header):
                warnings.append(f"{len(cells)} cells for {len(header)} header columns")
            tags: dict[str, list[str]] = {}
            for tag, cell in zip(header, cells, strict=False):
                if not cell:
                    continue
                values = [v.strip() for v in cell.split(";")] if tag in _NAME_TAGS else [cell]
                tags.setdefault(tag, []).extend(v for v in values if v)
            add_wos_row(rows, tags, number, warnings)
            problems.extend(Problem(path, number, w, "warning") for w in warnings)
        return rows, problems
