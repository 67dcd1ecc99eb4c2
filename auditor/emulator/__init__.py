"""Loopback register emulator: Crossref, E-utilities, arXiv, doi.org and Handle on 127.0.0.1.

Speaks the real wire formats from a `Corpus`, with configurable latency, rate limits (429 with
`Retry-After`, counted) and faults (`EmulatorConfig`), and counts requests per endpoint. Used by
tests and benchmarks; `auditor emulator serve` runs it from the command line.
"""

from __future__ import annotations

from auditor.emulator.config import FAULT_KINDS, PUBLISHED_LIMITS, SERVICES, EmulatorConfig
from auditor.emulator.corpus import Corpus
from auditor.emulator.server import Emulator, run_emulator, start_emulator

__all__ = [
    "FAULT_KINDS",
    "PUBLISHED_LIMITS",
    "SERVICES",
    "Corpus",
    "Emulator",
    "EmulatorConfig",
    "run_emulator",
    "start_emulator",
]
