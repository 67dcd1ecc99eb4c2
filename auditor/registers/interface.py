"""The register interface: one batch-first method that turns identifiers into record rows.

Each register (Crossref, PubMed, arXiv, the DOI system, Handle) is one module with one class
implementing `Register`. `fetch` answers *every* identifier it is given with one row in the
`RECORDS` schema (as a dict): a failure to look is a row with `status="unreachable"` and a
`reason`, never an exception and never `not_found`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from auditor.transport.net import Net

#: One row of the `RECORDS` table, as a dict (`tier` is set by the resolve stage).
RecordRow = dict[str, Any]


class Register(ABC):
    """A register that answers identifiers of one kind, in batches."""

    name: ClassVar[str]
    """Value of the `register` column for rows this register answers."""
    api_version: ClassVar[str]
    """Part of the cache key: bump it when the parsed shape changes."""

    @abstractmethod
    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """One row per distinct id in `ids`, keyed by that id; never raises `RegisterError`."""
