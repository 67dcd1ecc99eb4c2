"""Registration-agency triage: which agency registered each cited DOI's prefix.

The question goes to the DOI system register (`registers/doi.py`, `doiRA/<p1,p2,…>`), batched over
distinct prefixes, with its strict row checks (a foreign or repeated echo, a missing row, an `RA`
that is not an agency name are failures to look: routing metadata is never guessed). This module
holds the protocol's side: what counts as a DOI worth asking about, and the prefix of one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from auditor.errors import RegisterError
from auditor.registers.doi import DoiSystemRegister

if TYPE_CHECKING:
    from auditor.transport.net import Net

#: A DOI as the waterfall accepts it: directory indicator, registrant code, suffix without spaces
#: or control characters. Anything else is "not a DOI" and makes no request.
DOI_FORM = re.compile(r"10\.[0-9]{4,9}(?:\.[0-9]+)*/[^\x00-\x20\x7f]+")
_PREFIX = re.compile(r"10\.[0-9]{4,9}(?:\.[0-9]+)*")


def is_doi(value: str | None) -> bool:
    """True when `value` has the form of a DOI (a request may be made for it)."""
    return bool(value) and DOI_FORM.fullmatch(value) is not None  # type: ignore[arg-type]


def is_prefix(value: str) -> bool:
    """True when `value` has the form of a DOI prefix (`10.5555`)."""
    return _PREFIX.fullmatch(value) is not None


def prefix_of(doi: str) -> str:
    """The DOI prefix (`10.5555` of `10.5555/abc`)."""
    return doi.split("/", 1)[0]


async def triage(
    doi_system: DoiSystemRegister, net: Net, prefixes: Iterable[str]
) -> dict[str, str | None | RegisterError]:
    """Agency (or `None`, or the failure) for every distinct prefix, in ⌈n / batch⌉ requests.

    Prefixes that are not of DOI-prefix form are answered `None` without a request.
    """
    distinct = sorted(set(prefixes))
    out: dict[str, str | None | RegisterError] = {p: None for p in distinct if not is_prefix(p)}
    valid = [p for p in distinct if p not in out]
    if valid:
        out.update(await doi_system.agencies(valid, net))
    return out
