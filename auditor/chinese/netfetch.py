"""Adapter from the run's transport (`auditor.transport.net.Net`) to the waterfall's `Fetch`.

The transport owns throttles (doi.org/Handle and NCBI on independent monotonic-clock throttles,
NCBI shared with the PubMed leg), retries, the body cap and the redirect policy. This adapter only
names the throttle of each request, asks for redirects to be followed under that policy, and hands
back status, body and final URL. Without a transport (or `--offline`), every request is a failure
to look with reason `offline`, so no row gets a verdict from a request that was never made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from auditor.chinese.lookups import Fetch, Reply
from auditor.errors import Reason, Unreachable
from auditor.settings import Settings


async def _offline(
    register: str,
    url: str,
    *,
    params: Mapping[str, str] | None = None,
    accept: str | None = None,
) -> Reply:
    raise Unreachable(f"{register}: offline, {url} not requested", Reason.OFFLINE)


def fetch_from_net(net: Any | None, settings: Settings) -> Fetch:
    """A `Fetch` over `net`; an always-`offline` one when `net` is `None` or the run is offline."""
    if net is None or settings.offline:
        return _offline

    async def fetch(
        register: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        accept: str | None = None,
    ) -> Reply:
        response = await net.get(
            register, url, params=dict(params or {}), accept=accept, follow_redirects=True
        )
        return Reply(
            status=int(response.status),
            body=bytes(response.body),
            url=str(response.url),
            content_type=response.headers.get("content-type"),
        )

    return fetch
