"""A small cluster run read back whole, so it gets the report set one process writes.

A run of at most `report.LISTED_ROWS` rows is small enough to read: the driver reads the
finished pieces back (references, records, verdicts, checklist, groups) into one `AuditResult`
and the command writes `report.html`, `report.json`, CSV and Parquet as for a local run. A
larger run gets its partitioned tables, `parts.json` and the console summary only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.load import LoadOutcome
from auditor.partitions import layout
from auditor.partitions.tasks import Staged
from auditor.partitions.totals import search_use
from auditor.patches import record_keys
from auditor.pipeline import run_info
from auditor.registers import registry
from auditor.result import AuditResult, InputFile
from auditor.settings import Settings

__all__ = ["read_back"]


def _inputs(staged: Sequence[Staged]) -> tuple[InputFile, ...]:
    """One `InputFile` per file: rows summed over its pieces, the digest its first piece took."""
    files: dict[str, InputFile] = {}
    for piece in staged:
        for given in piece.inputs:
            seen = files.get(given.path)
            if seen is None:
                files[given.path] = given
            else:
                digest = seen.sha256 or given.sha256
                files[given.path] = InputFile(
                    given.path, digest, given.format, seen.rows + given.rows
                )
    return tuple(files.values())


def _distinct(records: pa.Table) -> pa.Table:
    """The first record of each `record_key` (pieces may each have asked one identifier)."""
    key = record_keys(records["register"], records["id_type"], records["identifier"])
    first = pc.index_in(pc.unique(key), value_set=key)
    return records.take(pc.sort_indices(first))


def _parts(out: Path, kind: str, count: int, schema: pa.Schema) -> pa.Table:
    read = [layout.read_part(layout.staged(out, kind, n)) for n in range(count)]
    return pa.concat_tables(read).cast(schema) if read else tables.empty(schema)


def read_back(out: Path, staged: Sequence[Staged], settings: Settings, started: str) -> AuditResult:
    """The whole run's `AuditResult` from the staged and finished parts in `out`."""
    from auditor.partitions.tasks import ordered_checklist

    count = len(staged)
    references = _parts(out, "refs", count, tables.REFERENCES)
    records = _distinct(_parts(out, "records", count, tables.RECORDS))
    verdicts = _parts(out, "final", count, tables.VERDICTS)
    checklist = _parts(out, "final_checklist", count, tables.CHECKLIST)
    # `duplicates/` parts hold consecutive ranges of groups: in name order, the table's order.
    parts = [layout.read_part(p) for p in sorted((out / "duplicates").glob("part-*.parquet"))]
    duplicates = (
        pa.concat_tables(parts).cast(tables.DUPLICATES)
        if parts
        else tables.empty(tables.DUPLICATES)
    )
    problems = tuple(p for piece in staged for p in piece.problems)
    loaded = LoadOutcome(references, problems, _inputs(staged))
    base_urls = (
        {} if settings.offline else {r.name: r.host.base_url(settings) for r in registry.REGISTERS}
    )
    used = search_use([piece.search_use for piece in staged])
    run = run_info(loaded, records, settings, started, base_urls=base_urls, search_use=used)
    return AuditResult(references, records, verdicts, ordered_checklist(checklist), duplicates, run)
