"""Every service the emulator answers for, in the order they are asked (one line each).

Adding a register's emulator: its module under `emulator/` with an `EmulatedService`
(`interface.py`), plus one line here.
"""

from __future__ import annotations

from auditor.emulator.arxiv import ArxivService
from auditor.emulator.crossref import CrossrefService
from auditor.emulator.datacite import DataciteService
from auditor.emulator.dblp import DblpService
from auditor.emulator.doi import CslService, DoiService
from auditor.emulator.eutils import EutilsService
from auditor.emulator.grobid import GrobidService
from auditor.emulator.handle import HandleService
from auditor.emulator.interface import EmulatedService
from auditor.emulator.openalex import OpenalexService
from auditor.emulator.s2 import S2Service

SERVICES: tuple[EmulatedService, ...] = (
    CrossrefService(),
    DataciteService(),
    EutilsService(),
    ArxivService(),
    DblpService(),
    S2Service(),
    OpenalexService(),
    DoiService(),
    CslService(),
    HandleService(),
    GrobidService(),
)

#: Endpoint names, the keys of the emulator's `counts`.
ENDPOINTS: tuple[str, ...] = tuple(e for service in SERVICES for e in service.endpoints)

#: The service (rate-limit and fault scope) of each endpoint.
SERVICE_OF: dict[str, str] = {
    **{e: service.name for service in SERVICES for e in service.endpoints},
    "unknown": "unknown",
}

#: `Settings` field → path prefix of the service its base URL points at.
BASE_PATHS: dict[str, str] = {
    s.url_setting: f"/{s.name}" for s in SERVICES if s.url_setting is not None
}

BY_NAME: dict[str, EmulatedService] = {service.name: service for service in SERVICES}

__all__ = ["BASE_PATHS", "BY_NAME", "ENDPOINTS", "SERVICES", "SERVICE_OF"]
