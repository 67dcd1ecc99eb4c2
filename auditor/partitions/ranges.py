"""One large bibliography file cut into byte ranges at record boundaries, each range a task.

A BibTeX, RIS, MEDLINE or CSV file (CSV's rules: `auditor.partitions.csv_ranges`) larger than a
piece's bytes is scanned once, streaming, on a worker (`cut_ranges`). BibTeX is cut before a
line that starts an entry (`@type{` or `@type(` at the start of a line, not `@comment`,
`@preamble` or `@string`) where the braces so far balance as the loader's comment rule counts
them, so that each range reads as the same blocks the whole file gives. RIS is cut before a
`TY  -` line and MEDLINE before a `PMID-` line: the loaders' record cutter (`tagged.cut_records`)
starts afresh at such a line. A file is not cut at all when a range could read differently from
the whole (the rule that keeps rows exact is the simplest one): a BibTeX file that defines
`@string` macros or names a `crossref` (both need the whole database), a RIS or MEDLINE file
with a line break other than `\n` or `\r\n` (their loaders number `str.splitlines` lines), a
file that is not valid UTF-8, has NUL bytes or a UTF-16/32 byte-order mark.

Each range is then loaded on its own (`load_range`) with its lines numbered as in the whole file
(the bytes before it stand as blank lines; a CSV range after the first has the file's header
record first), counted, and checked (`ranges_agree`): no entry cut off by the end of its range
(a CSV range ends outside quotes, at a line's end), no key in two ranges (a BibTeX duplicate
key warns across the file), no range that reads to no row. If
the check fails, the file stays one piece. So rows, `source_line`s, keys and warnings are the
ones the single-process run gives.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow.compute as pc

from auditor.errors import InputError
from auditor.load import LoadOutcome, load_files
from auditor.partitions.csv_ranges import cut_csv, header_end
from auditor.partitions.plan import Piece, _fs, file_digest
from auditor.result import InputFile

__all__ = ["count_range", "cut_ranges", "format_of", "load_range", "ranges_agree", "split_files"]

#: A comment line (`%`, as `bibtex._drop_comment_lines` reads it) or a block start at a line's
#: start (`bibtex_blocks._START_RE` after blanks).
_EVENT = re.compile(rb"(?m)^[ \t]*(?:(%)[^\n]*|@(\w*)[ \t]*[{(])")
_SPECIAL = (b"comment", b"preamble", b"string")
#: What keeps a file whole, by format (see the module docstring).
_BREAKS = rb"\r(?!\n)|[\x0b\x0c\x1c-\x1e]|\xc2\x85|\xe2\x80[\xa8\xa9]"
_UNSAFE = {
    # A `crossref` field name (also one whose `=` is on the next chunk's first line), so that
    # a URL or a note naming Crossref does not keep the file whole.
    "bibtex": re.compile(rb"(?i)@string|crossref\s*(?:=|\Z)"),
    "ris": re.compile(_BREAKS),
    "medline": re.compile(_BREAKS),
}
#: The line that starts a record (`tagged.cut_records`' start tag, as each loader's tag pattern
#: reads it).
_RECORD_START = {
    "ris": re.compile(rb"(?m)^TY  ?-(?: |\r?$)"),
    "medline": re.compile(rb"(?m)^PMID *-(?: |\r?$)"),
}
_EXTENSIONS = {
    "bibtex": (".bib",),
    "ris": (".ris",),
    "medline": (".nbib", ".medline"),
    "csv": (".csv", ".tsv"),
}
_OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
_CHUNK = 8 << 20
_END_OF_FILE = "reached end of file"


@dataclasses.dataclass
class _Scan:
    """The running state of `cut_ranges` (the loader's comment-line brace count)."""

    target: int
    depth: int = 0
    pending: int = 0
    lines: int = 0
    start: int = 0
    entries: int = 0
    cuts: list[tuple[int, int]] = dataclasses.field(default_factory=list)

    def chunk(self, data: bytes, base: int) -> None:
        """Follow one chunk of whole lines starting at byte `base`."""
        last = 0
        for m in _EVENT.finditer(data):
            at = m.start()
            self.pending += data.count(b"{", last, at) - data.count(b"}", last, at)
            self.lines += data.count(b"\n", last, at)
            last = at
            if m.group(1) is not None:  # as `_drop_comment_lines`: kept only inside a value
                self.depth, self.pending = max(self.depth + self.pending, 0), 0
                if self.depth > 1:
                    braces = data.count(b"{", at, m.end()) - data.count(b"}", at, m.end())
                    self.depth = max(self.depth + braces, 0)
                self.lines += data.count(b"\n", at, m.end())
                last = m.end()
                continue
            if m.group(2).lower().startswith(_SPECIAL):
                continue
            balanced = self.depth + self.pending == 0
            if balanced and self.entries and base + at - self.start >= self.target:
                self.cuts.append((base + at, self.lines + 1))
                self.start, self.entries = base + at, 0
            self.entries += 1
        self.pending += data.count(b"{", last) - data.count(b"}", last)
        self.lines += data.count(b"\n", last)


@dataclasses.dataclass
class _TagScan:
    """The running state of `cut_ranges` for RIS and MEDLINE: lines and record starts."""

    target: int
    start_re: re.Pattern[bytes]
    lines: int = 0
    start: int = 0
    entries: int = 0
    cuts: list[tuple[int, int]] = dataclasses.field(default_factory=list)

    def chunk(self, data: bytes, base: int) -> None:
        """Follow one chunk of whole lines starting at byte `base`."""
        last = 0
        for m in self.start_re.finditer(data):
            at = m.start()
            self.lines += data.count(b"\n", last, at)
            last = at
            if self.entries and base + at - self.start >= self.target:
                self.cuts.append((base + at, self.lines + 1))
                self.start, self.entries = base + at, 0
            self.entries += 1
        self.lines += data.count(b"\n", last)


def cut_ranges(path: str, target: int, fmt: str = "bibtex") -> list[tuple[int, int, int]]:
    """`(first byte, end byte, first line)` of each range of about `target` bytes of the file
    `path` in format `fmt` (`bibtex`, `ris`, `medline` or `csv`: `csv_ranges.cut_csv`), or
    `[]` when it is not to be cut (see the module docstring). Streams the file."""
    if fmt == "csv":
        return cut_csv(path, target)
    fs, inner = _fs(path)
    scan: _Scan | _TagScan = (
        _Scan(target) if fmt == "bibtex" else _TagScan(target, _RECORD_START[fmt])
    )
    unsafe = _UNSAFE[fmt]
    decoder = codecs.getincrementaldecoder("utf-8")()
    size = 0
    with fs.open(inner, "rb") as handle:
        while data := handle.read(_CHUNK):
            data += handle.readline()  # whole lines only: no event cut in two
            if size == 0 and data.startswith(_OTHER_BOMS):
                return []
            if b"\x00" in data or unsafe.search(data):
                return []
            try:
                decoder.decode(data)
            except UnicodeDecodeError:
                return []
            # The loader reads a UTF-8 file after its byte-order mark: so does the scan.
            skip = 3 if size == 0 and data.startswith(codecs.BOM_UTF8) else 0
            scan.chunk(data[skip:], size + skip)
            size += len(data)
    starts = [(0, 1), *scan.cuts]
    ends = [s for s, _ in scan.cuts] + [size]
    return [(s, e, line) for (s, line), e in zip(starts, ends, strict=True)] if scan.cuts else []


def load_range(piece: Piece, options: Any) -> LoadOutcome:
    """The rows of one byte range of a file, lines numbered as in the whole file; the file's
    digest from its first range only. `options` is the run's `ReadOptions`. Raises
    `InputError` as `load_files` does."""
    path = piece.paths[0]
    start, end = piece.byte_range
    fs, inner = _fs(path)
    fmt = format_of(path, options.input_format) or "bibtex"
    with fs.open(inner, "rb") as handle:
        # A CSV range after the first is read after the file's header record (delimiter,
        # columns, export), which then stands for the range's first lines.
        head = _csv_header(handle) if fmt == "csv" and start else b""
        handle.seek(start)
        data = handle.read(end - start)
    blank = b"\n" * (piece.first_line - 1 - head.count(b"\n"))  # so lines count on
    loaded = load_files(
        [path],
        fmt=fmt,
        csv_map=options.csv_map,
        closed_legs=options.closed_legs,
        contents={path: head + blank + data},
        criteria=options.criteria,
    )
    # The header's own problems (a column it lacks) are the first range's.
    problems = [p for p in loaded.problems if not head or (p.line or 0) >= piece.first_line]
    digest = file_digest(path) if piece.first_of_file else ""
    inputs = (InputFile(path, digest, fmt, loaded.table.num_rows),)
    return LoadOutcome(loaded.table, tuple(problems), inputs)


def _csv_header(handle: Any) -> bytes:
    """The bytes of a CSV file up to the end of its header record (its byte-order mark too)."""
    data = b""
    while (end := header_end(data)) < 0 and (more := handle.read(1 << 16)):
        data += more
    return data[:end] if end >= 0 else data


def _key_hashes(keys: list[str]) -> np.ndarray:
    """Distinct 64-bit hashes of the lower-cased keys (a duplicate key is one in any case)."""
    out = np.fromiter(
        (
            (zlib.crc32(b) << 32) | zlib.adler32(b)
            for k in keys
            for b in [k.lower().encode("utf-8", "surrogatepass")]
        ),
        dtype=np.uint64,
        count=len(keys),
    )
    return np.unique(out)


def count_range(piece: Piece, options: Any, size: int) -> tuple[int, bool, Any]:
    """`(rows, whether no entry ran into the range's end, key hashes)` of one range of a file
    of `size` bytes (keys of BibTeX only: the other formats' records stand alone). A range that
    does not load (no row in it) is not clean: the file stays whole."""
    try:
        table = load_range(piece, options).table
    except InputError:
        return 0, False, np.array([], np.uint64)
    fmt = format_of(piece.paths[0], options.input_format)
    if fmt == "csv":
        return int(table.num_rows), _csv_clean(piece, size), np.array([], np.uint64)
    if fmt != "bibtex":
        return int(table.num_rows), True, np.array([], np.uint64)
    errors = table["parse_error"]
    cut_off = pc.any(pc.match_substring(pc.fill_null(errors, ""), _END_OF_FILE)).as_py()
    clean = piece.byte_range[1] == size or not cut_off
    keys = [k for k in table["key"].to_pylist() if k is not None]
    return int(table.num_rows), clean, _key_hashes(keys)


def _csv_clean(piece: Piece, size: int) -> bool:
    """Whether a CSV range ends outside quotes, at a line's end (or the file's): no record of
    it runs on into the next range."""
    start, end = piece.byte_range
    fs, inner = _fs(piece.paths[0])
    with fs.open(inner, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    return data.count(b'"') % 2 == 0 and (end == size or data.endswith(b"\n"))


def ranges_agree(counted: Sequence[tuple[int, bool, Any]]) -> bool:
    """Whether the ranges of one file read as the whole file does (see the module docstring)."""
    if not all(clean for _, clean, _ in counted):
        return False
    hashes = [h for _, _, h in counted]
    return len(np.unique(np.concatenate(hashes))) == sum(len(h) for h in hashes)


def format_of(path: str, input_format: str | None) -> str | None:
    """The format a file is cut by (`bibtex`, `ris`, `medline`, `csv`), or `None` (not cut):
    the forced `--input-format`, else the file's extension."""
    if input_format is not None:
        return input_format if input_format in _EXTENSIONS else None
    name = path.lower()
    return next((fmt for fmt, ends in _EXTENSIONS.items() if name.endswith(ends)), None)


def _splittable(piece: Piece, input_format: str | None, target: int) -> str | None:
    if piece.is_table or len(piece.paths) != 1 or piece.size <= target:
        return None
    return format_of(piece.paths[0], input_format)


def split_files(
    client: Any, pieces: Sequence[Piece], options: Any, target: int
) -> list[tuple[Piece, int | None]]:
    """`(piece, rows or None)` of the run, each large file's piece that can be cut replaced by
    its counted ranges (in order; the caller numbers them). `options` is the run's `ReadOptions`:
    a forced `--encoding` keeps every file whole."""
    formats = [_splittable(p, options.input_format, target) for p in pieces]
    big = [i for i, f in enumerate(formats) if f is not None and options.encoding is None]
    paths = [pieces[i].paths[0] for i in big]
    cuts = client.gather(
        client.map(cut_ranges, paths, [target] * len(big), [formats[i] for i in big], pure=False)
    )
    ranges: dict[int, list[Piece]] = {}
    agreed: dict[int, Any] = {}
    counts: dict[int, Any] = {}
    for i, cut in zip(big, cuts, strict=True):
        if not cut:
            continue
        ranges[i] = [
            dataclasses.replace(pieces[i], byte_range=(s, e), first_line=line,
                                first_of_file=s == 0, size=e - s)
            for s, e, line in cut
        ]  # fmt: skip
        size = cut[-1][1]
        counts[i] = client.map(count_range, ranges[i], options=options, size=size, pure=False)
        agreed[i] = client.submit(ranges_agree, counts[i], pure=False)
    out: list[tuple[Piece, int | None]] = []
    for i, piece in enumerate(pieces):
        if i in agreed and agreed[i].result():
            rows = client.gather(client.map(_rows, counts[i], pure=False))
            out.extend(zip(ranges[i], rows, strict=True))
        else:
            out.append((piece, None))
    return out


def _rows(counted: tuple[int, bool, Any]) -> int:
    return counted[0]
