"""The load stage: bibliography files (BibTeX, RIS, Web of Science, MEDLINE, EndNote, CSV) and
documents (PDF, Word `.docx`, text reference lists: `auditor.load.documents`) into one `references`
table.

`load_files` reads every file, picks a loader by extension (or `fmt`), and concatenates the rows
in file order with `row_id` 0..n-1, then runs `auditor.classify.classify` once (with the closed
legs the caller names).
An unreadable file raises `InputError` naming it; a broken entry is a row with `parse_error`.
"""

from __future__ import annotations

import gc
import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.errors import InputError
from auditor.lists_to_arrow import to_array
from auditor.load.caps import cap_references
from auditor.load.citation_tags import is_manubot_key
from auditor.load.cited import select_cited
from auditor.load.encoding import decode_bytes
from auditor.load.formats import FORMATS, detect_format, is_manuscript_file, loader_for
from auditor.load.interface import ENTRY_COLUMNS, Loader, LoadOutcome, Problem, Rows
from auditor.load.table import is_table, load_tables
from auditor.result import InputFile
from auditor.tables import DEFAULT_CRITERIA

if TYPE_CHECKING:  # the documents package is imported when a document is read
    from auditor.load.documents.grobid import GrobidAnswer
    from auditor.load.documents.limits import DocumentLimits
    from auditor.load.manuscript import Manuscript

__all__ = [
    "FORMATS",
    "LoadOutcome",
    "Loader",
    "Problem",
    "Rows",
    "aggregate",
    "decode_bytes",
    "detect_format",
    "load_files",
]


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc


@contextmanager
def _bulk_allocation() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while millions of small objects are built.

    Parsing allocates blocks, fields, strings and rows that are nearly all acyclic; the cyclic
    collector would rescan the growing heap over and over (at 100,000 entries that is most of
    the gap to a bare parse). Reference counting still frees everything, and the collector is
    switched back on (if it was on) when loading ends, even on error.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_files(
    paths: Sequence[str],
    *,
    fmt: str | None = None,
    encoding: str | None = None,
    csv_map: Mapping[str, str] | None = None,
    closed_legs: frozenset[str] = frozenset(),
    grobid: Mapping[str, GrobidAnswer] | None = None,
    contents: Mapping[str, bytes] | None = None,
    criteria: str = DEFAULT_CRITERIA,
    within: Path | None = None,
    limits: DocumentLimits | None = None,
) -> LoadOutcome:
    """Load every entry of every file in `paths` into one classified `references` table.

    `closed_legs` are the identifier types the criteria's leg switches close, `criteria` the
    criteria id of the run (`classify`: does a row cited by identifier alone need a title).
    `fmt` forces a format for all files (else by extension/content); `encoding` forces a text
    encoding (else by BOM, then UTF-8 line by line with a Windows-1252/Latin-1 fallback per line
    that is named in a warning; CSV must be UTF-8); `csv_map` maps table fields to CSV column
    names (`{"title": "Article Title"}`); `grobid` GROBID's answers for the PDFs, by the
    SHA-256 of each file's bytes (`auditor.grobid.ask_about_pdfs`; `None`: the built-in reader
    reads them); `contents` UTF-8 bytes to read in place of some of the paths' files, as a
    `filecontents` bibliography is read (a cluster task's byte range of a large file,
    `auditor.partitions.ranges`); `within` a folder no manuscript's named file may be outside
    (the service's upload folder; each manuscript's own folder tree bounds it anyway);
    `limits` the caps on what one PDF or Word file may cost
    (`DocumentLimits`, the defaults when not given).
    Raises `InputError` for a file that cannot be read or decoded; never for a bad entry. A PDF
    or Word file that cannot be read (damaged, encrypted, past a cap) is an error naming it, and
    the other inputs are still read; the `InputError` comes only when none gave a row.

    A manuscript in `paths` (`.tex`, `.aux`, `.bbl`, Markdown) stands for the bibliographies it
    names, and the table holds exactly the entries it cites (`auditor.load.cited`).

    Inputs that give no row at all raise `InputError` ("no references in FILE"): an empty
    bibliography is never a silent pass. A file with no entries among others that have some is
    a warning naming it.
    """
    reading = _Reading(fmt, encoding, csv_map, closed_legs, grobid, criteria, within, limits)
    outcome = _load_any(paths, reading, contents)
    if not outcome.table.num_rows:
        unread = [f"{p.path}: {p.message}" for p in outcome.problems if p.kind == _UNREADABLE]
        raise InputError("; ".join(unread) or f"no references in {', '.join(paths)}")
    return _warn_empty(outcome)


def _warn_empty(outcome: LoadOutcome) -> LoadOutcome:
    """`outcome` with a warning naming each input file that gave no row."""
    empty = [
        Problem(i.path, None, "no references in this file", "warning", "no references")
        for i in outcome.inputs
        if not i.rows
    ]
    if not empty:
        return outcome
    return LoadOutcome(outcome.table, (*outcome.problems, *empty), outcome.inputs)


@dataclass(frozen=True)
class _Reading:
    """How `load_files` was asked to read (its keyword arguments, handed down once)."""

    fmt: str | None
    encoding: str | None
    csv_map: Mapping[str, str] | None
    closed_legs: frozenset[str]
    grobid: Mapping[str, GrobidAnswer] | None
    criteria: str
    within: Path | None
    limits: DocumentLimits | None


def _load_any(
    paths: Sequence[str], reading: _Reading, contents: Mapping[str, bytes] | None
) -> LoadOutcome:
    # Parquet / JSON Lines references tables (no row of theirs is a manuscript's: no criteria)
    if any(is_table(p, reading.fmt) for p in paths):
        return load_tables(
            paths, fmt=reading.fmt, column_map=reading.csv_map, closed_legs=reading.closed_legs
        )
    named = [p for p in paths if is_manuscript_file(p)]
    if not named:
        with _bulk_allocation():
            return _load_files(paths, reading, embedded=contents)
    # imported here: the manuscript readers (YAML, Markdown) cost a bibliography's load 15 ms
    from auditor.load.manuscript_reader import read_manuscript

    manuscripts = [read_manuscript(p, within=reading.within) for p in named]
    return _load_manuscripts(manuscripts, [p for p in paths if not is_manuscript_file(p)], reading)


def _load_manuscripts(
    manuscripts: Sequence[Manuscript], named: list[str], reading: _Reading
) -> LoadOutcome:
    """The cited entries of `manuscripts`, from the bibliographies they name and `named` (the
    files given beside them: kept whole, unless no manuscript names a bibliography, in which case
    they are the manuscripts' bibliographies and only their cited entries are audited).

    Raises `InputError` when there is no bibliography to read at all and nothing is cited by
    identifier (a manubot manuscript may cite only `@doi:…` keys and need none).
    """
    bibliographies = list(dict.fromkeys([b for m in manuscripts for b in m.bibliographies]))
    # a file named outside a manuscript's tree, and given on the command line, is its bibliography
    refused = {Path(r).resolve(): f for m in manuscripts for r, f in m.refused.items()}
    vouched = {p: refused[Path(p).resolve()] for p in named if Path(p).resolve() in refused}
    bibliographies += [p for p in vouched if p not in bibliographies]
    # manubot: keys by identifier (or `@tag:` keys standing for them) need no bibliography
    by_identifier = any(is_manubot_key(c.key, c.path) for m in manuscripts for c in m.citations)
    if not bibliographies and not named and not by_identifier:
        raise InputError(_no_bibliography(manuscripts))
    embedded = {k: v.encode("utf-8") for m in manuscripts for k, v in m.embedded.items()}
    with _bulk_allocation():
        outcome = _load_files(
            list(dict.fromkeys([*bibliographies, *named])), reading, embedded=embedded
        )
    keep_all = [p for p in named if p not in vouched] if bibliographies else []
    table, problems = select_cited(
        outcome.table,
        manuscripts,
        keep_all,
        closed_legs=reading.closed_legs,
        criteria=reading.criteria,
    )
    answered = {id(f) for _, said in vouched.values() for f in said}  # the user gave the file
    read = [p for m in manuscripts for p in m.problems if id(p) not in answered]
    return LoadOutcome(table, (*read, *outcome.problems, *problems), outcome.inputs)


def _no_bibliography(manuscripts: Sequence[Manuscript]) -> str:
    missing = [b for m in manuscripts for b in m.missing]
    refused = [name for m in manuscripts for name, _ in m.refused.values()]
    names = ", ".join(m.path for m in manuscripts)
    if refused:
        return (
            f"{names}: no bibliography read ({', '.join(refused)}: outside the manuscript's "
            "folder, not read); give the .bib files on the command line"
        )
    if missing:
        return f"{names}: no bibliography found ({', '.join(missing)} not found)"
    return (
        f"{names}: names no bibliography (no \\bibliography, \\addbibresource, \\bibdata "
        "or bibliography: line); give the .bib files on the command line too"
    )


def _decode(
    data: bytes, path: str, fmt: str | None, encoding: str | None
) -> tuple[str, str, list[Problem]]:
    """`(format, text, file-level warnings)` of one file's bytes."""
    decoded = decode_bytes(data, path, encoding)
    name = fmt or detect_format(path, decoded.text[:4096])
    if name == "csv" and decoded.fallback_lines:
        # spreadsheets save a whole file in one encoding: a mixed guess would be a silent mess
        raise InputError(
            f"{path}: CSV is not UTF-8 (line {decoded.fallback_lines[0]}); "
            "save it as UTF-8 or pass --encoding"
        )
    warnings = [Problem(path, None, w, "warning", "encoding") for w in decoded.warnings()]
    return name, decoded.text, warnings


def _load_files(
    paths: Sequence[str], reading: _Reading, *, embedded: Mapping[str, bytes] | None = None
) -> LoadOutcome:
    fmt, encoding, csv_map = reading.fmt, reading.encoding, reading.csv_map
    columns: dict[str, list[object]] = {name: [] for name in ENTRY_COLUMNS}
    source_paths: list[str] = []
    formats: list[str] = []
    problems: list[Problem] = []
    inputs: list[InputFile] = []
    files: list[tuple[str, str, bytes, str, list[Problem]]] = []
    from auditor.load.document_kind import binary_kind

    loaded: dict[int, tuple[Rows, list[Problem]]] = {}
    for path in paths:
        if embedded and path in embedded:  # a `filecontents` bibliography inside a .tex
            data = embedded[path]
            name, text, warnings = _decode(data, path, fmt or "bibtex", "utf-8")
            files.append((path, name, data, text, warnings))
            continue
        data = _read(path)
        kind = binary_kind(path, data[:16]) if fmt in (None, "pdf", "docx", "odt") else None
        if kind is not None:  # a PDF or Word file is read from its bytes
            loaded[len(files)] = _document(kind, data, path, reading)
            files.append((path, kind, data, "", []))
            continue
        name, text, warnings = _decode(data, path, fmt, encoding)
        files.append((path, name, data, text, warnings))
    # each format reads all its files at once, in order: BibTeX files are one database
    for name in dict.fromkeys(f[1] for i, f in enumerate(files) if i not in loaded):
        which = [i for i, f in enumerate(files) if f[1] == name and i not in loaded]
        results = loader_for(name, csv_map).load_all([(files[i][3], files[i][0]) for i in which])
        loaded.update(zip(which, results, strict=True))
    for i, (path, name, data, _text, warnings) in enumerate(files):
        rows, file_problems = loaded[i]
        for key, values in rows.columns.items():
            columns[key].extend(values)
        n = len(rows)
        source_paths.extend([path] * n)
        formats.extend([name] * n)
        problems.extend(warnings)
        problems.extend(aggregate(sorted(file_problems, key=lambda p: p.line or 0)))
        inputs.append(InputFile(path, hashlib.sha256(data).hexdigest(), name, n))
    table = _table(columns, source_paths, formats)
    capped, over = cap_references(classify(table, closed_legs=reading.closed_legs))
    return LoadOutcome(capped, (*problems, *aggregate(over)), tuple(inputs))


#: The `Problem.kind` of a PDF or Word file that could not be read at all.
_UNREADABLE = "unreadable document"


def _document(kind: str, data: bytes, path: str, reading: _Reading) -> tuple[Rows, list[Problem]]:
    """The rows of one PDF or Word file; one that cannot be read costs its own rows, not the
    run's: an error naming it, and the other inputs are still read."""
    from auditor.load.documents import binary_loader

    try:
        return binary_loader(kind, reading.grobid, reading.limits).load_bytes(data, path)
    except InputError as exc:
        message = str(exc).removeprefix(f"{path}: ")
        return Rows(), [Problem(path, None, message, "error", _UNREADABLE)]


_KIND_RE = re.compile(r"[:'(`\"]")
_QUOTED_RE = re.compile(r"'[^']{1,60}'")


def aggregate(problems: Sequence[Problem], *, keep: int = 5) -> list[Problem]:
    """Collapse one file's problems of one kind beyond `keep` into one line with their count.

    A file with 20,000 duplicate keys gives five `duplicate key` lines and one
    `duplicate key: 19,995 more like this (on lines 6, 7, …; 'k6', …)` (the first few lines and
    the keys or values their messages quote); each row still carries its own warning.
    """
    counts: dict[tuple[str, str], int] = {}
    out: list[Problem] = []
    rest: dict[tuple[str, str], list[Problem]] = {}
    for p in problems:
        k = (p.kind or _KIND_RE.split(p.message, maxsplit=1)[0].strip(), p.severity)
        counts[k] = counts.get(k, 0) + 1
        if counts[k] <= keep:
            out.append(p)
        else:
            rest.setdefault(k, []).append(p)
    for (kind, severity), more in rest.items():
        lines = ", ".join(str(p.line) for p in more[:5] if p.line)
        keys = ", ".join(
            dict.fromkeys(m.group(0) for p in more[:5] if (m := _QUOTED_RE.search(p.message)))
        )
        named = f"; {keys}, …" if keys else ""
        message = f"{kind}: {len(more):,} more like this (on lines {lines}, …{named})"
        out.append(Problem(more[0].path, more[0].line, message, severity, kind))
    return out


def _table(columns: dict[str, list[object]], paths: list[str], formats: list[str]) -> pa.Table:
    n = len(paths)
    schema = tables.REFERENCES
    arrays = []
    for field in schema:
        if field.name == "row_id":
            values: Sequence[object] = range(n)
        elif field.name == "source_path":
            values = paths
        elif field.name == "source_format":
            values = formats
        else:
            values = columns.get(field.name, [None] * n)
        arrays.append(to_array(values, field.type))
    return pa.Table.from_arrays(arrays, schema=schema)
