"""arXiv's metadata snapshot (`arxiv-metadata-oai-snapshot.json`): one JSON object per line.

Each line has `id` (new `0704.0001` or old `hep-th/9901001` style), `title`, `authors_parsed`
(`[[last, first, suffix], …]`), `versions` (`[{"version": "v1", "created": "Mon, 2 Apr 2007
19:18:42 GMT"}, …]`), `doi`, `journal-ref` and `update_date`. The row is what the live arXiv
register reads from the Atom feed: year of the first version (Atom `<published>`), surnames (the
parsed last names), latest version number, and the journal DOI.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO, ClassVar

from auditor.classify import infer_type
from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.jsonlines import objects
from auditor.errors import RegisterError
from auditor.names import last_token
from auditor.registers.interface import RecordRow
from auditor.registers.records import row
from auditor.tables import IdType, RecordStatus

__all__ = ["ArxivDump"]

_YEAR = re.compile(r"\b(\d{4})\b")
_VERSION = re.compile(r"^v(\d+)$")


def _text(value: object) -> str | None:
    return (" ".join(value.split()) or None) if isinstance(value, str) else None


def _names(item: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    parsed = item.get("authors_parsed")
    authors: list[str] = []
    surnames: list[str] = []
    for entry in parsed if isinstance(parsed, list) else []:
        parts = [p for p in entry if isinstance(p, str)] if isinstance(entry, list) else []
        last = parts[0].strip() if parts else ""
        first = parts[1].strip() if len(parts) > 1 else ""
        authors.append(" ".join(p for p in (first, last) if p))
        surnames.append(last_token(last))  # criteria v1 register rule for arXiv
    return authors, surnames


def _versions(item: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """`(year of the first version, latest version number)`."""
    versions = item.get("versions")
    numbers: list[int] = []
    first_year: int | None = None
    for v in versions if isinstance(versions, list) else []:
        if not isinstance(v, Mapping):
            continue
        m = _VERSION.match(str(v.get("version", "")))
        if m:
            numbers.append(int(m.group(1)))
            if int(m.group(1)) == 1:
                y = _YEAR.search(str(v.get("created", "")))
                first_year = int(y.group(1)) if y else None
    return first_year, max(numbers) if numbers else None


def _row(item: Mapping[str, Any], where: str) -> RecordRow | Skipped:
    raw = item.get("id")
    id_type, arxiv_id = infer_type(raw) if isinstance(raw, str) else (None, None)
    if id_type != IdType.ARXIV or arxiv_id is None:
        return Skipped(where, f"not an arXiv id: {raw!r}")
    authors, surnames = _names(item)
    year, version = _versions(item)
    doi = _text(item.get("doi"))
    digest = hashlib.sha256(json.dumps(item, sort_keys=True).encode()).hexdigest()
    try:
        return row(
            "arxiv",
            IdType.ARXIV,
            arxiv_id,
            RecordStatus.FOUND,
            title=_text(item.get("title")),
            authors=authors,
            surnames=surnames,
            year=year,
            years=[year] if year is not None else [],
            version=version,
            container_title=_text(item.get("journal-ref")),
            doi=doi.split()[0].lower() if doi else None,
            work_type="preprint",
            agency="arXiv",
            body_digest=digest,
        )
    except RegisterError as exc:
        return Skipped(where, str(exc))


class ArxivDump(DumpReader):
    """Reads the arXiv metadata snapshot."""

    kind: ClassVar[str] = "arxiv"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per line."""
        for found in objects(stream, path, self.limits):
            yield found if isinstance(found, Skipped) else _row(found[1], f"{path}:{found[0]}")
