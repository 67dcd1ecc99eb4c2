"""How a command reports an error it cannot work around: one escaped line, then exit 2.

Every message goes through `describe`, which names the path of an `OSError` (an unwritable
`--out`, `--junit` naming a folder) and strips terminal control characters, and through Rich's
`escape`, so a path like `reports/[/tmp]` is printed, not parsed as markup.
"""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from auditor.exitcodes import ExitCode
from auditor.report.terminal import one_line

__all__ = ["describe", "fail"]


def describe(exc: BaseException, target: str | None = None) -> str:
    """A one-line, terminal-safe description of `exc`; an `OSError` names `target` and its path."""
    if isinstance(exc, OSError) and exc.strerror:
        # The setting the user gave (`--junit x`) names the place best; else the failing path.
        where = target or exc.filename
        text = f"cannot write {where}: {exc.strerror}" if where else exc.strerror
    else:
        text = str(exc) or type(exc).__name__
    return one_line(text)


def fail(
    console: Console,
    exc: BaseException,
    *,
    target: str | None = None,
    code: ExitCode = ExitCode.USAGE,
) -> NoReturn:
    """Print `error: …` for `exc` (writing `target`, if given) and exit with `code` (2)."""
    text = escape(describe(exc, target))
    console.print(f"[bold red]error:[/] {text}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)
