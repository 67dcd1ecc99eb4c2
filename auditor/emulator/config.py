"""`EmulatorConfig`: latency, rate limits and faults of the loopback registers.

The running emulator reads its config on every request, so a test may change it between requests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Services, each one path prefix on the emulator and one rate-limit / fault scope.
SERVICES: tuple[str, ...] = (
    "crossref",
    "datacite",
    "eutils",
    "arxiv",
    "dblp",
    "s2",
    "openalex",
    "doi",
    "csl",
    "handle",
    "grobid",
)

#: Fault kinds a request can be given (per identifier in `faults`, or at `fault_rate`).
FAULT_KINDS: tuple[str, ...] = (
    "5xx",
    "timeout",
    "reset",
    "cut",
    "truncated",
    "malformed",
    "wrong_echo",
    "redirect_http",
    "redirect_ip",
    "429",
    "deep_json",
    "big_number",
    "lone_surrogate",
    "wrong_type",
    "redirect_garbage",
    "retry_after_long",
    "rate_crawl",
    "endless",
    "slow_body",
)

#: The limits the real registers publish (Crossref polite pool, NCBI without a key, arXiv API,
#: DBLP's "about one request a second", Semantic Scholar without a key).
PUBLISHED_LIMITS: dict[str, tuple[int, float]] = {
    "crossref": (10, 1.0),
    "datacite": (3000, 300.0),  # DataCite: 3,000 requests in 5 minutes per address
    "eutils": (3, 1.0),
    "arxiv": (1, 3.0),
    "dblp": (1, 1.0),
    "s2": (1, 1.0),
    "openalex": (10, 1.0),  # OpenAlex polite pool
}


@dataclass
class EmulatorConfig:
    """How the emulator misbehaves. All fields may be changed while it runs."""

    latency: float = 0.0
    """Seconds added before every answer (429s and faults included)."""
    rate_limits: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Service → (max requests, per seconds) in any sliding window; exceeding → 429."""
    rate_tolerance: float = 0.02
    """Seconds of arrival jitter forgiven by the rate limiter (a client pacing exactly at the
    limit sees its requests arrive a few milliseconds early or late)."""
    faults: dict[str, str] = field(default_factory=dict)
    """Identifier → fault kind, hitting every request that names it. A key `service:id`
    (e.g. `crossref:10.1/x`) limits the fault to that service."""
    fault_rate: float = 0.0
    """Probability that any request gets a transient fault (a retry can succeed)."""
    fault_kinds: tuple[str, ...] = ("5xx", "reset", "timeout")
    """Kinds the transient faults are drawn from."""
    seed: int = 0
    """Seed of the transient-fault draws (the same seed and request order, the same faults)."""
    down: set[str] = field(default_factory=set)
    """Services answering 503 to everything."""
    hang_seconds: float = 30.0
    """How long a `timeout` fault stalls before answering (clients should give up first)."""
    retry_after: int | None = None
    """Fixed `Retry-After` for 429s; None computes it from the rate-limit window."""

    def __post_init__(self) -> None:
        bad = {k for k in (*self.faults.values(), *self.fault_kinds) if k not in FAULT_KINDS}
        if bad:
            raise ValueError(f"unknown fault kinds {sorted(bad)}; known: {FAULT_KINDS}")
        unknown = (set(self.rate_limits) | set(self.down)) - set(SERVICES)
        if unknown:
            raise ValueError(f"unknown services {sorted(unknown)}; known: {SERVICES}")
