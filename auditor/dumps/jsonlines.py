"""JSON Lines shared by the dumps that are one JSON object per line (arXiv, DataCite)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from auditor.dumps.interface import Skipped

#: A line longer than this is not a record (it would be held in memory whole).
MAX_LINE = 16 << 20


def objects(stream: BinaryIO, path: str) -> Iterator[tuple[int, dict[str, Any]] | Skipped]:
    """`(line number, object)` for each JSON-object line; a bad line is a `Skipped`."""
    for number, line in enumerate(stream, 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            yield Skipped(f"{path}:{number}", f"line longer than {MAX_LINE} bytes")
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
