"""E-utilities ESearch: `esearch.fcgi?db=pubmed&term=…&retmax=n&retmode=json`, a count and ids.

Not a lookup register of its own: it is the NCBI host's search endpoint (same `NCBI` pace and
`tool`/`email` identification as PubMed), used by the Chinese waterfall's coordinate queries.
The body is checked for internal consistency: `count` a string of digits, `idlist` unique numeric
strings, `len(idlist) == min(count, retmax)`, no `ERROR`; any doubt raises `MalformedBody`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.pubmed import NCBI
from auditor.registers.records import http_reason

if TYPE_CHECKING:
    from auditor.transport.net import Net, Response

#: An ESearch answer of at most a few hundred ids; anything past this is not one.
MAX_BYTES = 2 * 1024 * 1024
_DIGITS = re.compile(r"[0-9]+")
_PMID = re.compile(r"[1-9][0-9]{0,19}")


def _bad(what: str) -> MalformedBody:
    return MalformedBody(f"ESearch {what}: unexpected payload shape", Reason.MALFORMED_BODY)


def parse_esearch(response: Response, retmax: int) -> tuple[int, list[str]]:
    """`(count, idlist)` of an ESearch JSON answer, checked for internal consistency."""
    if response.status != 200:
        raise Unreachable(f"ESearch: HTTP {response.status}", http_reason(response.status))
    body = response.json(MAX_BYTES)
    result = body.get("esearchresult") if isinstance(body, Mapping) else None
    if not isinstance(result, Mapping) or "ERROR" in result:
        raise _bad("result")
    count, ids = result.get("count"), result.get("idlist")
    if not isinstance(count, str) or not _DIGITS.fullmatch(count) or not isinstance(ids, list):
        raise _bad("count/idlist")
    if not all(isinstance(i, str) and _PMID.fullmatch(i) for i in ids):
        raise _bad("idlist (non-numeric id)")
    if len(set(ids)) != len(ids) or len(ids) != min(int(count), retmax):
        raise _bad("idlist (duplicated, incomplete or overlong)")
    return int(count), ids


async def esearch(term: str, retmax: int, net: Net) -> tuple[int, list[str]]:
    """One ESearch on db=pubmed; raises `RegisterError` on a failure to look."""
    params = {"db": "pubmed", "retmode": "json", "term": term, "retmax": str(retmax)}
    url = f"{NCBI.base_url(net.settings)}/esearch.fcgi"
    response = await net.get(NCBI.name, url, params=params, follow_redirects=True)
    return parse_esearch(response, retmax)
