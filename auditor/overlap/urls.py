"""URL checks and normalization of the citation-overlap contract.

The contract (`x-agent-guide.constraints`): citation URLs are HTTPS, at most 2048 characters, with
no credentials, no whitespace and no malformed port; normalization lowercases the host, removes
the fragment and the default HTTPS port, and fills an empty path with `/`. Query strings stay
significant. Nothing else is rewritten (no dot-segment or percent-encoding folding), because the
contract names no other rule.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urljoin, urlsplit

__all__ = ["MAX_URL_CHARS", "normalize_url", "resolve_href", "url_problem"]

MAX_URL_CHARS = 2048
"""`citations[].url.maxLength` of the contract."""

# RFC 3986 characters (unreserved, gen-delims, sub-delims) plus `%` for escapes: `format: uri`.
_URI_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_PORT = re.compile(r"[0-9]*")
_DEFAULT_PORTS = {"https": 443, "http": 80}
# What `quote` may leave alone when making a resolved href a URI: everything RFC 3986 allows.
_SAFE = "-._~:/?#[]@!$&'()*+,;=%"


def _split_authority(netloc: str) -> tuple[str, str | None] | None:
    """`host[:port]` → (host, port text or None); None when the authority is malformed."""
    if netloc.startswith("["):
        end = netloc.find("]")
        if end < 0:
            return None
        host, rest = netloc[: end + 1], netloc[end + 1 :]
        if not rest:
            return host, None
        if not rest.startswith(":"):
            return None
        return host, rest[1:]
    host, sep, port = netloc.partition(":")
    return host, (port if sep else None)


def url_problem(url: object) -> str | None:
    """Why `url` is not a usable contract URL, or None when it is.

    Checks, in order: a string, length, the literal `https://` prefix (the schema's pattern is
    case-sensitive), whitespace and control characters, RFC 3986 characters and escapes,
    credentials, a host, and a port of digits in 0..65535 (an empty port means the default).
    """
    if not isinstance(url, str):
        return "must be a string"
    if len(url) > MAX_URL_CHARS:
        return f"must be at most {MAX_URL_CHARS} characters"
    if not url.startswith("https://"):
        return "must be an https:// URL"
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        return "must not contain whitespace or control characters"
    if not _URI_CHARS.fullmatch(url) or _BAD_ESCAPE.search(url):
        return "is not a valid URI"
    netloc = url[len("https://") :].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if "@" in netloc:
        return "must not contain credentials"
    parts = _split_authority(netloc)
    if parts is None:
        return "has a malformed host"
    host, port = parts
    if not host or host in ("[]",):
        return "must name a host"
    if port is not None and (not _PORT.fullmatch(port) or (port and int(port) > 65535)):
        return "has a malformed port"
    return None


def normalize_url(url: str) -> str:
    """The contract's normal form of an already valid `url` (see `url_problem`).

    Lowercases scheme and host, drops the fragment and the scheme's default port, and turns an
    empty path into `/`; the query is kept exactly. Also accepts `http://` URLs (default port 80)
    so the audit's duplicate finder can use the same rule; raises `ValueError` on a URL it cannot
    split.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    split = _split_authority(parts.netloc.rpartition("@")[2])
    if split is None:
        raise ValueError(f"malformed authority in {url!r}")
    host, port = split
    netloc = host.lower()
    if port:
        if not _PORT.fullmatch(port):
            raise ValueError(f"malformed port in {url!r}")
        if int(port) != _DEFAULT_PORTS.get(scheme):
            netloc += f":{int(port)}"
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{scheme}://{netloc}{path}{query}"


def resolve_href(href: str, base: str) -> str | None:
    """The normalized HTTPS target of an anchor's `href` in a page at `base`, or None to ignore it.

    Ignored (None): empty and fragment-only hrefs (links to the page itself), targets that are not
    HTTPS after resolving against `base`, and targets that fail `url_problem` (credentials, bad
    port, too long). As browsers do, surrounding whitespace is stripped and tabs/newlines inside
    are dropped; characters a URI may not hold are percent-encoded and an IDN host is punycoded.
    Self links are the caller's to drop, since "self" means the citation's normalized URL.
    """
    href = re.sub(r"[\t\n\r]", "", href.strip(" \t\n\r\f"))
    if not href or href.startswith("#"):
        return None
    try:
        joined = urljoin(base, href)
        parts = urlsplit(joined)
    except ValueError:
        return None
    if parts.scheme != "https":
        return None
    netloc = parts.netloc
    if not netloc.isascii():
        try:
            netloc = netloc.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    rest = joined[len("https://") + len(parts.netloc) :]
    target = f"https://{netloc}{quote(rest, safe=_SAFE)}"
    if url_problem(target) is not None:
        return None
    try:
        return normalize_url(target)
    except ValueError:
        return None
