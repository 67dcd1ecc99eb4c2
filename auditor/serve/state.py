"""What every route of one server process shares: settings, the one `Net`, lookups, keys."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
from aiohttp import web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from auditor.serve.clients import FairTurns, InFlight
from auditor.serve.coalesce import Coalescer
from auditor.serve.lookups import SharedLookups
from auditor.serve.pacing import PrecheckPacer
from auditor.settings import Settings
from auditor.transport.net import Net

__all__ = ["STATE", "ServeState"]


@dataclass
class ServeState:
    """The process-wide objects, made at start-up and closed at shutdown."""

    settings: Settings
    net: Net
    """One session, one throttle per register, one cache: every request shares their pace."""
    lookups: SharedLookups
    pacer: PrecheckPacer
    """`/precheck` allowance per client (`gates.client_key`: token name, else address)."""
    check_pacer: PrecheckPacer
    """`/check` allowance per client (`check_daily` a UTC day)."""
    in_flight: InFlight
    """Requests of one client waiting or running at once (`client_queue`)."""
    key: Ed25519PrivateKey
    """The signing key (`signing_key` setting)."""
    classify: Coalescer[dict[str, Any], pa.Table]
    """`references` row → classified one-row table, many requests per call."""
    compare: Coalescer[tuple[pa.Table, dict[str, Any], str], dict[str, Any]]
    """(classified reference, record, criteria) → the check report, many requests per call."""
    turns: FairTurns = field(default_factory=FairTurns)
    """Uploaded audits run one at a time, the turn passing from client to client."""


STATE = web.AppKey("state", ServeState)
