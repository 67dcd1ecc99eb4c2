"""How `--help` reads: value names people know, options grouped in panels, whole option names.

Typer shows each option's Python type as its value name (`<bool>`, `<list[str]>`, `<str>`);
`ReadableCommand` shows click's names instead (`TEXT`, `INTEGER`, a choice's values), none for a
flag, and sorts a long command's options into the panels of `PANELS` (Typer's
`rich_help_panel`); a piped `--help` is not cut at 80 columns. A renamed option's old name is
read as its new one (`renamed`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, get_args

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from auditor.commands.renamed import rewrite

__all__ = ["PANELS", "ReadableCommand", "ReadableGroup", "readable"]

#: Panel of each option (by parameter name) of a command with many options; a command with at
#: least `_GROUPED_FROM` options has every option in one of these (a test checks `audit`).
PANELS: dict[str, tuple[str, ...]] = {
    "Input": ("recursive", "input_format", "map_", "encoding", "config", "pipeline"),
    "Criteria": ("criteria", "pmid_leg", "doi_leg", "arxiv_leg", "journal_map"),
    # and every register's own flag, by its suffix (`_REGISTER_SUFFIXES`): no register named here
    "Registers": ("mailto", "batching"),
    "Network and cache": (
        "offline",
        "snapshots",
        "snapshot",
        "cache_dir",
        "refresh",
        "cache_ttl_days",
        "timeout",
        "max_retries",
        "retry_budget",
    ),
    "Output": ("out", "report", "quiet", "json_", "max_findings", "sign", "signing_key"),
    "CI": ("output_format", "junit", "fail_on", "fail_on_unchecked"),
    "Cluster": ("engine", "scheduler", "partition_rows", "workers", "threads"),
    "Service": (
        "host",
        "port",
        "precheck_interval",
        "precheck_daily",
        "caller_concurrency",
        "upload_max_bytes",
        "serve_tokens",
        "allow_host",
    ),
}
_PANEL_OF = {name: panel for panel, names in PANELS.items() for name in names}
_REGISTER_SUFFIXES = ("_url", "_rate", "_batch_size", "_api_key", "_email", "_concurrency")


def _panel(name: str | None) -> str | None:
    """The panel of the option called `name`, `None` when it has none."""
    if name is None:
        return None
    if name in _PANEL_OF:
        return _PANEL_OF[name]
    return "Registers" if name.endswith(_REGISTER_SUFFIXES) else None


_GROUPED_FROM = 20
#: Width of a piped `--help` (a terminal gets its own): wide enough for every option name.
_PIPED_WIDTH = 120


_NAMES = {str: "TEXT", int: "INTEGER", float: "NUMBER"}


def _value_name(param: TyperOption) -> str | None:
    """What the option takes, as click would name it (`TEXT`, `INTEGER`, `text|github`);
    `None` for a flag. A repeatable option names one value."""
    if param.is_flag:
        return None
    desc = param.type_descriptor
    if desc.is_choice:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices or ())
    if desc.is_path:
        return "PATH"
    kind = get_args(desc.annotation)[0] if desc.is_list else desc.annotation
    return _NAMES.get(kind, getattr(kind, "__name__", str(kind)).upper())


class _ReadableOption(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        return self.metavar if self.metavar is not None else _value_name(self)


class _ReadableArgument(TyperArgument):
    def display_type_rich(self, ctx: Any) -> str | None:
        # the argument's own name (`paths...`) and help say what it takes
        return None


class ReadableCommand(TyperCommand):
    """A Typer command whose `--help` shows readable value names and grouped options."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        options = [p for p in self.params if isinstance(p, TyperOption)]
        self._grouped = len(options) >= _GROUPED_FROM
        for param in self.params:
            if isinstance(param, TyperOption):
                param.__class__ = _ReadableOption
                if self._grouped and _panel(param.name):
                    param.rich_help_panel = _panel(param.name)
            elif isinstance(param, TyperArgument):
                param.__class__ = _ReadableArgument
        if self._grouped:
            # panels are shown in the order their first option appears: `PANELS`' order
            panel = {name: i for i, name in enumerate(PANELS)}
            self.params.sort(key=lambda p: panel.get(str(getattr(p, "rich_help_panel", "")), -1))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Click's parse, after a renamed option's old name became its new one (`renamed`)."""
        warn = partial(typer.echo, err=True)
        return list(super().parse_args(ctx, rewrite(str(self.name), args, warn)))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Typer's help, not cut at 80 columns when piped."""
        with _wide_when_piped():
            super().format_help(ctx, formatter)

    def get_help_option(self, ctx: Any) -> Any:
        """`--help`, shown like the others (last, in `Output` when options are grouped)."""
        option = super().get_help_option(ctx)
        if isinstance(option, TyperOption):
            option.__class__ = _ReadableOption
            if self._grouped:
                option.rich_help_panel = "Output"
        return option


class ReadableGroup(TyperGroup):
    """A command group (`auditor`, `auditor cache`): readable value names on its options."""

    def get_params(self, ctx: Any) -> list[Any]:
        """The group's options (completion ones included), shown without `<bool>`."""
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperOption):
                param.__class__ = _ReadableOption
        return params

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Typer's help, not cut at 80 columns when piped."""
        with _wide_when_piped():
            super().format_help(ctx, formatter)

    def get_help_option(self, ctx: Any) -> Any:
        """`--help` without a value name."""
        option = super().get_help_option(ctx)
        if isinstance(option, TyperOption):
            option.__class__ = _ReadableOption
        return option


def readable(app: typer.Typer) -> None:
    """Make every command of `app` (sub-apps included) a `ReadableCommand` (unless it names
    its own class) and every sub-app a `ReadableGroup`."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = ReadableCommand
    for group in app.registered_groups:
        # Typer keeps unset options as placeholders, so the class is set, not compared
        group.cls = ReadableGroup
        if group.typer_instance is not None:
            group.typer_instance.info.cls = ReadableGroup
            readable(group.typer_instance)


@contextmanager
def _wide_when_piped() -> Iterator[None]:
    """While help is printed: as wide as its option names need when stdout is a pipe (a CI log,
    `| less`), not Rich's 80-column guess. `TERMINAL_WIDTH` still wins and a terminal keeps its
    own width. Decided when help is printed, from the stdout of that moment."""
    if os.environ.get("TERMINAL_WIDTH") or sys.stdout.isatty():
        yield
        return
    import typer.rich_utils  # Rich's help formatter: about 70 ms, wanted only for help

    before = typer.rich_utils.MAX_WIDTH
    typer.rich_utils.MAX_WIDTH = _PIPED_WIDTH
    try:
        yield
    finally:
        typer.rich_utils.MAX_WIDTH = before
