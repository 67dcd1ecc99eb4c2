"""The redirect policy: which URLs a request may start at, hop through, and end at.

Trusted: any URL with the same scheme, host and port as a configured base URL (the user chose
it, including the loopback emulator). Otherwise the URL must be HTTPS, name an allowlisted host
exactly, carry no userinfo and no explicit port, and not be a bare IP address. The check runs on
the request, on every redirect hop before its body is read, and on the final URL.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit

from auditor.errors import Reason, UnsafeRedirect

#: Hosts reachable over HTTPS without being configured (chinese-literature-cases §redirects).
DEFAULT_ALLOWED_HOSTS: frozenset[str] = frozenset(
    {
        "doi.org",
        "hdl.handle.net",
        "eutils.ncbi.nlm.nih.gov",
        "api.crossref.org",
        "export.arxiv.org",
    }
)

REDIRECT_STATUSES: frozenset[int] = frozenset({301, 302, 303, 307, 308})


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """Scheme, host and the port *as written* (`None` when absent).

    Ports are compared as written, not normalized: a configured `https://doi.org` does not
    trust `https://doi.org:443` (chinese-literature-cases §redirects refuses explicit ports).
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


class RedirectPolicy:
    """Decides whether a URL is safe to request; `check` raises `UnsafeRedirect` when not."""

    def __init__(
        self,
        trusted_bases: Iterable[str],
        allowed_hosts: Iterable[str] = DEFAULT_ALLOWED_HOSTS,
    ) -> None:
        self._trusted = {o for o in (_origin(u) for u in trusted_bases) if o is not None}
        self._hosts = frozenset(h.lower() for h in allowed_hosts)

    def is_safe(self, url: str) -> bool:
        """Whether `url` may be requested or followed."""
        origin = _origin(url)
        if origin is None:
            return False
        parts = urlsplit(url)
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            return False
        if origin in self._trusted:
            return True
        scheme, host, _ = origin
        if scheme != "https":
            return False
        try:
            # Any explicit port, even :443, is refused (the allowlist names hosts, not ports).
            if parts.port is not None or parts.netloc.endswith(":"):
                return False
        except ValueError:
            return False
        try:
            ipaddress.ip_address(host.strip("[]"))
            return False
        except ValueError:
            pass
        return host in self._hosts

    def check(self, url: str) -> None:
        """Raise `UnsafeRedirect` (reason `unsafe_redirect`) unless `url` is safe."""
        if not self.is_safe(url):
            raise UnsafeRedirect(f"refused URL {url!r}", Reason.UNSAFE_REDIRECT)

    def next_hop(self, current: str, location: str | None) -> str:
        """The absolute URL a redirect points to, checked; a missing `Location` is refused."""
        if not location:
            raise UnsafeRedirect(
                f"redirect from {current!r} without Location", Reason.UNSAFE_REDIRECT
            )
        try:
            target = urljoin(current, location.strip())
        except ValueError:
            # `http://[::1` and other unparseable targets: refused like any unsafe hop.
            raise UnsafeRedirect(
                f"redirect from {current!r} to unparseable {location!r}", Reason.UNSAFE_REDIRECT
            ) from None
        self.check(target)
        return target
