"""The load stage: bibliography files (BibTeX, RIS, CSV) into one `references` table.

`load_files` reads every file, picks a loader by extension (or `fmt`), and concatenates the rows
in file order with `row_id` 0..n-1, then runs `auditor.classify.classify` with no closed legs.
An unreadable file raises `InputError` naming it; a broken entry is a row with `parse_error`.
"""

from __future__ import annotations

import codecs
import gc
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa

from auditor import tables
from auditor.classify import classify
from auditor.errors import InputError
from auditor.load.bibtex import BibtexLoader
from auditor.load.cited import select_cited
from auditor.load.csv import CsvLoader
from auditor.load.interface import ENTRY_COLUMNS, Loader, LoadOutcome, Problem, Rows
from auditor.load.manuscript import is_manuscript, read_manuscript
from auditor.load.ris import RisLoader
from auditor.result import InputFile

__all__ = [
    "FORMATS",
    "LoadOutcome",
    "Loader",
    "Problem",
    "Rows",
    "decode_bytes",
    "detect_format",
    "load_files",
]

#: Format name → file extensions that select it.
FORMATS: dict[str, tuple[str, ...]] = {
    "bibtex": (".bib", ".bibtex", ".biblatex"),
    "ris": (".ris", ".nbib", ".enw", ".txt"),
    "csv": (".csv", ".tsv"),
}


def detect_format(path: str, head: str) -> str:
    """The format of `path`: by extension, else by content (`@type{`, `TY  -`, else CSV)."""
    suffix = Path(path).suffix.lower()
    for name, suffixes in FORMATS.items():
        if suffix in suffixes and suffix != ".txt":
            return name
    sample = head.lstrip("\ufeff \t\r\n")
    if sample.startswith("@") or "\n@" in head[:4096]:
        return "bibtex"
    if "TY  -" in head[:4096] or "PMID-" in head[:4096]:
        return "ris"
    return "csv"


def decode_bytes(data: bytes, path: str, encoding: str | None = None) -> str:
    """Decode a file's bytes: `encoding` if given, else UTF-8 (BOM or not), else Latin-1 for
    BibTeX/RIS written by older tools (Latin-1 decodes any byte, so it is tried last).

    Raises `InputError` naming the file and the encoding when `encoding` does not fit.
    """
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError as exc:
            raise InputError(f"{path}: unknown encoding {encoding!r}") from exc
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{path}: not valid {encoding} (byte {exc.start}: {exc.reason}); "
                "pass the file's encoding with --encoding"
            ) from exc
        return text.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _loader(fmt: str, csv_map: Mapping[str, str] | None) -> Loader:
    if fmt == "bibtex":
        return BibtexLoader()
    if fmt == "ris":
        return RisLoader()
    if fmt == "csv":
        return CsvLoader(csv_map or {})
    raise InputError(f"unknown format {fmt!r} (choose bibtex, ris or csv)")


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
) -> LoadOutcome:
    """Load every entry of every file in `paths` into one classified `references` table.

    `fmt` forces a format for all files (else by extension/content); `encoding` forces a text
    encoding (else UTF-8 with or without BOM, falling back to Latin-1 for BibTeX/RIS; CSV must
    be UTF-8); `csv_map` maps table fields to CSV column names (`{"title": "Article Title"}`).
    Raises `InputError` for a file that cannot be read or decoded; never for a bad entry.

    A manuscript in `paths` (`.tex`, `.aux`, `.bbl`, Markdown) stands for the bibliographies it
    names, and the table holds exactly the entries it cites (`auditor.load.cited`).
    """
    manuscripts = [read_manuscript(p) for p in paths if is_manuscript(p)]
    if not manuscripts:
        with _bulk_allocation():
            return _load_files(paths, fmt=fmt, encoding=encoding, csv_map=csv_map)
    named = [p for p in paths if not is_manuscript(p)]
    bibliographies = list(dict.fromkeys([b for m in manuscripts for b in m.bibliographies]))
    with _bulk_allocation():
        outcome = _load_files(
            list(dict.fromkeys([*bibliographies, *named])),
            fmt=fmt,
            encoding=encoding,
            csv_map=csv_map,
        )
    table, problems = select_cited(outcome.table, manuscripts, keep_all=named)
    return LoadOutcome(table, (*outcome.problems, *problems), outcome.inputs)


def _load_files(
    paths: Sequence[str],
    *,
    fmt: str | None,
    encoding: str | None,
    csv_map: Mapping[str, str] | None,
) -> LoadOutcome:
    columns: dict[str, list[object]] = {name: [] for name in ENTRY_COLUMNS}
    source_paths: list[str] = []
    formats: list[str] = []
    problems: list[Problem] = []
    inputs: list[InputFile] = []
    for path in paths:
        data = _read(path)
        name = fmt or detect_format(path, data[:4096].decode("latin-1"))
        if name == "csv" and not encoding:
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{path}: CSV is not UTF-8 (byte {exc.start}: {exc.reason}); "
                    "save it as UTF-8 or pass --encoding"
                ) from exc
        else:
            text = decode_bytes(data, path, encoding)
        rows, file_problems = _loader(name, csv_map).load(text, path)
        for key, values in rows.columns.items():
            columns[key].extend(values)
        n = len(rows)
        source_paths.extend([path] * n)
        formats.extend([name] * n)
        problems.extend(sorted(file_problems, key=lambda p: p.line or 0))
        inputs.append(InputFile(path, hashlib.sha256(data).hexdigest(), name, n))
    table = _table(columns, source_paths, formats)
    return LoadOutcome(classify(table), tuple(problems), tuple(inputs))


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
        arrays.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)
