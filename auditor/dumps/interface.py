"""The dump reader interface: one `DumpReader` per register's public dump format.

A reader turns one dump file (opened, decompressed, as a binary stream) into register record
rows in the `RECORDS` shape, one at a time, so an import holds one record in memory, never the
dump. A record it cannot read is a `Skipped` (with where and why), never an exception: the
import goes on. Rows are built with `auditor.registers.records.row`, so an imported record passes
the same checks (`record_check.py`) as a live one.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from auditor.dumps.limits import ImportLimits
from auditor.registers.interface import RecordRow

__all__ = ["DumpReader", "Skipped"]


@dataclass(frozen=True)
class Skipped:
    """A record of the dump that did not become a row."""

    where: str
    """`file:line` or `file:record N`, for the user."""
    why: str
    """What was wrong with it."""


class DumpReader(abc.ABC):
    """Reads one register's public dump format."""

    kind: ClassVar[str]
    """The `KIND` of `auditor snapshot import KIND` (`crossref`, `pubmed`, …)."""

    limits: ImportLimits = ImportLimits()
    """What one file may cost (`auditor.dumps.limits`; the importer caps inflated bytes). A
    class default too, so a reader whose `__init__` does not call this one has the defaults."""

    def __init__(self, limits: ImportLimits | None = None) -> None:
        self.limits = limits or ImportLimits()

    @abc.abstractmethod
    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """Every record of the dump file `path` (read from `stream`), in file order."""
