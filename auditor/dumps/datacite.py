"""DataCite's public data file: one DOI per line in the REST API's JSON:API shape.

Each line is `{"id": "10.5281/zenodo.1", "type": "dois", "attributes": {...}}` (or the same
object under `data`). Read: `titles[].title` (the first without a `titleType`), `creators[]`
(`familyName`, else the part of `name` before a comma), `publicationYear`, `container.title`
or `publisher`, `types.resourceTypeGeneral`, and the updates in `relatedIdentifiers`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO, ClassVar

from auditor.compare.register_fields import datacite_surnames, datacite_year
from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.jsonlines import objects
from auditor.errors import RegisterError
from auditor.registers.interface import RecordRow
from auditor.registers.records import row
from auditor.registers.updates import datacite_updates
from auditor.tables import IdType, RecordStatus

__all__ = ["DataciteDump"]


def _text(value: object) -> str | None:
    return (" ".join(value.split()) or None) if isinstance(value, str) else None


def _title(attributes: Mapping[str, Any]) -> str | None:
    titles = [t for t in attributes.get("titles") or [] if isinstance(t, Mapping)]
    main = [t for t in titles if not t.get("titleType")] or titles
    return _text(main[0].get("title")) if main else None


def _creators(attributes: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    authors: list[str] = []
    for creator in attributes.get("creators") or []:
        if not isinstance(creator, Mapping):
            continue
        name = _text(creator.get("name")) or ""
        family = _text(creator.get("familyName"))
        given = _text(creator.get("givenName"))
        authors.append(" ".join(p for p in (given, family) if p) or name)
    # The criteria's DataCite surname rule, the same as a live DataCite record's.
    return authors, datacite_surnames(attributes)


def _row(item: Mapping[str, Any], where: str) -> RecordRow | Skipped:
    data = item.get("data", item)
    attributes = data.get("attributes") if isinstance(data, Mapping) else None
    if not isinstance(attributes, Mapping):
        return Skipped(where, "no attributes")
    doi = _text(attributes.get("doi")) or _text(data.get("id"))
    if not doi:
        return Skipped(where, "no DOI")
    authors, surnames = _creators(attributes)
    year = datacite_year(attributes)
    container = attributes.get("container")
    venue = _text(container.get("title")) if isinstance(container, Mapping) else None
    types = attributes.get("types")
    kind = _text(types.get("resourceTypeGeneral")) if isinstance(types, Mapping) else None
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    try:
        return row(
            "datacite",
            IdType.DOI,
            doi.lower(),
            RecordStatus.FOUND,
            title=_title(attributes),
            authors=authors,
            surnames=surnames,
            year=year,
            years=[year] if year is not None else [],
            container_title=venue or _text(attributes.get("publisher")),
            doi=doi.lower(),
            language=_text(attributes.get("language")),
            agency="DataCite",
            work_type=kind,
            updates=datacite_updates(attributes, doi),
            body_digest=digest,
        )
    except RegisterError as exc:
        return Skipped(where, str(exc))


class DataciteDump(DumpReader):
    """Reads the DataCite public data file."""

    kind: ClassVar[str] = "datacite"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per line."""
        for found in objects(stream, path, self.limits):
            yield found if isinstance(found, Skipped) else _row(found[1], f"{path}:{found[0]}")
