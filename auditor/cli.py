"""Command-line interface: parse flags, build `Settings`, dispatch, map the outcome to an exit code.

Each sub-command lives in its own module under `auditor.commands` and registers itself on `app`;
this module only assembles them and owns the exit codes.
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys

import typer

from auditor import __version__
from auditor.commands.helptext import ReadableGroup, readable
from auditor.exitcodes import ExitCode

#: Sub-command modules, each with `register(app)`. A new command is one module plus one line here.
COMMANDS: tuple[str, ...] = (
    "audit",
    "fix",
    "load",
    "cache",
    "snapshot",
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


def build_app(names: tuple[str, ...] = COMMANDS) -> typer.Typer:
    """The Typer app with the sub-commands `names` registered (all of them by default)."""
    built = typer.Typer(
        name="auditor",
        help="Audit bibliographies: find references that do not exist, point at another work, "
        "or misstate their authors or year.",
        no_args_is_help=True,
        add_completion=True,  # `auditor --install-completion` (bash, zsh, fish, PowerShell)
        pretty_exceptions_enable=False,
        cls=ReadableGroup,
    )
    built.callback()(_root)
    for name in names:
        importlib.import_module(f"auditor.commands.{name}").register(built)
    readable(built)
    return built


def _commands_for(argv: list[str]) -> tuple[str, ...]:
    """Only the command being run: `auditor load x.bib` need not import the comparison stack
    (pandas, aiohttp, duckdb: about half a second before any work). Anything else (`--help`, no
    command, an unknown one) gets every command, so help and error messages list them all."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return (first,) if first in COMMANDS else COMMANDS


def __getattr__(name: str) -> typer.Typer:
    # `auditor.cli.app` (tests, embedding) is the full app, built on first use
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(name)


def main() -> None:
    """Console-script entry point."""
    # Start-up (pyarrow, NumPy, Typer, our modules) makes a few hundred thousand objects that
    # live until exit; the cyclic collector would walk them again and again, and once more at
    # exit, for nothing (0.05 s of a 0.3 s start). So it is off while the app is built, what
    # exists then is frozen (kept out of collections, as the modules holding it are), and so is
    # everything left at exit.
    gc.disable()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app = build_app(_commands_for(sys.argv[1:]))
        gc.freeze()
        gc.enable()
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
    finally:
        gc.freeze()
        gc.enable()
