"""The one list of registers. The resolve stage, the transport and the docs test all read it.

Adding a register is one module behind `registers/interface.py` plus one line here (see
`docs/adding-a-register.md` for what the module must declare).
"""

from __future__ import annotations

from typing import Any

from auditor.register_settings import RegisterSettings
from auditor.registers.arxiv import ArxivRegister
from auditor.registers.arxiv_search import ArxivSearchRegister
from auditor.registers.crossref import CrossrefRegister
from auditor.registers.crossref_search import CrossrefSearchRegister
from auditor.registers.csl import CslRegister
from auditor.registers.datacite import DataciteRegister
from auditor.registers.dblp import DblpRegister
from auditor.registers.doi import DoiSystemRegister
from auditor.registers.handle import HandleRegister
from auditor.registers.interface import Register, SearchRegister
from auditor.registers.openalex import OpenalexRegister
from auditor.registers.openalex_search import OpenalexSearchRegister
from auditor.registers.pubmed import PubmedRegister
from auditor.registers.pubmed_search import PubmedSearchRegister
from auditor.registers.s2 import SemanticScholarRegister
from auditor.settings import Settings, settings_with
from auditor.transport.host import Host

#: Lookup registers. Order matters once: the first whose `claim` accepts an identifier answers
#: it first, so arXiv (which claims arXiv DOIs) comes before Crossref (which claims every DOI).
REGISTERS: tuple[type[Register], ...] = (
    ArxivRegister,
    CrossrefRegister,
    PubmedRegister,
    DoiSystemRegister,
    HandleRegister,
    DataciteRegister,
    CslRegister,
    OpenalexRegister,
)

#: The register asked for a DOI whose agency serves no metadata to compare (`resolve.py`).
SECOND_SOURCE = OpenalexRegister.name

#: Title-search registers (the title-search stage, `auditor/search/`, routes rows to them).
SEARCH_REGISTERS: tuple[type[SearchRegister], ...] = (
    CrossrefSearchRegister,
    OpenalexSearchRegister,
    DblpRegister,
    ArxivSearchRegister,
    SemanticScholarRegister,
    PubmedSearchRegister,
)


def hosts() -> dict[str, Host[Any]]:
    """Every host a register talks to, by name; registers sharing a host share one object."""
    out: dict[str, Host[Any]] = {}
    declared = [r.host for r in REGISTERS] + [r.host for r in SEARCH_REGISTERS]
    for host in declared:
        known = out.setdefault(host.name, host)
        if known is not host:
            raise AssertionError(f"two different hosts are named {known.name!r}")
    return out


def settings_defaults() -> dict[str, RegisterSettings]:
    """Each register host's own settings as they stand unconfigured, by host name: what
    `load_settings` reads `[registers.<name>]`, `AUDITOR_<NAME>_URL` and `<name>_url` into."""
    return {name: host.defaults for name, host in hosts().items()}


def settings(**values: Any) -> Settings:
    """A `Settings` from typed values, register flat names included (`crossref_url=…`)."""
    return settings_with(settings_defaults(), **values)


def named(name: str) -> type[Register]:
    """The lookup register called `name`; `KeyError` when there is none."""
    for register in REGISTERS:
        if register.name == name:
            return register
    raise KeyError(name)


def for_agency(agency: str | None) -> type[Register] | None:
    """The register that reads DOIs of `agency` (doiRA's spelling, any case), if any."""
    if not agency:
        return None
    key = agency.strip().lower()
    return next((r for r in REGISTERS if key in r.reads_agencies), None)


def first_for(id_type: str, identifier: str) -> tuple[type[Register], str] | None:
    """The register that answers `(id_type, identifier)` first, and the id as it takes it."""
    for register in REGISTERS:
        asked = register.claim(id_type, identifier)
        if asked is not None:
            return register, asked
    return None
