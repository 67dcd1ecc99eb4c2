"""What one register spans outside its tests: its module, one line in `registers/registry.py`,
its emulator module and one line in `emulator/services.py`. Everything else (settings, the
transport, the resolve stage, the README settings table, the example config) reads the registry.

A file "names" a register when it uses one of its classes (register, settings dataclass,
emulated service) or quotes one of its flat setting names (`"crossref_url"`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.emulator.services import SERVICES
from auditor.register_settings import flat_names
from auditor.registers import registry

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    p.relative_to(ROOT).as_posix(): p.read_text("utf-8") for p in ROOT.glob("auditor/**/*.py")
}
REGISTERS = [*registry.REGISTERS, *registry.SEARCH_REGISTERS]
REGISTRY = "auditor/registers/registry.py"

#: Files that name a register by choice, not by need: the CLI's flags for the registers users
#: point elsewhere most (`--crossref-url`, `--ncbi-rate`, …).
CHOSEN = {"auditor/commands/options.py", "auditor/commands/serve.py"}


def _span(name: str) -> set[str]:
    host = registry.hosts()[name]
    flat = flat_names({name: host.defaults})
    classes = [type(host.defaults), *(r for r in REGISTERS if r.host is host)]
    services = [type(s) for s in SERVICES if s.url_setting in flat]
    patterns = [rf"\b{c.__name__}\b" for c in [*classes, *services]]
    patterns += [rf"[\"']{re.escape(n)}[\"']" for n in flat]
    return {path for path, text in SOURCES.items() if any(re.search(p, text) for p in patterns)}


def _uses(name: str) -> set[str]:
    """Files that import one of the register's modules to call it (its callers, not its span)."""
    host = registry.hosts()[name]
    modules = {r.__module__ for r in REGISTERS if r.host is host}
    imports = [rf"^\s*from {re.escape(m)} import" for m in modules]
    own = {m.replace(".", "/") + ".py" for m in modules}
    return {
        path
        for path, text in SOURCES.items()
        if path not in own | {REGISTRY} and any(re.search(i, text, re.M) for i in imports)
    }


def _module_path(cls: type) -> str:
    return cls.__module__.replace(".", "/") + ".py"


@pytest.mark.parametrize("name", sorted(registry.hosts()))
def test_a_register_spans_its_module_a_registry_line_and_its_emulator(name: str) -> None:
    host = registry.hosts()[name]
    flat = flat_names({name: host.defaults})
    own = {_module_path(r) for r in REGISTERS if r.host is host}
    emulated = {_module_path(type(s)) for s in SERVICES if s.url_setting in flat}
    expected = own | emulated | {"auditor/registers/registry.py", "auditor/emulator/services.py"}
    assert _span(name) - _uses(name) - CHOSEN == expected
    # One register per module: a host with one register spans four files.
    assert len(expected) == len(own) + 3


@pytest.mark.parametrize("name", ["dblp", "s2"])
def test_a_register_without_flags_is_exactly_four_files(name: str) -> None:
    assert _span(name) == {
        f"auditor/registers/{name}.py",
        "auditor/registers/registry.py",
        f"auditor/emulator/{name}.py",
        "auditor/emulator/services.py",
    }
