"""The DOI system: `doiRA/{k1,k2,…}` says which agency registered a DOI (or prefix), or none.

Called for DOIs that Crossref does not hold: "a DOI is condemned only by the DOI system".
`"status": "DOI does not exist"` → `not_found`; another agency (DataCite, ISTIC, CNKI, mEDRA,
JaLC, KISTI, OP …) → `not_covered` with `registered_with_<agency>` and the `agency` column set.
A DOI doiRA cannot settle (no row, another status, `Crossref` although Crossref said 404, or a
failed request) is asked of the Handle API (`handle.py`), which says exists / does not exist.
The Chinese waterfall routes by prefix through `DoiSystemRegister.agencies`, on the same parser.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import quote

from auditor.errors import MalformedBody, Reason, RegisterError, Unreachable, registered_with
from auditor.register_settings import RegisterSettings
from auditor.registers.handle import HandleRegister
from auditor.registers.interface import RecordRow, Register, Sink
from auditor.registers.records import Breaker, chunks, digest, http_reason, row
from auditor.tables import IdType, RecordStatus
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: Where doi.org's content negotiation sends a CSL-JSON request, by agency, as two public
#: clients record it (an allowlist of observed hops and a page's `connect-src` list, both of
#: 2026) and JabRef's mEDRA fetcher (`https://data.medra.org`). Airiti is not here: its hop was
#: seen going to plain HTTP or a landing page, which the policy refuses whatever the list says.
AGENCY_METADATA_HOSTS: frozenset[str] = frozenset(
    {
        "data.medra.org",  # mEDRA
        "japanlinkcenter.org",  # JaLC
        "data.doi.or.kr",  # KISTI
        "ra.publications.europa.eu",  # OP (Publications Office of the EU)
    }
)


@dataclass(frozen=True)
class DoiSettings(RegisterSettings):
    """The DOI system's settings (doiRA, content negotiation): `[registers.doi]`, `doi_url`,
    `doi_rate`, and `doira_batch_size` for its batch size."""

    url: str = "https://doi.org"
    rate: float = 5.0
    batch_size: int = 20
    """Prefixes or DOIs per doiRA request."""

    aliases: ClassVar[Mapping[str, str]] = {"doira_batch_size": "batch_size"}


#: doi.org: doiRA and content negotiation share one pace.
DOI_SYSTEM = Host(
    name="doi",
    defaults=DoiSettings(),
    concurrency=4,
    redirect_hosts=AGENCY_METADATA_HOSTS,
)

DOES_NOT_EXIST = "doi does not exist"
#: A doiRA answer for a batch of 20 is a few hundred bytes.
MAX_BYTES = 2 * 1024 * 1024
_MAX_AGENCY_LEN = 64
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _agency(value: object) -> str:
    """An `RA` value that is a plausible agency name, or `MalformedBody`."""
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > _MAX_AGENCY_LEN
        or _CONTROL.search(value)
    ):
        raise MalformedBody(f"doiRA: RA {value!r} is not an agency name", Reason.MALFORMED_BODY)
    return value.strip()


def parse_doira(asked: Sequence[str], response: Response) -> dict[str, str | None]:
    """Per asked key doiRA answered: the agency, or `None` when it says the DOI does not exist.

    A row with another status and no `RA` is no answer (its key is left out). Raises
    `MalformedBody` for a body that is not an array of objects naming a string `DOI`, a row
    naming a key not asked or twice (`wrong_echo`), or an `RA` that is not an agency name.
    """
    if response.status != 200:
        reason = http_reason(response.status)
        raise Unreachable(f"doiRA: HTTP {response.status}", reason)
    data = response.json(MAX_BYTES)
    if not isinstance(data, list):
        raise MalformedBody("doiRA: answer is not an array", Reason.MALFORMED_BODY)
    wanted = {k.lower(): k for k in asked}
    out: dict[str, str | None] = {}
    seen: set[str] = set()
    for item in data:
        if not isinstance(item, Mapping) or not isinstance(item.get("DOI"), str):
            raise MalformedBody("doiRA: row is not an object with a DOI", Reason.MALFORMED_BODY)
        key = wanted.get(item["DOI"].strip().lower())
        if key is None or key in seen:
            raise MalformedBody(f"doiRA: unexpected row {item['DOI']!r}", Reason.WRONG_ECHO)
        seen.add(key)
        status = item.get("status")
        if "RA" in item:
            out[key] = _agency(item["RA"])
        elif isinstance(status, str) and status.strip().lower() == DOES_NOT_EXIST:
            out[key] = None
    return out


def settle(doi: str, agency: str | None, body_digest: str) -> RecordRow | None:
    """The row doiRA's answer decides for `doi`, or `None` when the Handle API must decide."""
    if agency is None:
        return row(
            DoiSystemRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_FOUND,
            Reason.NOT_FOUND,
            body_digest=body_digest,
        )
    if agency.lower() != "crossref":
        return row(
            DoiSystemRegister.name,
            IdType.DOI,
            doi,
            RecordStatus.NOT_COVERED,
            registered_with(agency),
            agency=agency,
            body_digest=body_digest,
        )
    return None


def _doira_url(net: Net, keys: Sequence[str]) -> str:
    return f"{DOI_SYSTEM.base_url(net.settings)}/doiRA/" + ",".join(
        quote(k, safe="/") for k in keys
    )


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
        try:
            response = await net.get(DOI_SYSTEM.name, _doira_url(net, dois), follow_redirects=True)
            answered = parse_doira(dois, response)
        except RegisterError as exc:
            # doiRA failing is not the end: the Handle API can still settle each DOI.
            self._breaker.failure(exc.reason)
            return dict.fromkeys(dois)
        self._breaker.success()
        body_digest = digest(response.body)
        out: dict[str, RecordRow | str | None] = {}
        for doi in dois:
            if doi not in answered:
                out[doi] = None
                continue
            agency = answered[doi]
            settled = settle(doi, agency, body_digest)
            out[doi] = settled if settled is not None else agency
        return out

    async def agencies(
        self, keys: Sequence[str], net: Net
    ) -> dict[str, str | None | RegisterError]:
        """The agency of each key (a DOI or a prefix), `None` for none, or the failure to look.

        Batched by `doira_batch_size`. An HTTP 404 is "no agency" for every key it was asked
        for (the Chinese protocol's cases document); a 200 that leaves a key out is a failure to
        look for that key. Keys must be of DOI or prefix form (no commas): the caller checks.
        """
        size = DOI_SYSTEM.own(net.settings).batch_size if net.settings.batching else 1
        batches = chunks(list(dict.fromkeys(keys)), size)
        answers = await asyncio.gather(
            *(self._agencies(b, net) for b in batches), return_exceptions=True
        )
        out: dict[str, str | None | RegisterError] = {}
        for batch, answer in zip(batches, answers, strict=True):
            if isinstance(answer, RegisterError):
                out.update(dict.fromkeys(batch, answer))
            elif isinstance(answer, BaseException):
                raise answer
            else:
                out.update(answer)
        return out

    async def _agencies(self, keys: list[str], net: Net) -> dict[str, str | None | RegisterError]:
        response = await net.get(DOI_SYSTEM.name, _doira_url(net, keys), follow_redirects=True)
        if response.status == 404:
            return dict.fromkeys(keys)
        answered = parse_doira(keys, response)
        missing = MalformedBody("doiRA: the answer leaves this key out", Reason.MALFORMED_BODY)
        return {k: answered.get(k, missing) for k in keys}

    async def fetch(self, ids: Sequence[str], net: Net) -> dict[str, RecordRow]:
        """Rows for `ids`: `not_found`, `not_covered` (another agency) or `unreachable`."""
        size = DOI_SYSTEM.own(net.settings).batch_size if net.settings.batching else 1
        net.report(self.name, 0, len(ids))  # its bar shows while it waits, not only when done
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
