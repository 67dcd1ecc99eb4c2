"""The register family: every registered register declares what the rest of the run reads."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from auditor.emulator.services import BASE_PATHS
from auditor.register_settings import flat_names
from auditor.registers import registry
from auditor.registers.interface import Register, SearchRegister
from auditor.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ALL: list[type[Register] | type[SearchRegister]] = [
    *registry.REGISTERS,
    *registry.SEARCH_REGISTERS,
]


def _registers_table() -> str:
    start = README.index("| register | request | batching | default pace |")
    return README[start : README.index("\n\n", start)]


@pytest.mark.parametrize("register", ALL, ids=lambda r: r.name)
def test_a_register_declares_its_base_url(register: type[Register]) -> None:
    host = register.host
    assert host.base_url(Settings()).startswith("https://"), register.name
    assert host.base_url(Settings()) == host.defaults.url.rstrip("/")
    # The emulator serves it: one of its flat URL names is an emulated service's base URL.
    names = {n for n, (h, f) in flat_names({host.name: host.defaults}).items() if f == "url"}
    assert names & set(BASE_PATHS), f"{register.name}: the emulator serves no base URL"


@pytest.mark.parametrize("register", ALL, ids=lambda r: r.name)
def test_a_register_declares_its_pace(register: type[Register]) -> None:
    host = register.host
    assert host.pace(Settings()) > 0
    assert host.slots(Settings()) >= 1


@pytest.mark.parametrize("register", ALL, ids=lambda r: r.name)
def test_a_register_s_settings_are_read_under_its_name(register: type[Register]) -> None:
    host = register.host
    moved = dataclasses.replace(host.defaults, url="https://mirror.example.org/", rate=0.5)
    settings = Settings(registers={host.name: moved})
    assert host.base_url(settings) == "https://mirror.example.org"
    assert host.own(settings) is moved


@pytest.mark.parametrize("register", ALL, ids=lambda r: r.name)
def test_a_register_has_its_docs_row(register: type[Register]) -> None:
    assert re.search(rf"^\| {re.escape(register.title)} \|", _registers_table(), re.M), (
        f"{register.name}: no row '| {register.title} |' in the README registers table"
    )


def test_names_are_unique_and_versions_declared() -> None:
    names = [r.name for r in ALL]
    assert len(names) == len(set(names))
    assert all(r.api_version for r in ALL)


def test_hosts_are_one_object_per_name() -> None:
    hosts = registry.hosts()
    assert set(hosts) == {r.host.name for r in ALL}
    assert all(hosts[r.host.name] is r.host for r in ALL)
    assert [h for h in hosts.values() if h.wants_mailto] == [hosts["crossref"]]


def test_settlers_are_registered() -> None:
    for register in registry.REGISTERS:
        if register.settled_by is not None:
            assert registry.named(register.settled_by)


@pytest.mark.parametrize(
    ("id_type", "identifier", "first", "asked"),
    [
        ("doi", "10.5555/a", "crossref", "10.5555/a"),
        ("doi", "10.48550/arxiv.1706.03762", "arxiv", "1706.03762"),
        ("pmid", "123", "pubmed", "123"),
        ("arxiv", "1706.03762", "arxiv", "1706.03762"),
    ],
)
def test_each_identifier_has_one_first_register(
    id_type: str, identifier: str, first: str, asked: str
) -> None:
    found = registry.first_for(id_type, identifier)
    assert found is not None
    assert (found[0].name, found[1]) == (first, asked)
    assert registry.first_for("isbn", "978-3-16-148410-0") is None
