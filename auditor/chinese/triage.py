"""Registration-agency triage through `doi.org/doiRA/<p1,p2,…>`, batched over distinct prefixes.

The body is a JSON array with exactly one row per asked prefix: `{"DOI": p, "RA": name}` or the
documented not-found row `{"DOI": p, "status": "DOI does not exist"}`. Anything else (an object, an
empty array, a foreign echo, a duplicated row, a non-string RA) raises `MalformedBody`: routing
metadata is never guessed.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence

from auditor.chinese.lookups import Lookups, Reply, decode_json, malformed
from auditor.errors import Reason, RegisterError, Unreachable

#: A DOI as the waterfall accepts it: directory indicator, registrant code, suffix without spaces
#: or control characters. Anything else is "not a DOI" and makes no request.
DOI_FORM = re.compile(r"10\.[0-9]{4,9}(?:\.[0-9]+)*/[^\x00-\x20\x7f]+")
_PREFIX = re.compile(r"10\.[0-9]{4,9}(?:\.[0-9]+)*")
_NOT_FOUND = "DOI does not exist"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_doi(value: str | None) -> bool:
    """True when `value` has the form of a DOI (a request may be made for it)."""
    return bool(value) and DOI_FORM.fullmatch(value) is not None  # type: ignore[arg-type]


def prefix_of(doi: str) -> str:
    """The DOI prefix (`10.5555` of `10.5555/abc`)."""
    return doi.split("/", 1)[0]


def parse_doira(reply: Reply, asked: Sequence[str]) -> dict[str, str | None]:
    """Agency per asked prefix (`None` = "no agency"); raises `RegisterError` on any doubt."""
    if reply.status == 404:
        # An HTTP 404 from doiRA is read as "no agency" for every asked prefix (cases document).
        return dict.fromkeys(asked)
    if reply.status != 200:
        raise Unreachable(f"doiRA answered HTTP {reply.status}", Reason.HTTP_4XX)
    body = decode_json(reply, "doiRA")
    if not isinstance(body, list) or len(body) != len(asked):
        raise malformed("doiRA")
    wanted = {p.lower(): p for p in asked}
    out: dict[str, str | None] = {}
    for row in body:
        if not isinstance(row, dict) or not isinstance(row.get("DOI"), str):
            raise malformed("doiRA")
        prefix = wanted.get(row["DOI"].strip().lower())
        if prefix is None or prefix in out:
            raise malformed("doiRA (echo names a prefix not asked, or twice)", Reason.WRONG_ECHO)
        if "RA" not in row and row.get("status") == _NOT_FOUND:
            out[prefix] = None
            continue
        agency = row.get("RA")
        if not isinstance(agency, str) or not agency.strip() or len(agency) > 64:
            raise malformed("doiRA (RA missing or not a name)")
        if _CONTROL.search(agency):
            raise malformed("doiRA (control character in RA)")
        out[prefix] = agency.strip()
    return out


async def _ask(lookups: Lookups, base: str, batch: Sequence[str]) -> dict[str, str | None]:
    reply = await lookups.get("doi", f"{base.rstrip('/')}/doiRA/{','.join(batch)}")
    return parse_doira(reply, batch)


async def triage(
    lookups: Lookups, base: str, prefixes: Iterable[str], batch_size: int
) -> dict[str, str | None | RegisterError]:
    """Agency (or `None`, or the failure) for every distinct prefix, in ⌈n / batch_size⌉ requests.

    Prefixes that are not of DOI-prefix form are answered `None` without a request.
    """
    distinct = sorted(set(prefixes))
    out: dict[str, str | None | RegisterError] = {
        p: None for p in distinct if not _PREFIX.fullmatch(p)
    }
    valid = [p for p in distinct if p not in out]
    size = max(1, batch_size)
    batches = [valid[i : i + size] for i in range(0, len(valid), size)]
    answers = await asyncio.gather(
        *(_ask(lookups, base, b) for b in batches), return_exceptions=True
    )
    for batch, answer in zip(batches, answers, strict=True):
        if isinstance(answer, RegisterError):
            out.update(dict.fromkeys(batch, answer))
        elif isinstance(answer, BaseException):
            raise answer
        else:
            out.update(answer)
    return out
