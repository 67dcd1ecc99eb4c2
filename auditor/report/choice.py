"""Which report files a run writes: the one registry of report writers, and the `report` setting.

`--report` (repeatable or a comma list; `report` in a config file or a pipeline profile) names
the reports a run writes, from `REPORTS`. Without it the set is sized to the run: a run of at
most `LISTED_ROWS` rows writes `SMALL_DEFAULT` (every file it always wrote); a larger one writes
`LARGE_DEFAULT`, without `verdicts.csv` (nobody opens a 500 MB CSV, and a spreadsheet stops at
1,048,576 rows). A large run's HTML is a summary page and its `report.json` the totals: a page or
a JSON list of a million rows helps nobody. The console names what was written and what was not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from auditor.errors import ConfigError

__all__ = [
    "LARGE_DEFAULT",
    "LISTED_ROWS",
    "REPORTS",
    "SMALL_DEFAULT",
    "Report",
    "ReportChoice",
    "choose_reports",
    "parse_reports",
]

#: Above this many rows a page or a JSON list of every row helps nobody (a million rows make a
#: page no browser opens): the tables carry every row, `report.json` the totals.
LISTED_ROWS = 50_000


@dataclass(frozen=True)
class Report:
    """One report a run can be asked for (its writers: `auditor.report.writers`)."""

    name: str
    """Its name in `--report`."""
    files: tuple[str, ...]
    """The files it writes (`duplicates.*` only when there are groups)."""


#: Every report a run can write, by `--report` name, in the order they are listed.
REPORTS: dict[str, Report] = {
    r.name: r
    for r in (
        Report("parquet", ("verdicts.parquet", "duplicates.parquet")),
        Report("csv", ("verdicts.csv", "duplicates.csv")),
        Report("checklist", ("checklist.parquet", "checklist.csv")),
        Report("html", ("report.html",)),
        Report("json", ("report.json",)),
        Report("junit", ("junit.xml",)),
        # the editor's screening view: one row per manuscript, and a folder of reports for each
        Report("submissions", ("submissions.parquet", "submissions.csv", "submissions.html")),
    )
}

#: What a run of at most `LISTED_ROWS` rows writes unless told otherwise.
SMALL_DEFAULT = ("parquet", "csv", "checklist", "html", "json")
#: What a larger run writes unless told otherwise: no `verdicts.csv`.
LARGE_DEFAULT = ("parquet", "checklist", "html", "json")


def parse_reports(values: Sequence[str]) -> tuple[str, ...]:
    """The report names in `values` (each a name or a comma list), in `REPORTS` order without
    repeats; `()` when none is named (the defaults apply). Raises `ConfigError` naming an unknown
    name and the known ones."""
    named = [n.strip().lower() for value in values for n in value.split(",") if n.strip()]
    unknown = [n for n in named if n not in REPORTS]
    if unknown:
        raise ConfigError(
            f"--report: unknown report {unknown[0]!r} (choose from {', '.join(REPORTS)})"
        )
    return tuple(n for n in REPORTS if n in named)


@dataclass(frozen=True)
class ReportChoice:
    """The reports one run writes."""

    names: tuple[str, ...]
    """Names in `REPORTS`, in its order."""
    large: bool
    """More than `LISTED_ROWS` rows: the page is a summary, `report.json` the totals."""
    asked: bool = False
    """Named by the user (`--report`), not a default."""
    fail_on: tuple[str, ...] = ()
    """The `--fail-on` list (JUnit marks those rows failed)."""

    def left_out(self) -> tuple[str, ...]:
        """The reports not written that a reader may want (JUnit is for CI, submissions for an
        editor's folder of manuscripts; never listed)."""
        return tuple(
            n for n in REPORTS if n not in self.names and n not in ("junit", "submissions")
        )

    def files(self, names: Sequence[str] | None = None, *, duplicates: bool = True) -> list[str]:
        """The files of the reports `names` (default: the chosen ones); `duplicates.*` only
        when the run has duplicate groups."""
        return [
            f
            for n in (self.names if names is None else names)
            for f in REPORTS[n].files
            if duplicates or not f.startswith("duplicates.")
        ]

    def row_files(self) -> tuple[str, ...]:
        """The written files that hold every verdict or checklist row."""
        rows = ("verdicts.parquet", "verdicts.csv", "checklist.parquet", "checklist.csv")
        return tuple(f for f in self.files(duplicates=False) if f in rows)

    def ask_for_rest(self) -> str | None:
        """The `--report` value that writes the chosen reports and the ones left out; `None`
        when nothing was left out."""
        rest = self.left_out()
        if not rest:
            return None
        return ",".join(n for n in REPORTS if n in self.names or n in rest)

    def row_list(self) -> str | None:
        """The written file that lists every row for a reader: the page of a small run, else
        `verdicts.csv`, `verdicts.parquet` or a small run's `report.json`; `None`: none."""
        if not self.large and "html" in self.names:
            return "report.html"
        for name, file in (("csv", "verdicts.csv"), ("parquet", "verdicts.parquet")):
            if name in self.names:
                return file
        return "report.json" if not self.large and "json" in self.names else None


def choose_reports(asked: Sequence[str], rows: int, fail_on: Sequence[str] = ()) -> ReportChoice:
    """The `ReportChoice` of a run of `rows` rows: the reports named in `asked` (the `report`
    setting; see `parse_reports`), else the defaults sized to the run. Raises `ConfigError` for
    an unknown name."""
    names = parse_reports(asked)
    large = rows > LISTED_ROWS
    default = LARGE_DEFAULT if large else SMALL_DEFAULT
    return ReportChoice(names or default, large, asked=bool(names), fail_on=tuple(fail_on))
