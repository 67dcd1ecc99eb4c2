"""What every route of one server process shares: settings, the one `Net`, lookups, keys."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
from aiohttp import web
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

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
    key: Ed25519PrivateKey
    """The signing key (`signing_key` setting)."""
    classify: Coalescer[dict[str, Any], pa.Table]
    """`references` row → classified one-row table, many requests per call."""
    compare: Coalescer[tuple[pa.Table, dict[str, Any], str], dict[str, Any]]
    """(classified reference, record, criteria) → the check report, many requests per call."""
    audits: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    """Uploaded audits run one at a time: their table stages are CPU work on the one loop."""


STATE = web.AppKey("state", ServeState)
