"""The record cache: definitive register answers, kept across runs with a time-to-live.

Only answers that a later look would repeat are stored (`found`, `not_found`, and a DOI that the
DOI system places at another agency, `not_covered` with `registered_with_*`); failures to look
are never cached, so a re-run re-asks them (lychee: "always recheck failing links"). Keys are
`(register, api_version, normalized id)`. A cache that cannot be opened, read or written costs
speed, not the run: one warning, then the run continues without it (pip-audit's
`_SafeFileCache`). Only register records are stored, never bibliography content.

The cache holds data, never code. CI jobs restore the folder between runs, so whoever can write
it must not be able to run anything in the next audit: keys are text and values JSON bytes
(`DataDisk`), and the read path refuses any row diskcache would unpickle or read from a file,
even one planted by hand. Each value is decoded with `safejson` and checked as a `RECORDS` row
(`validate.check_row`); an entry that fails is dropped with one warning and counts as a miss. The
folder is created owner-only (0700) and carries `SCHEMA_VERSION`: a cache of another version is
cleared on open.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import diskcache
from diskcache.core import MODE_RAW

from auditor.errors import MalformedBody
from auditor.record_check import is_valid
from auditor.tables import RecordStatus
from auditor.transport import safejson

log = logging.getLogger("auditor.cache")

#: Statuses worth keeping: the register's own answer, not a failure to get one.
CACHEABLE: frozenset[str] = frozenset(
    {RecordStatus.FOUND, RecordStatus.NOT_FOUND, RecordStatus.NOT_COVERED}
)

#: Version of what the cache stores; bump it when the stored shape changes. Version 1 was
#: diskcache's default (pickled values) and is cleared on sight.
SCHEMA_VERSION = 2

#: A stored value larger than this is refused on write and on read (records are ~1 KB).
MAX_VALUE_BYTES = 256 * 1024

_META_KEY = "auditor|schema"
#: What `DataDisk.get` returns for a key diskcache stored pickled: it matches no lookup.
_REFUSED_KEY = "\x00refused"

_ERRORS = (OSError, sqlite3.Error, diskcache.Timeout, ValueError, TypeError, KeyError)


class DataDisk(diskcache.Disk):  # type: ignore[misc]
    """A diskcache `Disk` of text keys and inline byte values: nothing is unpickled or opened.

    diskcache's own `Disk` unpickles any row whose mode says so and reads (or, when it culls,
    deletes) any file a row names; here such a row reads as refused and removes nothing.
    """

    def put(self, key: Any) -> tuple[Any, bool]:
        """Store a key as raw text (never pickled)."""
        if not isinstance(key, str):
            raise TypeError("cache keys are text")
        return key, True

    def get(self, key: Any, raw: bool) -> Any:
        """A stored key; one that is not raw text reads as `_REFUSED_KEY`, never unpickled."""
        return key if raw and isinstance(key, str) else _REFUSED_KEY

    def store(self, value: Any, read: bool, key: Any = None) -> tuple[int, int, None, Any]:
        """Store a value inline as bytes (never a file, never a pickle)."""
        if read or not isinstance(value, bytes | str):
            raise TypeError("cache values are bytes")
        data = value.encode("utf-8") if isinstance(value, str) else value
        if len(data) > MAX_VALUE_BYTES:
            raise ValueError(f"cache value of {len(data)} bytes over {MAX_VALUE_BYTES}")
        return 0, MODE_RAW, None, sqlite3.Binary(data)

    def fetch(self, mode: int, filename: Any, value: Any, read: bool) -> bytes:
        """The stored bytes; a pickled or file-backed row raises `ValueError` unread."""
        if read or mode != MODE_RAW or filename is not None:
            raise ValueError("refused cache row: not inline data (pickled or file-backed)")
        if isinstance(value, str):
            return value.encode("utf-8")
        if not isinstance(value, bytes | memoryview | bytearray):
            raise ValueError("refused cache row: not bytes")
        return bytes(value)

    def remove(self, file_path: Any) -> None:
        """Nothing to remove: `DataDisk` never writes files, and a planted path is ignored."""
        return None


def _make_private(path: str) -> None:
    """Create the cache folder owner-only (0700) when it does not exist yet."""
    folder = Path(path)
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
        # mkdir's mode passes through the umask; set it exactly.
        os.chmod(folder, 0o700)


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


def encode_entry(stored_at: float, row: dict[str, Any]) -> bytes:
    """The stored bytes of one row."""
    entry = {"schema": SCHEMA_VERSION, "stored_at": stored_at, "row": row}
    return json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8")


def decode_entry(data: bytes) -> tuple[float, dict[str, Any]]:
    """`(stored_at, row)` of stored bytes; raises `ValueError` unless they hold a valid row."""
    try:
        entry = safejson.loads(data, "cache entry", max_bytes=MAX_VALUE_BYTES)
    except MalformedBody as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(entry, dict) or entry.get("schema") != SCHEMA_VERSION:
        raise ValueError("cache entry of another schema")
    stored_at, row = entry.get("stored_at"), entry.get("row")
    if isinstance(stored_at, bool) or not isinstance(stored_at, int | float):
        raise ValueError("cache entry without a time")
    if not math.isfinite(stored_at) or not isinstance(row, dict) or not is_valid(row):
        raise ValueError("cache entry is not a record row")
    return float(stored_at), row


def _check_schema(cache: diskcache.Cache) -> None:
    """Clear a cache written under another `SCHEMA_VERSION` (or none) and stamp this one."""
    marker = json.dumps({"schema": SCHEMA_VERSION}).encode("utf-8")
    try:
        current = cache.get(_META_KEY)
    except ValueError:
        current = None
    if current == marker:
        return
    if len(cache):
        log.warning("cache at %s is of another version: cleared", cache.directory)
        cache.clear()
    cache.set(_META_KEY, marker)


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
        self.dropped = 0
        """Entries dropped this run because they did not read as records."""

    @classmethod
    def open(
        cls, path: str, *, ttl_days: float, now: Callable[[], float] = time.time
    ) -> RecordCache:
        """Open (or create) the cache at `path`; a broken cache gives a disabled one."""
        try:
            _make_private(path)
            cache = diskcache.Cache(path, disk=DataDisk)
            _check_schema(cache)
        except _ERRORS as exc:
            log.warning("cache at %s unusable, continuing without it: %s", path, exc)
            return cls(None, path, ttl_days=ttl_days, now=now)
        return cls(cache, path, ttl_days=ttl_days, now=now)

    @property
    def empty(self) -> bool:
        """Whether no lookup can hit: the cache holds no record (only its schema marker)."""
        if self._cache is None:
            return True
        try:
            return len(self._cache) <= 1
        except _ERRORS as exc:
            self._fail(exc)
            return True

    def _fail(self, exc: BaseException) -> None:
        if not self._warned:
            log.warning("cache at %s failed, continuing without it: %s", self.path, exc)
            self._warned = True
        self._cache = None

    def _drop(self, key: str, why: str) -> None:
        """Delete an entry that does not read as a record (one warning per run)."""
        if not self.dropped:
            log.warning("cache at %s: dropped an unreadable entry (%s)", self.path, why)
        self.dropped += 1
        if self._cache is not None:
            try:
                self._cache.delete(key)
            except _ERRORS as exc:
                self._fail(exc)

    def get(self, register: str, api_version: str, identifier: str) -> dict[str, Any] | None:
        """The cached row, or `None` when absent, expired or unreadable (then it is dropped)."""
        if self._cache is None:
            return None
        key = cache_key(register, api_version, identifier)
        try:
            data = self._cache.get(key)
        except ValueError as exc:
            self._drop(key, str(exc))
            return None
        except _ERRORS as exc:
            self._fail(exc)
            return None
        if data is None:
            return None
        try:
            stored_at, row = decode_entry(data)
        except ValueError as exc:
            self._drop(key, str(exc))
            return None
        age = self._now() - stored_at
        if age > self.ttl or age < -86400.0:
            # Expired, or stamped in the future (a planted entry that would never expire).
            return None
        return dict(row)

    def put(self, register: str, api_version: str, identifier: str, row: dict[str, Any]) -> bool:
        """Store a definitive row; returns whether it was stored (failures are never stored)."""
        if self._cache is None or row.get("status") not in CACHEABLE:
            return False
        if row.get("status") == RecordStatus.NOT_COVERED and not str(
            row.get("reason") or ""
        ).startswith("registered_with_"):
            return False
        stored = {k: v for k, v in row.items() if k != "tier"}
        if not is_valid(stored):
            # Never keep what could not be read back: the next run would trip on it.
            return False
        try:
            self._cache.set(
                cache_key(register, api_version, identifier),
                encode_entry(self._now(), stored),
                expire=self.ttl,
            )
        except _ERRORS as exc:
            self._fail(exc)
            return False
        return True

    def _keys(self) -> list[str]:
        """Every record key (not the schema marker, not refused keys)."""
        if self._cache is None:
            return []
        return [k for k in self._cache.iterkeys() if k not in (_META_KEY, _REFUSED_KEY)]

    def rows(self) -> Iterator[dict[str, Any]]:
        """Every unexpired readable cached row (for `export-snapshot`)."""
        try:
            keys = self._keys()
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
                for key in self._keys():
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
            removed = int(self._cache.clear())
            _check_schema(self._cache)
        except _ERRORS as exc:
            self._fail(exc)
            return 0
        return max(0, removed - 1)  # the schema marker was not an entry

    def close(self) -> None:
        """Close the underlying files."""
        if self._cache is not None:
            with contextlib.suppress(*_ERRORS):
                self._cache.close()
