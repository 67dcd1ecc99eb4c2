"""Where a large CSV file may be cut so that each byte range reads as the whole file does.

The CSV loader (`auditor.load.csv`) reads the header row, picks its delimiter from the first
line, then reads records with Python's `csv` module (quote `"`, doubled `""` inside quotes, no
escape character), numbering each by the physical line it starts on. The module's reader starts
every record afresh, so a record read from its first byte reads the same wherever it stands.

`cut_csv` scans the file once, streaming, and cuts before a line start that is outside a quoted
field, where the line's first cell is not blank (so no range is only blank lines and reads to
no row). It counts quotes: in a file that keeps the grammar below, an even count of `"` before
a position means the position is outside quotes. The file stays whole (`[]`) when a range could
read otherwise than the whole (when in doubt, it is not cut):

- a record outside the grammar the count assumes: each cell either unquoted without any `"`,
  or quoted from its first to its last character (`"…""…"` right before a delimiter or line
  end). A quote in mid-cell, a space before a quote or after a closing one, or a quote never
  closed, all read otherwise in the `csv` module than a count of quotes says;
- a line break other than `\n` or `\r\n` (the module counts a lone `\r` as a line), a NUL byte,
  bytes that are not UTF-8, a UTF-16/32 byte-order mark;
- a record as long as the module's field limit (past it the module errs and resumes mid-record);
- a file whose name is not `.csv`/`.tsv`, or whose head `detect_format` reads as another format.

`header_end` gives the end of the header record: each range after the first is read with those
bytes before it (`ranges.load_range`), so it reads the same header, delimiter and export.
"""

from __future__ import annotations

import codecs
import csv
import re
from typing import Any

from auditor.load.csv import delimiter
from auditor.load.formats import detect_format
from auditor.partitions.plan import _fs

__all__ = ["cut_csv", "header_end", "is_cut_csv"]

_CHUNK = 4 << 20
_OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
_UNSAFE = re.compile(rb"\x00|\r(?!\n)")
_EXTENSIONS = (".csv", ".tsv")


def is_cut_csv(path: str) -> bool:
    """Whether `path` is named as a CSV file this module may cut."""
    return path.lower().endswith(_EXTENSIONS)


def _grammar(delim: bytes) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """`(whole records, a line start whose first cell is not blank)` for delimiter `delim`.

    Possessive: the `csv` module takes `""` inside quotes as an escaped quote, never as a close
    and an open, and so does the pattern, without backtracking."""
    d = re.escape(delim)
    cell = rb'(?:"[^"]*+(?:""[^"]*+)*+"|[^"' + d + rb"\r\n]*+)"
    line = cell + rb"(?:" + d + cell + rb")*+"
    records = re.compile(rb"(?:" + line + rb"\r?\n)*+(?:" + line + rb")?")
    printable = bytes(c for c in range(0x21, 0x7F) if c not in (0x22, delim[0]))
    start = re.compile(rb"(?m)^(?:[ \t]*[" + re.escape(printable) + rb']|"[ \t]*[!#-~])')
    return records, start


def header_end(data: bytes) -> int:
    """End (after its line break) of the header record of a file starting with `data`, or
    `-1` when `data` holds no whole header record."""
    at = data.find(b"\n")
    while at >= 0 and data.count(b'"', 0, at) % 2:
        at = data.find(b"\n", at + 1)
    return at + 1 if at >= 0 else -1


class _CsvScan:
    """The running state of `cut_csv`: lines of the whole records so far, and the cuts."""

    def __init__(self, target: int, head: bytes, header: int) -> None:
        first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
        self.records, self.start_re = _grammar(delimiter(first).encode())
        self.target = target
        self.header = header
        self.lines = 0
        self.start = 0
        self.first = -1  # the first data record's start: range 0 holds it
        self.cuts: list[tuple[int, int]] = []

    def chunk(self, data: bytes, base: int) -> bool:
        """Follow `data`, whole records starting at byte `base` of the file; `False` when
        they are outside the grammar (the file is not to be cut)."""
        if self.records.fullmatch(data) is None:
            return False
        at = quotes = lines = counted = 0  # `"` and `\n` in data[:counted]
        while True:
            want = max(self.start + self.target, self.first + 1) if self.first >= 0 else 0
            m = self.start_re.search(data, max(want - base, self.header - base, at))
            if m is None:
                break
            at = m.start()
            quotes += data.count(b'"', counted, at)
            lines += data.count(b"\n", counted, at)
            counted = at
            if quotes % 2 == 0:  # outside quotes (data[0] is)
                if self.first < 0:
                    self.first = base + at
                else:
                    self.cuts.append((base + at, self.lines + lines + 1))
                    self.start = base + at
            at += 1
        self.lines += data.count(b"\n")
        return True


def _read(handle: Any) -> bytes:
    data: bytes = handle.read(_CHUNK)
    return data + handle.readline() if data else data  # whole lines: no line break cut in two


def cut_csv(path: str, target: int) -> list[tuple[int, int, int]]:
    """`(first byte, end byte, first line)` of each range of about `target` bytes of the CSV
    file `path`, or `[]` when it is not to be cut (see the module docstring). Streams it."""
    if not is_cut_csv(path):
        return []
    fs, inner = _fs(path)
    with fs.open(inner, "rb") as handle:
        data = _read(handle)
        if not data or data.startswith(_OTHER_BOMS) or not _is_csv(path, data):
            return []
        # The loader reads a UTF-8 file after its byte-order mark: so does the scan.
        skip = 3 if data.startswith(codecs.BOM_UTF8) else 0
        header = header_end(data[skip:])
        if header < 0:
            return []
        scan = _CsvScan(target, data[skip:], skip + header)
        size = _scan(handle, data, skip, scan)
    if size < 0:
        return []
    cuts = [c for c in scan.cuts if c[0] < size]
    starts = [(0, 1), *cuts]
    ends = [s for s, _ in cuts] + [size]
    return [(s, e, line) for (s, line), e in zip(starts, ends, strict=True)] if cuts else []


def _scan(handle: Any, data: bytes, skip: int, scan: _CsvScan) -> int:
    """Follow the file from its first chunk `data` to its end: its size, or `-1` when it is
    not to be cut."""
    limit = csv.field_size_limit()
    decoder = codecs.getincrementaldecoder("utf-8")()
    size, at, buf = 0, skip, b""
    while data:
        if _UNSAFE.search(data) or _bad_utf8(decoder, data):
            return -1
        buf += data[skip:]
        size, skip = size + len(data), 0
        if len(buf) >= limit:
            return -1  # a record that long: the `csv` module errs in it and reads on mid-record
        whole = _records_end(buf)  # after it, a quoted cell runs on into the next chunk
        if whole and not scan.chunk(buf[:whole], at):
            return -1
        at, buf = at + whole, buf[whole:]
        data = _read(handle)
    if buf or _bad_utf8(decoder, b"", final=True):
        return -1  # a quote never closed, or a character cut off at the end
    return size


def _records_end(buf: bytes) -> int:
    """End of the last line of `buf` that ends outside quotes (after an even count of `"`)."""
    end, quotes = len(buf), buf.count(b'"')
    while quotes % 2 and (at := buf.rfind(b"\n", 0, end - 1)) >= 0:
        quotes -= buf.count(b'"', at + 1, end)
        end = at + 1
    return end if quotes % 2 == 0 else 0


def _is_csv(path: str, head: bytes) -> bool:
    """Whether the loader reads the file as CSV (a Web of Science tab export named `.csv`
    is read as that export)."""
    text = head[: 4 << 12].decode("utf-8", "ignore").removeprefix("\ufeff")
    return detect_format(path, text[:4096]) == "csv"


def _bad_utf8(decoder: codecs.IncrementalDecoder, data: bytes, final: bool = False) -> bool:
    try:
        decoder.decode(data, final=final)
    except UnicodeDecodeError:
        return True
    return False
