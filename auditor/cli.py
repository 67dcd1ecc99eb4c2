"""Command-line interface: parse flags, build `Settings`, dispatch, map the outcome to an exit code.

Each sub-command lives in its own module under `auditor.commands` and registers itself on `app`;
this module only assembles them and owns the exit codes.
"""

from __future__ import annotations

import importlib
import logging

import typer

from auditor import __version__

app = typer.Typer(
    name="auditor",
    help="Audit bibliographies: find references that do not exist, point at another work, "
    "or misstate their authors or year.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Sub-command modules, each with `register(app)`. A new command is one module plus one line here.
COMMANDS: tuple[str, ...] = (
    "audit",
    "fix",
    "load",
    "cache",
    "overlap",
    "criteria",
    "check",
    "emulator",
    "serve",
    "verify",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"auditor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Audit bibliographies against Crossref, PubMed, arXiv and the DOI system."""


for _name in COMMANDS:
    importlib.import_module(f"auditor.commands.{_name}").register(app)


def main() -> None:
    """Console-script entry point."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # The loaders report bibtexparser's complaints as problems with file and line; its own
    # log lines would only repeat them.
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    app()
