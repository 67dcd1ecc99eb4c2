"""The emulated-service family: one class per register service the emulator answers for.

Each service module (`crossref.py`, `eutils.py`, …) declares an `EmulatedService`: its `name`
(the path prefix `/<name>` and the rate-limit and fault scope), the `Settings` field whose base
URL points at it, the endpoints it counts, and `route`, which maps a request to one endpoint and
its answer. `services.py` lists them; `app.py` asks each in turn, so a new register's emulator is
its module plus one line there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from auditor.emulator.corpus import Corpus
from auditor.emulator.reply import Reply, text_reply


@dataclass(frozen=True)
class Asked:
    """One request as a service sees it."""

    path: str
    """The decoded path, prefix included (`/crossref/works/10.1/x`)."""
    params: Mapping[str, str]
    """Query parameters, and the form fields of a POST."""
    accept: str
    """The `Accept` header (`""` when absent)."""
    origin: str
    """`http://127.0.0.1:PORT`, for answers that redirect back to the emulator."""


@dataclass
class Routed:
    """A request resolved to its endpoint: the identifiers it names and how to answer it."""

    endpoint: str
    """One of some service's `endpoints`: the key of the emulator's `counts`."""
    identifiers: list[str]
    """What the request asks about (the fault plan's `wrong_echo` and targeted faults)."""
    answer: Callable[[set[str]], Reply]
    """The answer, given the identifiers whose echo the fault plan mangles."""


class EmulatedService(ABC):
    """One register service on loopback, under the path prefix `/<name>`."""

    name: ClassVar[str]
    """Path prefix (`/crossref`) and the scope of its rate limit, faults and `down` switch."""
    url_setting: ClassVar[str | None]
    """The `Settings` field set to `<origin>/<name>` to point a run here (`crossref_url`)."""
    endpoints: ClassVar[tuple[str, ...]]
    """The endpoints this service answers, each counted under its own name."""

    def rate_limited(self, limit: tuple[int, float] | None, retry_after: str) -> Reply:
        """The 429 this service gives over its rate limit (plain text unless overridden)."""
        return text_reply("Too Many Requests", 429, **{"Retry-After": retry_after})

    def rate_headers(self, limit: tuple[int, float] | None) -> dict[str, str]:
        """Headers every answer carries about the rate limit (none unless overridden)."""
        return {}

    @abstractmethod
    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """The endpoint and answer for `asked`, or `None` when it is none of this service's."""


__all__ = ["Asked", "EmulatedService", "Routed"]
