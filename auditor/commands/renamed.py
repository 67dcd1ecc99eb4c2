"""Renamed options keep working for one minor release (CHANGELOG.md: deprecate, then remove).

An old name is a hidden alias of the new option: it is rewritten to the new name before click
parses the command line, so it takes the same values and checks, `--help` never shows it, and a
warning on stderr names the new option and the release that drops the old one. The release after
that, its entry here is deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RENAMED", "Renamed", "rewrite"]


@dataclass(frozen=True)
class Renamed:
    """An old option name's new name and the first release without the old one."""

    new: str
    removed_in: str


#: Per command, each old option name still accepted (#27 renamed them in 0.3.0; #38 brought them
#: back as aliases for 0.4).
RENAMED: dict[str, dict[str, Renamed]] = {
    "audit": {"--format": Renamed("--output-format", "0.5.0")},
    "load": {"--format": Renamed("--input-format", "0.5.0")},
}


def rewrite(command: str, args: list[str], warn: Callable[[str], None]) -> list[str]:
    """`args` of `command` with every old option name (`--format x`, `--format=x`) replaced by
    its new one, `warn` called once per old name used; nothing after `--` is touched."""
    old = RENAMED.get(command, {})
    out: list[str] = []
    warned: set[str] = set()
    for index, arg in enumerate(args):
        if arg == "--":
            out.extend(args[index:])
            break
        name, equals, value = arg.partition("=")
        renamed = old.get(name)
        if renamed is not None:
            if name not in warned:
                warned.add(name)
                warn(
                    f"warning: {name} is deprecated and is removed in {renamed.removed_in}: "
                    f"use {renamed.new}"
                )
            arg = f"{renamed.new}{equals}{value}"
        out.append(arg)
    return out
