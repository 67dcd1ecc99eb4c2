"""The Rich consoles the commands print through.

A terminal gets Rich's own width. A pipe or a file (every CI log) gets lines that are never
wrapped or cut: Rich would otherwise assume 80 columns, break paths mid-word and truncate table
cells (`RESOLVES-AND-M…`), which makes a log neither readable nor grep-able (#27).
"""

from __future__ import annotations

import sys

from rich.console import Console

__all__ = ["console"]

# Wide enough for any path or cell; a table is only as wide as its content, so this never pads.
_UNWRAPPED = 100_000


def console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr) that wraps only on a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(stderr=stderr)
    return Console(stderr=stderr, soft_wrap=True, width=_UNWRAPPED)
