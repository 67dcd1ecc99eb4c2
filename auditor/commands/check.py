"""`auditor check`: check one reference from the command line and print the field-by-field report.

The steps (record sources, the report's wording, the exit code) are in
`auditor.commands.check_steps`, imported when the command runs: `auditor --help` needs neither
pyarrow nor the registers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from auditor.commands.options import CHECK_FLAGS, given, settings_flags
from auditor.errors import ConfigError
from auditor.exitcodes import ExitCode
from auditor.report.terminal import json_for_terminal, printable
from auditor.settings import Settings, load_settings

__all__ = ["check", "register"]


@settings_flags(CHECK_FLAGS)
def check(
    title: Annotated[
        str | None,
        typer.Option("--title", help="The claimed title (without it, --id prints the record)."),
    ] = None,
    ident: Annotated[
        str | None,
        typer.Option("--id", help="DOI, PMID or arXiv id (without one: a title search)."),
    ] = None,
    id_type: Annotated[
        str | None, typer.Option("--type", help="Identifier type (doi, pmid, arxiv).")
    ] = None,
    author: Annotated[
        list[str] | None, typer.Option("--author", help="A claimed author; repeat in order.")
    ] = None,
    year: Annotated[int | None, typer.Option("--year", help="The claimed year.")] = None,
    venue: Annotated[
        str | None, typer.Option("--venue", help="The claimed journal or proceedings.")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="JSON object of register record fields to compare with."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    config: Annotated[str | None, typer.Option(help="Config file (auditor.toml shape).")] = None,
    **flags: Any,
) -> None:
    """Check one reference and print the field-by-field report under the chosen criteria.

    Without `--record`, the identifier is resolved as `auditor audit` would (snapshots, cache,
    then the live register; `--offline` stops before the network). Without `--id`, the reference
    is looked for by title in the indexes, as `auditor audit` does for a reference without one.
    With `--id` alone, the record is looked up and printed: what is this record?
    """
    from auditor.commands import check_steps as steps  # the comparison stack, only when run

    settings = _settings(config, flags)
    _refuse_usage(ident, title, record)
    if title is None:
        _print_record(steps, ident or "", id_type, record, settings, as_json)
    claimed = (title, list(author or []), year, venue)
    references = steps.claimed_reference(ident, id_type, claimed, settings)
    source = steps.load_record(record) if record is not None else None
    try:
        report = steps.check_reference(references, settings, source)
    except ValueError as exc:
        _usage(f"--record {record}: {exc}")
    _print(report, as_json, steps.render_text)
    raise typer.Exit(steps.exit_code(report["verdict"], report.get("updates")))


def _print_record(
    steps: Any, ident: str, id_type: str | None, record: Path | None, settings: Any, as_json: bool
) -> NoReturn:
    """`--id` alone: print the record the identifier resolves to, then exit (see
    `auditor.commands.check_record`)."""
    from auditor.commands.check_record import (
        lookable,
        lookup_exit_code,
        record_report,
        render_record,
    )

    source = steps.load_record(record) if record is not None else steps.resolver_source(settings)
    references = lookable(steps.reference_table(ident, id_type, None, [], None))
    report = record_report(references, source(references))
    _print(report, as_json, render_record)
    raise typer.Exit(lookup_exit_code(report))


def _print(report: dict[str, Any], as_json: bool, render: Callable[[Any], str]) -> None:
    """`report` as JSON, or in words by `render`, escaped for the terminal."""
    if as_json:
        typer.echo(json_for_terminal(json.dumps(report, indent=2, ensure_ascii=False)))
    else:
        typer.echo(printable(render(report)))


def _refuse_usage(ident: str | None, title: str | None, record: Path | None) -> None:
    """Stop (usage) on flags that ask for nothing a check can do."""
    if ident is None and record is not None:
        _usage("--record needs --id (without --id the title search finds the record)")
    if ident is None and title is None:
        _usage("give --id (what is this record?), --title, or both")


def _usage(message: str) -> NoReturn:
    """Stop with `message` on stderr and the usage exit code."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(ExitCode.USAGE)


def _settings(config: str | None, flags: dict[str, Any]) -> Settings:
    """The run's settings, or `typer.Exit` (usage) naming what is wrong with them."""
    from auditor.registers import registry

    try:
        return load_settings(given(flags), config=config, registers=registry.settings_defaults())
    except ConfigError as exc:
        _usage(str(exc))


def register(app: typer.Typer) -> None:
    """Add the `check` command to `app`."""
    app.command("check")(check)
