"""The Handle existence probe (`hdl.handle.net/api/handles/<doi>`), the CNKI branch's only step.

`responseCode` must be exactly the JSON integer 1 (exists) or 100 (absent); HTTP 404 is absent.
Any other code, a boolean, a float or a foreign `handle` echo raises `MalformedBody`. Existence
never becomes a match: CNKI serves HTML, which we refuse to scrape.
"""

from __future__ import annotations

from urllib.parse import quote

from auditor.chinese.lookups import Lookups, Reply, decode_json, malformed
from auditor.errors import Reason, Unreachable


def handle_url(base: str, doi: str) -> str:
    """`{base}/api/handles/{doi}`, the DOI percent-encoded (CR, LF, `?`, `#` cannot leak)."""
    return f"{base.rstrip('/')}/api/handles/{quote(doi, safe='/')}"


def read_handle_reply(reply: Reply, doi: str) -> bool:
    """True when the handle exists, False when absent; raise on anything else."""
    if reply.status == 404:
        return False
    if reply.status != 200:
        raise Unreachable(f"Handle API answered HTTP {reply.status}", Reason.HTTP_4XX)
    body = decode_json(reply, "Handle API")
    if not isinstance(body, dict):
        raise malformed("Handle API")
    echo = body.get("handle")
    if echo is not None and (not isinstance(echo, str) or echo.strip().lower() != doi.lower()):
        raise malformed("Handle API handle echo", Reason.WRONG_ECHO)
    code = body.get("responseCode")
    # `type(...) is int` so that `true` (a bool) and `100.0` (a float) are unknown states.
    if type(code) is int and code == 1:
        return True
    if type(code) is int and code == 100:
        return False
    raise malformed("Handle API responseCode")


async def handle_exists(lookups: Lookups, base: str, doi: str) -> bool:
    """One Handle probe for `doi` (memoized per run)."""
    reply = await lookups.get("handle", handle_url(base, doi))
    return read_handle_reply(reply, doi)
