"""The reference documentation cannot drift from the code (after sqlite-utils' test_docs)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import fields
from pathlib import Path

import pytest
import typer
from typer.main import get_command

import auditor
from auditor.cli import COMMANDS, app
from auditor.policy import DEFAULT_FAIL_ON
from auditor.registers import registry
from auditor.settings import Settings, env_name, load_settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "auditor.example.toml"
SETTINGS = [f.name for f in fields(Settings) if f.name != "registers"]


@pytest.mark.parametrize("name", SETTINGS)
def test_every_setting_is_in_the_example_config(name: str) -> None:
    assert re.search(rf"^#?\s*{name}\s*=", EXAMPLE.read_text(encoding="utf-8"), re.M), name


@pytest.mark.parametrize("name", SETTINGS)
def test_every_setting_and_its_env_var_are_in_the_readme(name: str) -> None:
    assert f"`{name}`" in README
    assert f"`{env_name(name)}" in README


def test_the_example_config_loads_to_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    defaults = registry.settings_defaults()
    loaded = load_settings({}, config=str(EXAMPLE), environ={}, registers=defaults)
    plain = Settings()
    for name in SETTINGS:
        if name == "cache_dir":
            continue
        assert getattr(loaded, name) == getattr(plain, name) or (
            name == "fail_on" and loaded.fail_on == DEFAULT_FAIL_ON
        ), name
    arxiv = loaded.registers["arxiv"]
    assert abs(arxiv.rate - defaults["arxiv"].rate) < 1e-6
    assert dataclasses.replace(arxiv, rate=defaults["arxiv"].rate) == defaults["arxiv"]
    assert {n: r for n, r in loaded.registers.items() if n != "arxiv"} == {
        n: r for n, r in defaults.items() if n != "arxiv"
    }


def _flags(command: typer.Typer, name: str) -> list[str]:
    click_cmd = get_command(command).commands[name]  # type: ignore[attr-defined]
    return [opt for p in click_cmd.params for opt in p.opts if opt.startswith("--")]


def test_every_audit_flag_is_in_the_readme() -> None:
    for flag in _flags(app, "audit"):
        if flag == "--help":
            continue
        assert flag in README, flag


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_and_a_readme_entry(name: str) -> None:
    command = get_command(app).commands[name]  # type: ignore[attr-defined]
    assert (command.help or "").strip(), name
    assert f"`auditor {name}" in README, name


def test_readme_opens_with_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert blocks[0].startswith("pip install . && auditor audit sample_bibs/")
    assert "pytest" in blocks[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in blocks[1].split(" && "):
        assert command in ci, command


def test_public_names() -> None:
    assert auditor.__all__ == ["__version__"]


def test_version_flag_prints_the_package_version() -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"auditor {auditor.__version__}"
