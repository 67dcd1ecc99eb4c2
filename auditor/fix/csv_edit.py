"""A corrected copy of a CSV bibliography: changed cells rewritten, a column added when missing.

Records are matched by the line they start on (the loader's `source_line`); the file is written
back with its own delimiter and line ending. Cells that were not changed keep their text, though
the `csv` module may quote them differently than the original writer did.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from auditor.fix.bibtex_edit import Applied
from auditor.fix.changes import Change, Note
from auditor.load.csv import DEFAULT_COLUMNS

__all__ = ["edit_csv"]

_COLUMN_OF = {"author": "authors", "venue": "journal", "eprint": "arxiv"}


def _records_by_line(reader: Any) -> tuple[list[list[str]], dict[int, int]]:
    """The records after the header, and the position of each by the line it starts on."""
    records: list[list[str]] = []
    by_line: dict[int, int] = {}
    line = reader.line_num + 1
    for record in reader:
        by_line[line] = len(records)
        records.append(record)
        line = reader.line_num + 1
    return records, by_line


def edit_csv(
    text: str,
    changes: Sequence[Change],
    notes: Sequence[Note] = (),
    *,
    accept: Callable[[Change], bool] = lambda _c: True,
    column_map: Mapping[str, str] | None = None,
) -> Applied:
    """`text` with `changes` applied; CSV has no comments, so `notes` stay in the report."""
    del notes
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text.removeprefix("\ufeff")
    first = body.split("\n", 1)[0]
    delimiter = max((",", "\t", ";"), key=lambda d: (first.count(d), d == ","))
    newline = "\r\n" if "\r\n" in body else "\n"
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    header = next(reader, None)
    if header is None:
        return Applied(text, (), tuple((c, "no header row") for c in changes))
    records, by_line = _records_by_line(reader)
    columns = {**DEFAULT_COLUMNS, **(column_map or {})}
    index = {h.strip().lower(): i for i, h in enumerate(header)}
    made: list[Change] = []
    skipped: list[tuple[Change, str]] = []
    for change in changes:
        row = by_line.get(change.source_line or -1)
        if row is None:
            skipped.append((change, "record not found in the source text"))
            continue
        if not accept(change):
            continue
        column = columns.get(_COLUMN_OF.get(change.field, change.field), change.field)
        at = index.get(column.lower())
        if at is None:
            header.append(column)
            at = index[column.lower()] = len(header) - 1
        record = records[row]
        record.extend([""] * (at + 1 - len(record)))
        value = change.value
        record[at] = "; ".join(value) if isinstance(value, list) else value
        made.append(change)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator=newline)
    writer.writerow(header)
    writer.writerows(records)
    return Applied(bom + out.getvalue(), tuple(made), tuple(skipped))
