"""The one place that decides whether a failed request is retried, and after how long.

After lychee's `retry.rs`: retry what a later attempt can fix (429, 408, 5xx, timeouts, cut
connections), never what it cannot (other 4xx, decode errors, unsafe redirects). Backoff is
exponential with full jitter, capped; a `Retry-After` from the server overrides our backoff.
"""

from __future__ import annotations

import email.utils
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

#: First backoff step in seconds, and the cap on any single wait we choose ourselves.
BASE_DELAY = 0.5
MAX_DELAY = 30.0
#: A server asking us to wait longer than this is treated as "not now": the request fails at
#: once (`rate_limited` for a 429) instead of holding the run; shorter asks are honoured.
MAX_RETRY_AFTER = 30.0


@dataclass(frozen=True)
class Failure:
    """What went wrong with one attempt: an HTTP status, or a transport fault kind."""

    status: int | None = None
    """HTTP status when a response arrived."""
    fault: str | None = None
    """`timeout` or `connection` when no complete response arrived; `connect` when no
    connection could be opened at all (refused, no route, no such name)."""
    retry_after: float | None = None
    """Seconds the server asked us to wait (`Retry-After`), if it said."""


def is_retryable(failure: Failure) -> bool:
    """Whether another attempt may get an answer."""
    if failure.fault in {"timeout", "connection"}:
        # A slow or cut connection is transient by nature (resets, truncated bodies).
        return True
    if failure.fault == "connect":
        # Refused, no route, no such name: known at once and not fixed by asking again a second
        # later (lychee's retry.rs: no retry on connect errors). Without a network this is every
        # request, so retrying would only add backoff to a run that cannot succeed (#27).
        return False
    status = failure.status
    if status is None:
        return False
    if status == 429 or status == 408:
        # Rate limited or request timeout: the server asks us to come back later.
        return True
    # 5xx: the server failed, not our request; 501 (not implemented) will not change.
    return 500 <= status <= 599 and status != 501


def decide(
    failure: Failure,
    attempt: int,
    max_retries: int,
    *,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before attempt `attempt + 1`, or `None` to stop retrying.

    `attempt` counts from 0 (the first try). `Retry-After` wins over our backoff; without it the
    wait is full jitter in `[0.5, 1] × BASE_DELAY × 2**attempt`, capped at `MAX_DELAY`.
    """
    if attempt >= max_retries or not is_retryable(failure):
        return None
    if failure.retry_after is not None:
        if failure.retry_after > MAX_RETRY_AFTER:
            return None
        return max(0.0, failure.retry_after)
    backoff: float = min(MAX_DELAY, BASE_DELAY * float(2**attempt))
    # Half-jitter keeps a floor so a burst of clients does not retry at once nor too soon.
    return backoff * (0.5 + 0.5 * rand())


def parse_retry_after(
    headers: Mapping[str, str], now: Callable[[], float] = time.time
) -> float | None:
    """`Retry-After` in seconds (delta-seconds or HTTP date), `None` when absent or unreadable."""
    value = headers.get("retry-after") or headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - now())
