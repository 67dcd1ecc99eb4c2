"""GROBID, optional, asked through the run's one `Net`: `ask_about_pdfs(paths, fmt, net)`.

GROBID is one more host of the network layer, declared here as data (`grobid_host`) and added
to the run's hosts by `with_grobid` wherever a `Net` that may read PDFs is opened (an audit, the
service). So its requests get what every register's get: the host's pace and concurrency,
retries decided by `transport/retry.py` (GROBID's own advice on a `503` is to send again after
a wait: all its threads are busy), the retry budget of the batch, the body cap
(`max_body_bytes`) and the redirect policy. Its URL is trusted as a register's base URL is;
a redirect to any other origin is held to the registers' rules (HTTPS, an allowlisted name, no
bare IP, no port, no userinfo), so whatever answers at GROBID's address cannot send the run to
an internal address (#37). The URL comes only from the operator's `grobid_url` setting: nothing
a request or an input carries reaches it.

Each PDF is asked once (by the SHA-256 of its bytes) at `/api/processReferences`, with
`includeRawCitations=1` (GROBID's documented multipart fields: `input`, `consolidateCitations`,
`includeRawCitations`). What comes back is a `GrobidAnswer`: the TEI of a `200`, else why there
is none (`GROBID could not be asked (timeout)`, `GROBID answered HTTP 400`, GROBID's `204`:
`GROBID found no references`), which the PDF loader turns into a warning before reading the
file with the built-in reader. A warning names the reason code, never GROBID's URL: the
service's users see it, and the operator's network is not theirs to map.

Of the registers' cache rules GROBID keeps the one that applies, "never store a failure", by
storing nothing: the record cache holds public register records only, never bibliography
content, and GROBID's answer is the document's own reference list (an unpublished manuscript, a
service upload that must leave nothing behind). Each run asks again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.errors import InputError, RegisterError
from auditor.load.document_kind import binary_kind
from auditor.load.documents.grobid import GrobidAnswer
from auditor.register_settings import RegisterSettings
from auditor.settings import Settings
from auditor.transport.host import Host

if TYPE_CHECKING:
    from auditor.transport.net import Net

__all__ = ["ENDPOINT", "GROBID", "TIMEOUT", "ask", "ask_about_pdfs", "grobid_host", "with_grobid"]

log = logging.getLogger("auditor.grobid")

#: The host's name: its throttle, its retry budget and its `Net.requests` count.
GROBID = "grobid"
#: The service read: every reference of a PDF, as TEI `biblStruct`s.
ENDPOINT = "/api/processReferences"
#: Seconds one attempt may take: GROBID reads the whole PDF before it answers.
TIMEOUT = 120.0
#: GROBID is the operator's own server: two PDFs at once, at most four a second, leaves its
#: thread pool (ten by default) to its other users; a `503` from a full pool is retried.
CONCURRENCY = 2
RATE = 4.0


@dataclass(frozen=True)
class GrobidSettings(RegisterSettings):
    """GROBID's URL (the operator's `grobid_url`) and pace; not a `[registers.*]` section."""


def grobid_host(settings: Settings) -> Host[GrobidSettings] | None:
    """GROBID's host for a run under `settings`; `None` when `grobid_url` is not set."""
    if not settings.grobid_url:
        return None
    return Host(GROBID, GrobidSettings(url=settings.grobid_url, rate=RATE), concurrency=CONCURRENCY)


def with_grobid(settings: Settings, hosts: Mapping[str, Host[Any]]) -> dict[str, Host[Any]]:
    """`hosts` and, when `grobid_url` is set, GROBID's: the hosts of a `Net` that reads PDFs."""
    host = grobid_host(settings)
    return dict(hosts) if host is None else {**hosts, GROBID: host}


def _multipart(data: bytes) -> tuple[bytes, str]:
    """The `multipart/form-data` body asking about the PDF `data`, and its boundary."""
    boundary = "auditor" + secrets.token_hex(12)
    parts = [
        _field(boundary, "includeRawCitations", b"1"),
        _field(boundary, "input", data, filename="document.pdf"),
        f"--{boundary}--\r\n".encode(),
    ]
    return b"".join(parts), boundary


def _field(boundary: str, name: str, value: bytes, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    kind = "Content-Type: application/pdf\r\n" if filename else ""
    return (
        f"--{boundary}\r\nContent-Disposition: {disposition}\r\n{kind}\r\n".encode()
        + value
        + b"\r\n"
    )


async def ask(net: Net, data: bytes, *, timeout: float = TIMEOUT) -> GrobidAnswer:
    """GROBID's answer about the PDF `data`, through `net`; never raises for GROBID's failings.

    `timeout` bounds each attempt. Without GROBID among `net`'s hosts the answer says so.
    """
    host = net.hosts.get(GROBID)
    if host is None:
        return GrobidAnswer(None, "GROBID is not among the hosts of this run")
    body, boundary = _multipart(data)
    try:
        answer = await net.post(
            GROBID,
            host.base_url(net.settings) + ENDPOINT,
            form=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
            accept="application/xml",
            timeout=timeout,
        )
    except RegisterError as exc:
        log.warning("GROBID could not be asked: %s", exc)
        return GrobidAnswer(None, f"GROBID could not be asked ({exc.reason})")
    if answer.status == 204:
        # GROBID's own "processed, but no reference found" (its service documentation)
        return GrobidAnswer(None, "GROBID found no references")
    if answer.status != 200:
        return GrobidAnswer(None, f"GROBID answered HTTP {answer.status}")
    return GrobidAnswer(answer.body)


def _pdf(path: str, fmt: str | None) -> bytes | None:
    """The bytes of `path` when the loader will read it as a PDF (`_load_files`' own test)."""
    if fmt not in (None, "pdf", "docx", "odt"):
        return None
    try:
        with open(path, "rb") as handle:
            if binary_kind(path, handle.read(16)) != "pdf":
                return None
            handle.seek(0)
            return handle.read()
    except (OSError, InputError):
        return None  # the loader reports the file itself


async def ask_about_pdfs(
    paths: Sequence[str], fmt: str | None, net: Net
) -> dict[str, GrobidAnswer]:
    """GROBID's answer about every PDF among `paths`, by the SHA-256 of its bytes.

    The requests are one register batch (`Net.retry_batch`): GROBID gets a fresh retry budget,
    and a server's long-lived `Net` is not spent for good by one slow GROBID.
    """
    pdfs: dict[str, bytes] = {}
    for path in paths:
        data = _pdf(path, fmt)
        if data is not None:
            pdfs.setdefault(hashlib.sha256(data).hexdigest(), data)
    with net.retry_batch():
        answers = await asyncio.gather(*(ask(net, data) for data in pdfs.values()))
    return dict(zip(pdfs, answers, strict=True))
