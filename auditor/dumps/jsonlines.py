"""JSON Lines shared by the dumps that are one JSON object per line (arXiv, DataCite).

A line is read at most `MAX_LINE + 1` bytes at a time: a longer one is skipped to its newline
in bounded reads, so a gzip whose one line inflates to gigabytes costs `MAX_LINE` of memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from auditor.dumps.interface import Skipped

#: A line longer than this is not a record (it would be held in memory whole).
MAX_LINE = 16 << 20


#: Bytes read at a time while skipping the rest of an over-long line.
_SKIP_CHUNK = 1 << 20


def bounded_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes | None]:
    """Each line of `stream`, or `None` for a line longer than `limit` bytes (read past in
    chunks, never held whole)."""
    while line := stream.readline(limit + 1):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line if len(line) <= limit else None
            continue
        while (rest := stream.readline(_SKIP_CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


def objects(stream: BinaryIO, path: str) -> Iterator[tuple[int, dict[str, Any]] | Skipped]:
    """`(line number, object)` for each JSON-object line; a bad line is a `Skipped`."""
    for number, line in enumerate(bounded_lines(stream, MAX_LINE), 1):
        if line is None:
            yield Skipped(f"{path}:{number}", f"line longer than {MAX_LINE} bytes")
            continue
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            yield Skipped(f"{path}:{number}", f"not JSON ({exc})")
            continue
        if not isinstance(value, dict):
            yield Skipped(f"{path}:{number}", "not a JSON object")
            continue
        yield number, value
