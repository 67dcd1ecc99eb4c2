"""The record cache: definitive register answers, kept across runs with a time-to-live.

Only answers that a later look would repeat are stored (`found`, `not_found`, and a DOI that the
DOI system places at another agency, `not_covered` with `registered_with_*`); failures to look
are never cached, so a re-run re-asks them (lychee: "always recheck failing links"). Keys are
`(register, api_version, normalized id)`. A cache that cannot be opened, read or written costs
speed, not the run: one warning, then the run continues without it (pip-audit's
`_SafeFileCache`). Only register records are stored, never bibliography content.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import diskcache

from auditor.tables import RecordStatus

log = logging.getLogger("auditor.cache")

#: Statuses worth keeping: the register's own answer, not a failure to get one.
CACHEABLE: frozenset[str] = frozenset(
    {RecordStatus.FOUND, RecordStatus.NOT_FOUND, RecordStatus.NOT_COVERED}
)

_ERRORS = (OSError, sqlite3.Error, diskcache.Timeout, ValueError, TypeError, KeyError)


@dataclass(frozen=True)
class CacheStats:
    """What `auditor cache stats` shows."""

    path: str
    entries: int
    size_bytes: int
    by_register: dict[str, int]


def cache_key(register: str, api_version: str, identifier: str) -> str:
    """The cache key of one record."""
    return f"{register}|{api_version}|{identifier}"


class RecordCache:
    """A diskcache of record rows (dicts in the `RECORDS` schema, without `tier`)."""

    def __init__(
        self,
        cache: diskcache.Cache | None,
        path: str,
        *,
        ttl_days: float,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._cache = cache
        self.path = path
        """Folder of the cache on disk."""
        self.ttl = ttl_days * 86400.0
        self._now = now
        self._warned = False

    @classmethod
    def open(
        cls, path: str, *, ttl_days: float, now: Callable[[], float] = time.time
    ) -> RecordCache:
        """Open (or create) the cache at `path`; a broken cache gives a disabled one."""
        try:
            cache = diskcache.Cache(path)
        except _ERRORS as exc:
            log.warning("cache at %s unusable, continuing without it: %s", path, exc)
            return cls(None, path, ttl_days=ttl_days, now=now)
        return cls(cache, path, ttl_days=ttl_days, now=now)

    @property
    def usable(self) -> bool:
        """Whether the cache is working (a failure disables it for the rest of the run)."""
        return self._cache is not None

    def _fail(self, exc: BaseException) -> None:
        if not self._warned:
            log.warning("cache at %s failed, continuing without it: %s", self.path, exc)
            self._warned = True
        self._cache = None

    def get(self, register: str, api_version: str, identifier: str) -> dict[str, Any] | None:
        """The cached row, or `None` when absent, expired or unreadable."""
        if self._cache is None:
            return None
        try:
            entry = self._cache.get(cache_key(register, api_version, identifier))
        except _ERRORS as exc:
            self._fail(exc)
            return None
        if not isinstance(entry, dict) or "stored_at" not in entry or "row" not in entry:
            return None
        if self._now() - float(entry["stored_at"]) > self.ttl:
            return None
        row = entry["row"]
        return dict(row) if isinstance(row, dict) else None

    def put(self, register: str, api_version: str, identifier: str, row: dict[str, Any]) -> bool:
        """Store a definitive row; returns whether it was stored (failures are never stored)."""
        if self._cache is None or row.get("status") not in CACHEABLE:
            return False
        if row.get("status") == RecordStatus.NOT_COVERED and not str(
            row.get("reason") or ""
        ).startswith("registered_with_"):
            return False
        stored = {k: v for k, v in row.items() if k != "tier"}
        try:
            self._cache.set(
                cache_key(register, api_version, identifier),
                {"stored_at": self._now(), "row": stored},
                expire=self.ttl,
            )
        except _ERRORS as exc:
            self._fail(exc)
            return False
        return True

    def rows(self) -> Iterator[dict[str, Any]]:
        """Every unexpired cached row (for `export-snapshot`)."""
        if self._cache is None:
            return
        try:
            keys = list(self._cache.iterkeys())
        except _ERRORS as exc:
            self._fail(exc)
            return
        for key in keys:
            register, _, rest = str(key).partition("|")
            version, _, identifier = rest.partition("|")
            row = self.get(register, version, identifier)
            if row is not None:
                yield row

    def stats(self) -> CacheStats:
        """Entry count, size on disk and entries per register."""
        by_register: dict[str, int] = {}
        entries = size = 0
        if self._cache is not None:
            try:
                for key in self._cache.iterkeys():
                    entries += 1
                    register = str(key).partition("|")[0]
                    by_register[register] = by_register.get(register, 0) + 1
                size = int(self._cache.volume())
            except _ERRORS as exc:
                self._fail(exc)
        return CacheStats(self.path, entries, size, by_register)

    def clear(self) -> int:
        """Remove every entry; returns how many were removed."""
        if self._cache is None:
            return 0
        try:
            return int(self._cache.clear())
        except _ERRORS as exc:
            self._fail(exc)
            return 0

    def close(self) -> None:
        """Close the underlying files."""
        if self._cache is not None:
            with contextlib.suppress(*_ERRORS):
                self._cache.close()
