"""`auditor load PATH...`: read bibliographies into the `references` table and summarise them.

The summary (rows, per-format counts, identifier types, rows with problems and each problem with
file and line) goes to stderr; with `--out` the table is written as Parquet, atomically.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, assert_never

import typer
from rich.console import Console
from rich.markup import escape

from auditor.errors import ConfigError, InputError
from auditor.exitcodes import ExitCode
from auditor.report.terminal import one_line

if TYPE_CHECKING:
    from auditor.load import LoadOutcome

__all__ = ["InputFormat", "load", "parse_map", "register", "summarize"]


class InputFormat(StrEnum):
    """Input formats `--input-format` can force (by default each file's content and extension
    decide)."""

    BIBTEX = "bibtex"
    RIS = "ris"
    WOS = "wos"
    WOS_TAB = "wos_tab"
    MEDLINE = "medline"
    ENDNOTE = "endnote"
    ENDNOTE_XML = "endnote_xml"
    CSL_JSON = "csl_json"
    CSV = "csv"


def _format_name(fmt: InputFormat | None) -> str | None:
    if fmt is None:
        return None
    if fmt is InputFormat.BIBTEX:
        return "bibtex"
    if fmt is InputFormat.RIS:
        return "ris"
    if fmt is InputFormat.WOS:
        return "wos"
    if fmt is InputFormat.WOS_TAB:
        return "wos_tab"
    if fmt is InputFormat.MEDLINE:
        return "medline"
    if fmt is InputFormat.ENDNOTE:
        return "endnote"
    if fmt is InputFormat.ENDNOTE_XML:
        return "endnote_xml"
    if fmt is InputFormat.CSL_JSON:
        return "csl_json"
    if fmt is InputFormat.CSV:
        return "csv"
    assert_never(fmt)


def parse_map(pairs: list[str]) -> dict[str, str]:
    """`--map title=Article Title` pairs → {field: column}; `ConfigError` on a malformed pair."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        name, sep, column = pair.partition("=")
        if not sep or not name.strip() or not column.strip():
            raise ConfigError(f"--map expects FIELD=COLUMN, got {pair!r}")
        mapping[name.strip().lower()] = column.strip()
    return mapping


def summarize(outcome: LoadOutcome, console: Console, *, max_problems: int = 50) -> None:
    """Print rows, per-format counts, identifier types, row states and problems to `console`."""
    t = outcome.table
    console.print(f"[bold]{t.num_rows}[/bold] references from {len(outcome.inputs)} file(s)")
    formats = Counter(f.format for f in outcome.inputs for _ in range(f.rows))
    console.print("formats: " + ", ".join(f"{k} {v}" for k, v in sorted(formats.items())))
    id_types = Counter(v or "none" for v in t.column("id_type").to_pylist())
    console.print("identifiers: " + ", ".join(f"{k} {v}" for k, v in sorted(id_types.items())))
    states = Counter(
        f"{s} ({r})"
        for s, r in zip(
            t.column("row_state").to_pylist(), t.column("row_reason").to_pylist(), strict=True
        )
        if s
    )
    if states:
        console.print("early states: " + ", ".join(f"{k} {v}" for k, v in sorted(states.items())))
    errors = sum(1 for v in t.column("parse_error").to_pylist() if v)
    flagged = sum(1 for w in t.column("warnings").to_pylist() if w)
    console.print(f"rows with problems: {errors} unparseable, {flagged} with warnings")
    if not outcome.problems:
        return
    # one `file:line: severity: message` line each, the form editors and CI logs link
    for p in outcome.problems[:max_problems]:
        where = f"{p.path}:{p.line}" if p.line else p.path
        colour = "red" if p.severity == "error" else "yellow"
        where, message = escape(one_line(where)), escape(one_line(p.message))
        console.print(f"{where}: [{colour}]{p.severity}[/{colour}]: {message}")
    if len(outcome.problems) > max_problems:
        console.print(f"… and {len(outcome.problems) - max_problems} more problems")


def load(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Bibliography files (.bib, .ris, .nbib, .enw, .csv, WoS .txt) or folders."
        ),
    ],
    recursive: Annotated[
        bool,
        typer.Option("--recursive", "-r", help="Load the bibliographies in folder arguments."),
    ] = False,
    out: Annotated[
        str | None, typer.Option(help="Write the references table here as Parquet.")
    ] = None,
    input_format: Annotated[
        InputFormat | None, typer.Option(help="Read every input as this format.")
    ] = None,
    encoding: Annotated[str | None, typer.Option(help="Input encoding (default: detect).")] = None,
    map_: Annotated[
        list[str] | None, typer.Option("--map", help="CSV column for a field: title=Col.")
    ] = None,
) -> None:
    """Load bibliographies into the references table and print what was found."""
    from auditor.commands.consoles import console
    from auditor.load import load_files  # pyarrow only when there is something to load
    from auditor.load.inputs import expand_paths

    err = console(stderr=True)
    try:
        outcome = load_files(
            expand_paths(paths, recursive=recursive),
            fmt=_format_name(input_format),
            encoding=encoding,
            csv_map=parse_map(map_ or []),
        )
    except (InputError, ConfigError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(ExitCode.USAGE) from exc
    summarize(outcome, err)
    if out:
        from auditor.files import atomic_write_parquet  # pyarrow.parquet only when writing

        atomic_write_parquet(Path(out), outcome.table)
        err.print(f"wrote {escape(out)}")


def register(app: typer.Typer) -> None:
    """Add `load` to the CLI."""
    app.command("load")(load)
