"""How the transport treats one register service: `Host` (URL, pace, concurrency, identification).

Each register declares its `Host` as data; the callers of `open_net` hand the run's hosts to the
transport, which therefore needs no register of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from auditor.register_settings import RegisterSettings

if TYPE_CHECKING:
    from auditor.settings import Settings


S = TypeVar("S", bound=RegisterSettings)


def _no_params(settings: Settings) -> Mapping[str, str]:
    return {}


def _as_set(rate: float, settings: Settings) -> float:
    return rate


@dataclass(frozen=True)
class Host(Generic[S]):
    """How the transport treats one register service: its URL, pace and identification."""

    name: str
    """Throttle key, the `register` name passed to `Net.get` (`ncbi` for all E-utilities), and
    the key of its settings in `Settings.registers` (`[registers.<name>]`)."""
    defaults: S
    """The service's own settings as they stand with nothing configured (its default URL and
    pace); their class is the register's settings dataclass."""
    concurrency: int = 4
    """Requests in flight at once (unless the settings let the user set it: `slots`)."""
    wants_mailto: bool = False
    """Whether requests carry `User-Agent: auditor/<v> (mailto:…)` (Crossref's etiquette)."""
    rate: Callable[[float, Settings], float] = _as_set
    """The pace actually used, from the setting's value (a default by mailto, a cap by key)."""
    identify: Callable[[Settings], Mapping[str, str]] = _no_params
    """Query parameters every request carries unless the caller set them (NCBI `tool`/`email`)."""
    rate_from_headers: Callable[[Mapping[str, str]], float | None] | None = None
    """The pace an answer's headers allow (lower-cased names), or `None` when they say nothing."""
    redirect_hosts: frozenset[str] = frozenset()
    """HTTPS hosts this service hands requests on to (doi.org's content negotiation sends each
    agency's DOIs to that agency's metadata host): the redirect policy allows them, by exact
    name, under its other rules (HTTPS, no port, no userinfo, no bare IP)."""

    def own(self, settings: Settings) -> S:
        """This service's settings for the run: `settings.registers[name]`, else `defaults`."""
        found = settings.registers.get(self.name)
        return found if isinstance(found, type(self.defaults)) else self.defaults

    def base_url(self, settings: Settings) -> str:
        """The configured base URL, without a trailing slash."""
        return self.own(settings).url.rstrip("/")

    def pace(self, settings: Settings) -> float:
        """Requests per second for this run."""
        return self.rate(float(self.own(settings).rate), settings)

    def slots(self, settings: Settings) -> int:
        """Requests in flight at once for this run."""
        return self.own(settings).slots(self.concurrency)


__all__ = ["Host"]
