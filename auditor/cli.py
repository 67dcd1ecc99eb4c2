"""Command-line interface: parse flags, build `Settings`, dispatch, map the outcome to an exit code.

Each sub-command lives in its own module under `auditor.commands` and registers itself on `app`;
this module only assembles them and owns the exit codes.
"""

from __future__ import annotations

import importlib
import logging
import sys

import typer

from auditor import __version__
from auditor.exitcodes import ExitCode

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


#: Set by `--debug`: an unexpected error then shows its traceback instead of one line.
DEBUG = {"on": False}


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(
        False, "--debug", envvar="AUDITOR_DEBUG", help="Debug logging; tracebacks on errors."
    ),
) -> None:
    """Audit bibliographies against Crossref, PubMed, arXiv and the DOI system."""
    DEBUG["on"] = debug
    if debug:
        logging.getLogger("auditor").setLevel(logging.DEBUG)


for _name in COMMANDS:
    importlib.import_module(f"auditor.commands.{_name}").register(app)


def main() -> None:
    """Console-script entry point."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # The loaders report bibtexparser's complaints as problems with file and line; its own
    # log lines would only repeat them.
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    try:
        app()
    except Exception as exc:
        # Commands map every expected failure to an exit code; what reaches here is a bug or
        # an environment we did not foresee. One line, never a traceback, unless --debug.
        if DEBUG["on"]:
            raise
        from auditor.commands.errors import describe

        code = ExitCode.USAGE if isinstance(exc, OSError) else ExitCode.INTERNAL
        kind = "error" if code is ExitCode.USAGE else f"internal error ({type(exc).__name__})"
        sys.stderr.write(f"{kind}: {describe(exc)}\n(run with --debug for the traceback)\n")
        sys.exit(int(code))
