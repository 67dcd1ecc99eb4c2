"""The DOI system: `doiRA/{doi1,doi2,…}` says which agency registered a DOI, or that none did.

Called for DOIs that Crossref does not hold: "a DOI is condemned only by the DOI system".
`"status": "DOI does not exist"` → `not_found`; another agency (DataCite, ISTIC, CNKI, mEDRA,
JaLC, KISTI, OP …) → `not_covered` with `registered_with_<agency>` and the `agency` column set.
A DOI doiRA cannot settle (no row, another status, `Crossref` although Crossref said 404, or a
failed request) is asked of the Handle API (`handle.py`), which says exists / does not exist.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from urllib.parse import quote

from auditor.errors import MalformedBody, Reason, RegisterError, Unreachable, registered_with
from auditor.registers.handle import HandleRegister
from auditor.registers.interface import Host, RecordRow, Register, Sink
from auditor.registers.records import Breaker, chunks, digest, http_reason, row
from auditor.tables import IdType, RecordStatus

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: doi.org: doiRA and content negotiation share one pace.
DOI_SYSTEM = Host(name="doi", url_setting="doi_url", rate_setting="doi_rate", concurrency=4)

DOES_NOT_EXIST = "doi does not exist"


def parse_doira(dois: Sequence[str], response: Response) -> dict[str, Mapping[str, object]]:
    """The doiRA row of each asked DOI it answered, keyed by the asked DOI (echo checked)."""
    if response.status != 200:
        reason = http_reason(response.status)
        raise Unreachable(f"doiRA: HTTP {response.status}", reason)
    data = response.json()
    if not isinstance(data, list):
        raise MalformedBody("doiRA: answer is not an array", Reason.MALFORMED_BODY)
    asked = {d.lower(): d for d in dois}
    out: dict[str, Mapping[str, object]] = {}
    for item in data:
        echoed = item.get("DOI") if isinstance(item, Mapping) else None
        key = echoed.strip().lower() if isinstance(echoed, str) else None
        if key not in asked:
            raise MalformedBody(f"doiRA: unexpected row {echoed!r}", Reason.WRONG_ECHO)
        out[asked[key]] = item
    return out


def settle(doi: str, item: Mapping[str, object], body_digest: str) -> RecordRow | None:
    """The row doiRA's answer decides for `doi`, or `None` when the Handle API must decide."""
    status = item.get("status")
    if isinstance(status, str) and status.strip().lower() == DOES_NOT_EXIST:
        return row(
            DoiSystemRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_FOUND,
            Reason.NOT_FOUND,
            body_digest=body_digest,
        )
    agency = item.get("RA")
    if isinstance(agency, str) and agency.strip() and agency.strip().lower() != "crossref":
        return row(
            DoiSystemRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_COVERED,
            registered_with(agency),
            agency=agency.strip(),
            body_digest=body_digest,
        )
    return None


class DoiSystemRegister(Register):
    """DOIs that Crossref does not hold, settled by doiRA and, failing that, Handle."""

    name = "doi"
    api_version = "doira-v1"
    title = "DOI system"
    host = DOI_SYSTEM

    def __init__(self, sink: Sink | None = None) -> None:
        super().__init__(sink)
        self._handle = HandleRegister()
        self._breaker = Breaker()

    async def _batch(self, dois: list[str], net: Net) -> dict[str, RecordRow | str | None]:
        """Settled rows; unsettled DOIs map to the RA doiRA named (or `None`)."""
        if self._breaker.open:
            return dict.fromkeys(dois)
        path = ",".join(quote(d, safe="/") for d in dois)
        try:
            url = f"{DOI_SYSTEM.base_url(net.settings)}/doiRA/{path}"
            response = await net.get(DOI_SYSTEM.name, url, follow_redirects=True)
            answered = parse_doira(dois, response)
        except RegisterError as exc:
            # doiRA failing is not the end: the Handle API can still settle each DOI.
            self._breaker.failure(exc.reason)
            return dict.fromkeys(dois)
        self._breaker.success()
        body_digest = digest(response.body)
        out: dict[str, RecordRow | str | None] = {}
        for doi in dois:
            item = answered.get(doi)
            settled = settle(doi, item, body_digest) if item is not None else None
            ra = item.get("RA") if item is not None else None
            out[doi] = settled if settled is not None else (ra if isinstance(ra, str) else None)
        return out

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids`: `not_found`, `not_covered` (another agency) or `unreachable`."""
        size = net.settings.doira_batch_size if net.settings.batching else 1
        plain = [d for d in ids if "," not in d]
        answers = await asyncio.gather(*(self._batch(g, net) for g in chunks(plain, size)))
        merged: dict[str, RecordRow | str | None] = {d: None for d in ids if "," in d}
        for answer in answers:
            merged.update(answer)
        out = {d: r for d, r in merged.items() if isinstance(r, dict)}
        pending = [d for d in ids if d not in out]
        handled = await self._handle.fetch(pending, net) if pending else {}
        for doi in pending:
            record = handled[doi]
            if merged.get(doi) == "Crossref" and record["status"] == RecordStatus.NOT_COVERED:
                # The RA says Crossref, Crossref says 404, the DOI exists: nothing to compare.
                record = {**record, "reason": str(Reason.NOT_IN_CROSSREF), "agency": "Crossref"}
            out[doi] = record
        net.report(self.name, len(ids), len(ids))
        return out
