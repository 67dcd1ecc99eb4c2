"""Helpers shared by the register modules: building rows, digests, and splitting failed batches."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from auditor.errors import MalformedBody, Reason, RegisterError
from auditor.record_check import check_row
from auditor.registers.interface import RecordRow, Sink
from auditor.tables import RecordStatus

#: After this many failed requests in a row (no success between), a register is taken as down:
#: its remaining ids become `unreachable` without more requests, so a dead service costs seconds,
#: not a split-tree of retries.
BREAKER_LIMIT = 6
#: A failing batch is split into this many parts.
SPLIT_WAYS = 4
#: Extra tries for a single id whose answer could not be parsed (batches are split instead).
BODY_RETRIES = 2


def json_text(value: object) -> str | None:
    """A JSON field as text: a non-blank string stripped, an integer (not a bool) written out;
    `None` for anything else (a register's numbers and strings come mixed)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def now_iso() -> str:
    """The current UTC time, ISO 8601 to the second: the as-of of a live answer."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def digest(body: bytes) -> str:
    """sha256 of a raw body, hex."""
    return hashlib.sha256(body).hexdigest()


def row(
    register: str,
    id_type: str,
    identifier: str,
    status: RecordStatus,
    reason: Reason | str | None = None,
    **fields: Any,
) -> RecordRow:
    """A record row with the identity columns set and `retrieved_at` now."""
    out: RecordRow = {
        "register": register,
        "id_type": id_type,
        "identifier": identifier,
        "status": str(status),
        "reason": str(reason) if reason is not None else None,
        "retrieved_at": now_iso(),
    }
    out.update(fields)
    # Checked here, inside the register's unit of work: a row Arrow would refuse costs only
    # its own id (`malformed_body`), never the table or the cache.
    check_row(out)
    return out


def failed(register: str, id_type: str, identifier: str, reason: Reason) -> RecordRow:
    """An `unreachable` row: the register could not be consulted for `identifier`."""
    return row(register, id_type, identifier, RecordStatus.UNREACHABLE, reason)


def http_reason(status: int) -> Reason:
    """The reason code of an HTTP status that is not an answer (never `not_found`)."""
    return Reason.HTTP_5XX if status >= 500 else Reason.HTTP_4XX


def chunks(ids: Sequence[str], size: int) -> list[list[str]]:
    """`ids` in consecutive slices of at most `size` (at least 1)."""
    size = max(1, size)
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]


class Breaker:
    """Counts consecutive failed requests of one register within one run."""

    def __init__(self, limit: int = BREAKER_LIMIT) -> None:
        self.limit = limit
        self.failures = 0
        self.reason: Reason | None = None

    @property
    def open(self) -> bool:
        """Whether the register is taken as down for the rest of the run."""
        return self.failures >= self.limit

    def success(self) -> None:
        """A request got an answer."""
        self.failures = 0

    def failure(self, reason: Reason) -> None:
        """A request failed after its retries."""
        self.failures += 1
        self.reason = reason


async def _fetch_once(
    ids: list[str], fetch_batch: Callable[[list[str]], Awaitable[dict[str, RecordRow]]]
) -> dict[str, RecordRow]:
    """`fetch_batch(ids)`; a single id whose body was unreadable is asked again.

    The transport retries what it can see (status, resets, timeouts); a truncated or garbled
    body with a matching `Content-Length` is only seen by the parser, and may be transient too.
    """
    for attempt in range(BODY_RETRIES + 1):
        try:
            return await fetch_batch(ids)
        except MalformedBody:
            if len(ids) > 1 or attempt == BODY_RETRIES:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


async def split_fetch(
    ids: list[str],
    fetch_batch: Callable[[list[str]], Awaitable[dict[str, RecordRow]]],
    on_fail: Callable[[str, Reason], RecordRow],
    breaker: Breaker,
) -> dict[str, RecordRow]:
    """Fetch `ids` as one batch; when it fails, split it in quarters down to single ids.

    One broken record then costs only its own row (`on_fail(id, reason)`), not its neighbours'.
    `fetch_batch` raises `RegisterError` for a batch it cannot answer as a whole.
    """
    if breaker.open:
        reason = breaker.reason or Reason.CONNECTION_ERROR
        return {i: on_fail(i, reason) for i in ids}
    try:
        result = await _fetch_once(ids, fetch_batch)
    except RegisterError as exc:
        refused_batch = len(ids) > 1 and exc.reason is Reason.HTTP_4XX
        if exc.reason is Reason.NO_CSL:
            breaker.success()  # the service answered: it has no CSL for this DOI
        elif exc.reason is not Reason.OFFLINE and not refused_batch:
            # A 4xx to a batch is a server that is up but will not take it (a filter it does
            # not support, a URL too long): its parts are asked next and the server not
            # counted as down. Anything else counts toward the breaker.
            breaker.failure(exc.reason)
        if len(ids) == 1 or exc.reason is Reason.OFFLINE:
            return {i: on_fail(i, exc.reason) for i in ids}
        # Quarters, asked concurrently (the throttle still paces them): a bad id is isolated
        # in log4(n) rounds, which matters when each round costs a timeout.
        size = -(-len(ids) // SPLIT_WAYS)
        parts = await asyncio.gather(
            *(
                split_fetch(ids[i : i + size], fetch_batch, on_fail, breaker)
                for i in range(0, len(ids), size)
            )
        )
        merged: dict[str, RecordRow] = {}
        for part in parts:
            merged.update(part)
        return merged
    breaker.success()
    return result


async def fetch_groups(
    register: str,
    groups: list[list[str]],
    fetch_batch: Callable[[list[str]], Awaitable[dict[str, RecordRow]]],
    on_fail: Callable[[str, Reason], RecordRow],
    breaker: Breaker,
    *,
    sink: Sink | None,
    report: Callable[[str, int, int], None],
) -> dict[str, RecordRow]:
    """Run every group through `split_fetch` concurrently (the throttle paces them).

    Each finished group goes to `sink` at once (so a killed run keeps it) and advances the
    progress `report(register, done, total)`.
    """
    total = sum(len(g) for g in groups)
    out: dict[str, RecordRow] = {}
    done = 0

    async def run(group: list[str]) -> None:
        nonlocal done
        answer = await split_fetch(group, fetch_batch, on_fail, breaker)
        out.update(answer)
        if sink is not None:
            sink(answer)
        done += len(group)
        report(register, done, total)

    await asyncio.gather(*(run(g) for g in groups))
    return out
