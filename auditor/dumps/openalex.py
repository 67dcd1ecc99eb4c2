"""OpenAlex's works snapshot: `data/works/updated_date=…/part_NNN.gz`, one work per line.

The snapshot (CC0, `s3://openalex/data/works/`) is a folder of partitions, each file gzip-ed
JSON Lines of the same work objects the API answers. A work becomes the row the live register
makes of it (`registers/openalex.work_row`: keyed by its DOI, else PMID, else OpenAlex id), so
an import answers DOI lookups and, through the title index built beside it, OpenAlex title
searches with no request. A line without a title, or not a work, is skipped with its place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import BinaryIO, ClassVar

from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.jsonlines import objects
from auditor.errors import RegisterError
from auditor.registers.interface import RecordRow
from auditor.registers.openalex import work_row

__all__ = ["OpenalexDump"]


class OpenalexDump(DumpReader):
    """Reads OpenAlex works snapshot partitions (JSON Lines, usually gzip-ed)."""

    kind: ClassVar[str] = "openalex"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per work line; bad lines and works without a title are `Skipped`."""
        for found in objects(stream, path, self.limits):
            if isinstance(found, Skipped):
                yield found
                continue
            number, work = found
            where = f"{path}:{number}"
            digest = hashlib.sha256(json.dumps(work, sort_keys=True).encode()).hexdigest()
            try:
                made = work_row(work, digest)
            except RegisterError as exc:
                yield Skipped(where, str(exc))
                continue
            yield made if made is not None else Skipped(where, "no title")
