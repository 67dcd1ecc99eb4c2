"""The shape Crossref and DataCite share: DOIs asked in lists, a lone DOI by its own URL.

Both agencies answer a list request (`/works?filter=doi:…`, `/dois?ids=…`) with the records they
hold and silently leave out the rest, and a single-DOI request with 404 for a DOI they do not hold.
So: lists of `batch_size` DOIs (one retry, then split, so a failing list does not sink its
neighbours), each DOI missing from a list confirmed by its own request, a DOI that cannot sit in a
comma-separated list asked alone, and a 404 that is a referral to the DOI system (the agency
alone never condemns a DOI). A subclass names its URLs, list parameters, parsers and limits.
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote

from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import (
    Breaker,
    chunks,
    digest,
    failed,
    fetch_groups,
    http_reason,
    row,
    split_fetch,
)
from auditor.tables import IdType, RecordStatus


def rows_by_echo(
    register: str,
    dois: Sequence[str],
    items: Sequence[Any],
    echo: Callable[[Any], object],
    record: Callable[[str, Any], RecordRow],
) -> dict[str, RecordRow]:
    """The rows of a list answer, keyed by the asked DOI each item echoes (`echo(item)`).

    An item echoing a DOI that was not asked for, or one asked twice, makes the whole answer
    untrustworthy (`WRONG_ECHO`); absent DOIs are simply missing.
    """
    asked = {d.lower(): d for d in dois}
    out: dict[str, RecordRow] = {}
    for item in items:
        echoed = echo(item)
        key = echoed.strip().lower() if isinstance(echoed, str) else None
        if key not in asked or asked[key] in out:
            raise MalformedBody(f"{register}: unexpected item {echoed!r}", Reason.WRONG_ECHO)
        out[asked[key]] = record(asked[key], item)
    return out


if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

__all__ = ["DoiListRegister"]

#: A DOI that cannot sit in a comma-separated list, or is too long for one, goes alone.
_MAX_LISTED_DOI_LEN = 200


class DoiListRegister(Register):
    """A DOI registration agency read in lists of DOIs (see the module docstring)."""

    id_type = IdType.DOI
    settled_by = "doi"
    one_path: ClassVar[str]
    """Path of one DOI's record, with `{doi}` for the percent-encoded DOI."""
    list_path: ClassVar[str]
    """Path of the list request."""
    absent_reason: ClassVar[Reason]
    """The `not_found` reason of a 404: a referral to the DOI system, not an answer."""
    max_batch: ClassVar[int]
    """The most DOIs one list request may carry."""
    unlistable: ClassVar[str] = ","
    """Characters that separate values in the list request: a DOI holding one is asked alone."""

    def __init__(self, sink: Sink | None = None) -> None:
        super().__init__(sink)
        self._breaker = Breaker()

    @abstractmethod
    def batch_size(self, net: Net) -> int:
        """DOIs per list request as the settings ask (before `max_batch` and `batching`)."""

    @abstractmethod
    def list_params(self, dois: Sequence[str]) -> dict[str, str]:
        """Query parameters of the list request for `dois`."""

    @abstractmethod
    def parse_one(self, doi: str, response: Response) -> RecordRow:
        """The `found` row of a 200 answer for `doi` (raises `MalformedBody`)."""

    @abstractmethod
    def parse_list(self, dois: Sequence[str], response: Response) -> dict[str, RecordRow]:
        """The rows of a 200 list answer, keyed by asked DOI; absent DOIs are left out."""

    def referred(self, row: RecordRow) -> bool:
        """A 404 is "not held here": the DOI system decides whether the DOI exists."""
        return row.get("reason") == self.absent_reason

    def _fail(self, doi: str, reason: Reason) -> RecordRow:
        return failed(self.name, IdType.DOI, doi, reason)

    def _status_error(self, response: Response) -> Unreachable:
        reason = http_reason(response.status)
        return Unreachable(f"{self.name}: HTTP {response.status} for {response.url}", reason)

    async def _one(self, dois: list[str], net: Net) -> dict[str, RecordRow]:
        (doi,) = dois
        path = self.one_path.format(doi=quote(doi, safe="/"))
        response = await net.get(
            self.host.name, f"{self.host.base_url(net.settings)}{path}", follow_redirects=True
        )
        if response.status == 404:
            return {
                doi: row(
                    self.name,
                    IdType.DOI,
                    doi,
                    RecordStatus.NOT_FOUND,
                    self.absent_reason,
                    body_digest=digest(response.body),
                )
            }
        if response.status != 200:
            raise self._status_error(response)
        return {doi: self.parse_one(doi, response)}

    async def _confirm(self, doi: str, net: Net) -> dict[str, RecordRow]:
        return await split_fetch([doi], lambda d: self._one(d, net), self._fail, self._breaker)

    async def _batch(self, dois: list[str], net: Net) -> dict[str, RecordRow]:
        if len(dois) == 1:
            return await self._one(dois, net)
        response = await net.get(
            self.host.name,
            f"{self.host.base_url(net.settings)}{self.list_path}",
            params=self.list_params(dois),
            retries=1,
            follow_redirects=True,
        )
        if response.status != 200:
            raise self._status_error(response)
        found = self.parse_list(dois, response)
        absent = [d for d in dois if d not in found]
        # Absent from a list is not yet absent (a draft, an index lag): each is asked alone.
        for answer in await asyncio.gather(*(self._confirm(d, net) for d in absent)):
            found.update(answer)
        return found

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids` (lower-cased DOIs); a 404 is `not_found` with `absent_reason`."""
        size = min(self.batch_size(net), self.max_batch) if net.settings.batching else 1
        loners = [
            d for d in ids if any(c in d for c in self.unlistable) or len(d) > _MAX_LISTED_DOI_LEN
        ]
        alone = set(loners)
        groups = chunks([d for d in ids if d not in alone], size) + [[d] for d in loners]
        return await fetch_groups(
            self.name,
            groups,
            lambda g: self._batch(g, net),
            self._fail,
            self._breaker,
            sink=self.sink,
            report=net.report,
        )
