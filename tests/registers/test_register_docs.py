"""The README's register settings table and the example TOML's `[registers.<name>]` sections are
checked from the registry: a register's settings dataclass is their one source."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from auditor.commands.options import AUDIT_FLAGS
from auditor.register_settings import canonical
from auditor.registers import registry
from auditor.settings import env_name

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
START, END = "<!-- register settings: start -->", "<!-- register settings: end -->"


def _default(value: Any) -> str:
    return f"`{value}`" if isinstance(value, str) else f"{value:g}"


def register_settings_table() -> str:
    """The README table, one row per field of each register host's settings dataclass."""
    flags = {flag.name for flag in AUDIT_FLAGS}
    rows = [
        "| `[registers.<name>]` key | flat name (config, `--flag`) | environment | default |",
        "| --- | --- | --- | --- |",
    ]
    for name, defaults in registry.settings_defaults().items():
        aliases = {
            f: [a for a, t in defaults.aliases.items() if t == f] for f in defaults.aliases.values()
        }
        for spec in fields(defaults):
            names = [canonical(name, spec.name), *aliases.get(spec.name, [])]
            flat = ", ".join(
                f"`{n}`" + (f" `--{n.replace('_', '-')}`" if n in flags else "") for n in names
            )
            env = ", ".join(f"`{env_name(n)}`" for n in names)
            value = _default(getattr(defaults, spec.name))
            rows.append(f"| `[registers.{name}]` `{spec.name}` | {flat} | {env} | {value} |")
    return "\n".join(rows)


def test_the_readme_register_settings_table_is_the_registry_s(update_golden: bool) -> None:
    # Generated: `pytest --update-golden` writes it, so a new register never edits the README
    # settings table by hand.
    head, end = README.index(START) + len(START), README.index(END)
    expected = register_settings_table()
    if update_golden:
        text = f"{README[:head]}\n{expected}\n{README[end:]}"
        (ROOT / "README.md").write_text(text, encoding="utf-8")
        return
    assert README[head:end].strip() == expected, "run `pytest --update-golden` to rewrite it"


def test_the_example_config_has_every_register_setting_at_its_default() -> None:
    example = tomllib.loads((ROOT / "auditor.example.toml").read_text(encoding="utf-8"))
    sections = example["registers"]
    for name, defaults in registry.settings_defaults().items():
        written = dict(sections[name])
        expected = {spec.name: getattr(defaults, spec.name) for spec in fields(defaults)}
        assert written.keys() == expected.keys(), name
        for key, value in expected.items():
            assert (
                abs(written[key] - value) < 1e-6
                if isinstance(value, float)
                else (written[key] == value)
            ), (name, key)
