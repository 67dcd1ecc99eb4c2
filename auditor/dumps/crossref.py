"""Crossref's public data file: `/works` items as JSON Lines, or `.json.gz` files of `{"items"}`.

The annual public data file is a folder of `.json.gz` files, each one JSON object whose `items`
array holds `/works` messages; Crossref's Metadata Plus snapshots and `cursor` harvests are often
kept as JSON Lines of the same messages. Both are read. A message becomes the row the live
register makes of it (`registers/crossref.work_row`): title, authors, the criteria's year and
surnames, venue, and the updates (`updated-by`, `update-to`, `relation`) issue 14 reads. One
`items` file is held in memory while it is read (a few thousand works); the dump never is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO, ClassVar

from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.jsonlines import decoded, deeper_than, objects
from auditor.errors import RegisterError
from auditor.registers.crossref import work_row
from auditor.registers.interface import RecordRow

__all__ = ["CrossrefDump"]


def _row(item: Mapping[str, Any], where: str) -> RecordRow | Skipped:
    message = item.get("message", item) if item.get("message-type") == "work" else item
    if not isinstance(message, Mapping):
        return Skipped(where, "no work message")
    doi = message.get("DOI")
    if not isinstance(doi, str) or not doi.strip():
        return Skipped(where, "no DOI")
    digest = hashlib.sha256(json.dumps(message, sort_keys=True).encode()).hexdigest()
    try:
        return work_row(doi.strip().lower(), message, digest)
    except RegisterError as exc:
        return Skipped(where, str(exc))


#: Largest `{"items": [...]}` file read (it is one JSON value, parsed whole; Crossref's public
#: data files are some 3,000 works, tens of MB each).
MAX_ITEMS_FILE = 256 << 20


class CrossrefDump(DumpReader):
    """Reads Crossref `/works` items."""

    kind: ClassVar[str] = "crossref"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per work; `{"items": [...]}` files and JSON Lines alike."""
        head = stream.peek(64)[:64] if hasattr(stream, "peek") else b""
        if head.lstrip().startswith(b'{"items"') or b'"items"' in head:
            raw = stream.read(MAX_ITEMS_FILE + 1)
            if len(raw) > MAX_ITEMS_FILE:
                yield Skipped(path, f"an items file larger than {MAX_ITEMS_FILE} bytes inflated")
                return
            text = decoded(raw, path)
            if deeper_than(raw, self.limits.json_depth):
                depth = self.limits.json_depth
                yield Skipped(path, f"JSON nested deeper than {depth:,} (import_max_json_depth)")
                return
            try:
                data = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                yield Skipped(path, f"not JSON ({exc})")
                return
            items = data.get("items") if isinstance(data, dict) else None
            for n, item in enumerate(items if isinstance(items, list) else [], 1):
                where = f"{path}: item {n}"
                yield _row(item, where) if isinstance(item, dict) else Skipped(where, "not a work")
            return
        for found in objects(stream, path, self.limits):
            if isinstance(found, Skipped):
                yield found
            else:
                yield _row(found[1], f"{path}:{found[0]}")
