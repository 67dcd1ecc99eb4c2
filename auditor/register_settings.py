"""Each register's own settings: `RegisterSettings`, and the flat names that reach its fields.

A register declares a frozen subclass of `RegisterSettings` with its defaults (base URL, pace and
whatever else it has: Crossref's batch size and concurrency). The run's `Settings.registers`
holds one per register host, by name, filled from `[registers.<name>]` in the config file
(`url = …`), from `AUDITOR_<NAME>_<FIELD>` (`AUDITOR_CROSSREF_URL`) and from the flat names
`<name>_<field>` (`crossref_url`, `--crossref-url`). An older flat name a user may rely on
(`eutils_url` for NCBI's `url`) is an alias the subclass lists. This module knows no register:
the callers of `load_settings` hand it the registers' defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class RegisterSettings:
    """What every register service has: a base URL and a pace."""

    url: str
    """Base URL; a configured one is trusted by the redirect policy."""
    rate: float
    """Requests per second (a host's `Host.rate` may turn it into the pace used)."""

    aliases: ClassVar[Mapping[str, str]] = {}
    """Older flat names still read (`eutils_url` → `url`), beside `<name>_<field>`."""
    rules: ClassVar[Mapping[str, str]] = {}
    """A field's value rule when not the one its name implies (`settings_check`: a `url` is an
    http(s) URL, a `rate`, `batch_size` or `concurrency` positive): `{"rate": "non_negative"}`."""

    def slots(self, default: int) -> int:
        """Requests in flight at once: the host's `default` unless the user may set it."""
        return default


def flat_names(registers: Mapping[str, RegisterSettings]) -> dict[str, tuple[str, str]]:
    """Every flat name (`crossref_url`, and aliases such as `eutils_url`) → (register, field)."""
    out: dict[str, tuple[str, str]] = {}
    for name, defaults in registers.items():
        for spec in fields(defaults):
            out[f"{name}_{spec.name}"] = (name, spec.name)
        for alias, field_name in defaults.aliases.items():
            out[alias] = (name, field_name)
    return out


def canonical(name: str, field_name: str) -> str:
    """The flat name of one register field (`crossref`, `url` → `crossref_url`)."""
    return f"{name}_{field_name}"


def apply(
    registers: Mapping[str, RegisterSettings], values: Mapping[str, Any]
) -> dict[str, RegisterSettings]:
    """`registers` with `values` (flat names → typed values) applied; `KeyError` for a name no
    register has."""
    names = flat_names(registers)
    changed: dict[str, dict[str, Any]] = {}
    for flat, value in values.items():
        register, field_name = names[flat]
        changed.setdefault(register, {})[field_name] = value
    return {
        name: dataclasses.replace(defaults, **changed.get(name, {}))
        for name, defaults in registers.items()
    }


def flat_rules(registers: Mapping[str, RegisterSettings]) -> dict[str, str]:
    """The rules registers name for their fields, by canonical flat name (`crossref_rate`)."""
    return {
        canonical(name, field_name): rule
        for name, defaults in registers.items()
        for field_name, rule in defaults.rules.items()
    }


def flat_values(registers: Mapping[str, RegisterSettings]) -> dict[str, Any]:
    """Every register field under its canonical flat name (`crossref_url` → its URL)."""
    return {
        canonical(name, spec.name): getattr(settings, spec.name)
        for name, settings in registers.items()
        for spec in fields(settings)
    }


__all__ = ["RegisterSettings", "apply", "canonical", "flat_names", "flat_rules", "flat_values"]
