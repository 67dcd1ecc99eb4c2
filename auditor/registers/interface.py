"""The register family: what every register declares and the one or two methods it implements.

A register is one module with one class. It declares, as data, everything the rest of the run
needs to know about it (read by `registers/registry.py`, the transport and the resolve stage):

- `name`, `api_version` (the cache namespace), `title` (its row in the README registers table);
- `host`: the `Host` (`transport/host.py`) it talks to, which says how the transport treats
  that service: the `Settings` field holding its base URL, the field holding its pace, its
  concurrency, whether it receives the user's mailto `User-Agent`, the query parameters every
  request carries (NCBI's `tool`/`email`) and how its answers' headers lower the pace
  (Crossref's `X-Rate-Limit-*`).
  Several registers may share one host (all NCBI calls share one pace);
- `id_type`: the identifier type it is the first register for in the resolve stage (`None` for a
  register another register or stage calls, such as the DOI system or Handle).

A lookup register implements `Register.fetch` (identifiers in, one record row per identifier
out); a title-search register implements `SearchRegister.search` (title queries in, candidate
record rows out). Neither raises for a failure to look: that is a row with `status="unreachable"`
and a `reason` (lookup) or a `SearchAnswer` with a `reason` (search), never `not_found`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from auditor.errors import Reason
    from auditor.tables import IdType
    from auditor.transport.host import Host
    from auditor.transport.net import Net

#: One row of the `RECORDS` table, as a dict (`tier` is set by the resolve stage).
RecordRow = dict[str, Any]

#: Called with the rows of each finished batch, so answers are kept as they arrive (a run killed
#: half-way keeps what it already had).
Sink = Callable[[dict[str, RecordRow]], None]


class Register(ABC):
    """A register that answers identifiers of one kind, in batches."""

    name: ClassVar[str]
    """Value of the `register` column for rows this register answers."""
    api_version: ClassVar[str]
    """Part of the cache key: bump it when the parsed shape changes."""
    title: ClassVar[str]
    """The register's name in the README registers table (one row each)."""
    host: ClassVar[Host[Any]]
    """The service it talks to (see `Host`)."""
    id_type: ClassVar[IdType | None] = None
    """The identifier type this register answers first in the resolve stage, if any."""
    settled_by: ClassVar[str | None] = None
    """The register that settles the rows this one refers on (see `referred`)."""
    reads_agencies: ClassVar[frozenset[str]] = frozenset()
    """DOI registration agencies (doiRA's `RA`, lower-cased) whose DOIs this register reads: the
    resolve stage sends a DOI of a known agency straight to it (`registry.for_agency`)."""

    def __init__(self, sink: Sink | None = None) -> None:
        self.sink = sink
        """Receives each finished batch's rows (the resolve stage caches them at once)."""

    @classmethod
    def claim(cls, id_type: str, identifier: str) -> str | None:
        """The id as this register takes it, when it answers `(id_type, identifier)` first."""
        return identifier if cls.id_type is not None and id_type == cls.id_type else None

    def referred(self, row: RecordRow) -> bool:
        """Whether `row` is no answer but a referral to `settled_by` (Crossref's "not mine")."""
        return False

    @abstractmethod
    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """One row per distinct id in `ids`, keyed by that id; never raises `RegisterError`."""


@dataclass(frozen=True)
class TitleQuery:
    """What a title search asks: the claimed title, and first-author surname and year if known."""

    title: str
    surname: str | None = None
    year: int | None = None


@dataclass(frozen=True)
class SearchAnswer:
    """Candidates for one query (best first), or the failure to look (`reason` set)."""

    candidates: tuple[RecordRow, ...] = ()
    """`found` record rows the register returned; empty means the register found nothing."""
    reason: Reason | None = None
    """Set when the register could not be consulted: the query's state is `UNCHECKED`."""


class SearchRegister(ABC):
    """A register searched by title (Crossref `query.bibliographic`, DBLP, arXiv, …).

    Declares `name`, `api_version`, `title` and `host` like `Register`. An empty answer is the
    register's "found nothing" (state `NOT FOUND`), never `DOES-NOT-RESOLVE`.
    """

    name: ClassVar[str]
    api_version: ClassVar[str]
    title: ClassVar[str]
    host: ClassVar[Host[Any]]

    @abstractmethod
    async def search(
        self, queries: Sequence[TitleQuery], net: Net
    ) -> dict[TitleQuery, SearchAnswer]:
        """One answer per distinct query; never raises `RegisterError`."""
