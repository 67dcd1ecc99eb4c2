"""JSON Lines shared by the dumps that are one JSON object per line (arXiv, DataCite, OpenAlex).

A line is read at most `line_bytes + 1` bytes at a time (`ImportLimits`): a longer one is
skipped to its newline in bounded reads, so a gzip whose one line inflates to gigabytes costs
the cap of memory. A line nested deeper than `json_depth` is skipped before it is parsed (the
parser and every later `json.dumps` would recurse once per level). A line that is not UTF-8
stops the import with an `InputError` naming the file and the line: a dump in another encoding
is the wrong file, and skipping its every accented line would import it half.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from auditor.dumps.interface import Skipped
from auditor.dumps.limits import ImportLimits
from auditor.errors import InputError

__all__ = ["bounded_lines", "decoded", "deeper_than", "objects"]

#: Bytes read at a time while skipping the rest of an over-long line.
_SKIP_CHUNK = 1 << 20
#: Bytes looked at per step of `deeper_than`.
_DEPTH_CHUNK = 1 << 20


def bounded_lines(stream: BinaryIO, limit: int) -> Iterator[bytes | None]:
    """Each line of `stream`, or `None` for a line longer than `limit` bytes (read past in
    chunks, never held whole)."""
    while line := stream.readline(limit + 1):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line if len(line) <= limit else None
            continue
        while (rest := stream.readline(_SKIP_CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


def deeper_than(data: bytes, cap: int) -> bool:
    """Whether the JSON text `data` nests arrays and objects more than `cap` deep. Linear and in
    C (numpy) a million bytes a step, so its memory is a few times that, whatever `data` is."""
    if data.count(b"[") + data.count(b"{") <= cap:
        return False  # the usual line: too few brackets to reach past the cap
    import numpy as np

    # Brackets inside strings do not nest: drop the escapes (left to right, as JSON pairs them),
    # then a byte is outside a string where an even number of quotes stand before it.
    plain = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    level, quotes = 0, 0
    for start in range(0, len(plain), _DEPTH_CHUNK):
        chunk = np.frombuffer(plain, np.uint8, min(_DEPTH_CHUNK, len(plain) - start), start)
        quote = chunk == ord('"')
        outside = (np.cumsum(quote, dtype=np.int64) + quotes) % 2 == 0
        opens = ((chunk == ord("[")) | (chunk == ord("{"))) & outside
        closes = ((chunk == ord("]")) | (chunk == ord("}"))) & outside
        walk = np.cumsum(opens.astype(np.int32) - closes, dtype=np.int32) + level
        if int(walk.max()) > cap:
            return True
        level, quotes = int(walk[-1]), quotes + int(quote.sum())
    return False


def decoded(data: bytes, path: str, line: int | None = None) -> str:
    """`data` as UTF-8, else `InputError` naming `path`, the line (`line`, or counted in `data`)
    and the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        number = data.count(b"\n", 0, exc.start) + 1 if line is None else line
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{path}:{number}: not UTF-8 (byte 0x{data[exc.start : exc.start + 1].hex()} at "
            f"column {column}); a dump is read as UTF-8: convert the file (iconv -f ENCODING "
            "-t UTF-8) and import again"
        ) from None


def objects(
    stream: BinaryIO, path: str, limits: ImportLimits | None = None
) -> Iterator[tuple[int, dict[str, Any]] | Skipped]:
    """`(line number, object)` for each JSON-object line; a bad line is a `Skipped`.

    Raises `InputError` naming `path:line` at the first line that is not UTF-8."""
    caps = limits or ImportLimits()
    for number, line in enumerate(bounded_lines(stream, caps.line_bytes), 1):
        where = f"{path}:{number}"
        if line is None:
            yield Skipped(
                where, f"line longer than {caps.line_bytes:,} bytes (import_max_line_bytes)"
            )
            continue
        text = decoded(line, path, number)
        if not text.strip():
            continue
        if deeper_than(line, caps.json_depth):
            yield Skipped(
                where, f"JSON nested deeper than {caps.json_depth:,} (import_max_json_depth)"
            )
            continue
        try:
            value = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            yield Skipped(where, f"not JSON ({exc})")
            continue
        if not isinstance(value, dict):
            yield Skipped(where, "not a JSON object")
            continue
        yield number, value
