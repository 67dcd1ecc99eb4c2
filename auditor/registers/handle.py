"""Handle: `GET api/handles/{doi}`, the DOI system's own word on whether a DOI exists.

`responseCode` 1 with the handle echoed means the DOI exists (the row is `not_covered`: the Handle
record carries no bibliographic metadata to compare); HTTP 404 with `responseCode` 100 means it
does not (`not_found`). `responseCode` must be exactly a JSON integer (`true` and `1.0` are not
codes) and an echoed `handle` must name the asked DOI. Anything else, including a 404 whose body is
not that JSON (an error page from a proxy or a CDN), is a failure to look. The resolve stage and the
Chinese waterfall both read Handle through this module.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.register_settings import RegisterSettings
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import Breaker, digest, failed, http_reason, row, split_fetch
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response


@dataclass(frozen=True)
class HandleSettings(RegisterSettings):
    """The Handle proxy API's settings (`[registers.handle]`, `handle_url`, `handle_rate`)."""

    url: str = "https://hdl.handle.net"
    rate: float = 5.0


HANDLE = Host(name="handle", defaults=HandleSettings(), concurrency=4)

#: A Handle answer is a few kilobytes; anything past this is not one.
MAX_BYTES = 2 * 1024 * 1024


def handle_url(base: str, doi: str) -> str:
    """`{base}/api/handles/{doi}`, the DOI percent-encoded (CR, LF, `?`, `#` cannot leak)."""
    return f"{base.rstrip('/')}/api/handles/{quote(doi, safe='/')}"


def parse_handle(doi: str, response: Response) -> RecordRow:
    """The row of a Handle API answer for `doi`; raises `RegisterError` when it is not one."""
    if response.status not in (200, 404):
        reason = http_reason(response.status)
        raise Unreachable(f"handle: HTTP {response.status} for {doi}", reason)
    data = response.json(MAX_BYTES)
    if not isinstance(data, Mapping):
        raise MalformedBody("handle: answer is not an object", Reason.MALFORMED_BODY)
    code = data.get("responseCode")
    echoed = data.get("handle")
    if echoed is not None and (
        not isinstance(echoed, str) or echoed.strip().lower() != doi.lower()
    ):
        raise MalformedBody(f"handle: asked {doi!r}, got {echoed!r}", Reason.WRONG_ECHO)
    body_digest = digest(response.body)
    # `type(...) is int`: a JSON `true` (a bool) or `100.0` (a float) is an unknown state.
    exact = code if type(code) is int else None
    if response.status == 404 and exact == 100:
        return row(
            HandleRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_FOUND,
            Reason.NOT_FOUND,
            body_digest=body_digest,
        )
    if response.status == 200 and exact == 1 and echoed is not None:
        return row(
            HandleRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_COVERED,
            Reason.REGISTERED_WITH_OTHER,
            body_digest=body_digest,
        )
    raise MalformedBody(
        f"handle: responseCode {code!r} with HTTP {response.status}", Reason.MALFORMED_BODY
    )


class HandleRegister(Register):
    """DOI existence in the Handle system, one request per DOI."""

    name = "handle"
    api_version = "api-handles-v1"
    title = "Handle"
    host = HANDLE

    def __init__(self, sink: Sink | None = None) -> None:
        super().__init__(sink)
        self._breaker = Breaker()

    def _fail(self, doi: str, reason: Reason) -> RecordRow:
        return failed(self.name, IdType.DOI, doi, reason)

    async def _one(self, dois: list[str], net: Net) -> dict[str, RecordRow]:
        (doi,) = dois
        url = handle_url(HANDLE.base_url(net.settings), doi)
        return {doi: parse_handle(doi, await net.get(HANDLE.name, url, follow_redirects=True))}

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids`: `not_found`, `not_covered` (exists) or `unreachable`."""
        answers = await asyncio.gather(
            *(split_fetch([d], lambda g: self._one(g, net), self._fail, self._breaker) for d in ids)
        )
        out: dict[str, RecordRow] = {}
        for answer in answers:
            out.update(answer)
        return out
