"""`--help` reads well: value names people know, whole option names when piped, grouped options,
help text on every option, shell completion, and one flag name per meaning."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from auditor.cli import app
from auditor.commands.helptext import PANELS

#: Python type names Typer would print as value names.
_PYTHON_TYPES = re.compile(r"<(bool|str|int|float|list\[[^>]*\]|Path|int range|float range)>")


def _commands() -> list[tuple[list[str], Any]]:
    """Every command and sub-command with the words that run it."""
    root = typer.main.get_command(app)
    found: list[tuple[list[str], Any]] = [([], root)]
    stack: list[tuple[list[str], Any]] = [([], root)]
    while stack:
        words, command = stack.pop()
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                found.append(([*words, name], sub))
                stack.append(([*words, name], sub))
    return found


_ALL = _commands()
_IDS = [" ".join(words) or "auditor" for words, _ in _ALL]


def _help(words: list[str]) -> str:
    result = CliRunner().invoke(app, [*words, "--help"], env={})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("words", "command"), _ALL, ids=_IDS)
def test_no_python_type_names_and_whole_option_names(words: list[str], command: Any) -> None:
    text = _help(words)  # CliRunner is a pipe, as a CI log is
    assert not _PYTHON_TYPES.search(text), _PYTHON_TYPES.search(text)
    for param in command.params:
        for name in (*param.opts, *param.secondary_opts):
            if name.startswith("--"):
                assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (words, name)


@pytest.mark.parametrize(("words", "command"), _ALL, ids=_IDS)
def test_every_option_has_help_text(words: list[str], command: Any) -> None:
    for param in command.params:
        if param.param_type_name == "option":
            assert (param.help or "").strip(), (words, param.opts)


def test_audit_options_sit_in_panels_input_criteria_registers_network_output_ci() -> None:
    audit = typer.main.get_command(app).commands["audit"]  # type: ignore[attr-defined]
    options = [p for p in audit.params if p.param_type_name == "option"]
    audit_panels = [name for name in PANELS if name != "Service"]
    assert {getattr(p, "rich_help_panel", None) for p in options} == set(audit_panels)
    text = _help(["audit"])
    titles = [t for t in re.findall(r"╭─ ([A-Za-z ]+?) ─", text) if t in PANELS]
    assert titles == audit_panels  # in this order, each once


def test_shell_completion_is_offered() -> None:
    text = _help([])
    assert "--install-completion" in text and "--show-completion" in text


def test_one_flag_name_per_meaning() -> None:
    for words, command in _ALL:
        names = {n for p in command.params for n in (*p.opts, *p.secondary_opts)}
        assert "--format" not in names, words  # --input-format or --output-format
    assert "--input-format" in _help(["load"]) and "--output-format" in _help(["audit"])
