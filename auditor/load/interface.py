"""The loader interface: one `Loader` per bibliography format, and the values they hand back.

A loader turns the decoded text of one file into `Rows` (columns of the `references` table, one
entry per row, in file order) plus `Problem`s. A broken entry is data, not an exception: it
becomes a row with `parse_error` set, and the loader goes on with the next entry.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pyarrow as pa

from auditor.result import InputFile

__all__ = ["ENTRY_COLUMNS", "LoadOutcome", "Loader", "Problem", "Rows"]


@dataclass(frozen=True)
class Problem:
    """Something wrong with one entry (or the file), with where it is."""

    path: str
    """The file as the user named it."""
    line: int | None
    """1-based line the entry starts on, or `None` for the whole file."""
    message: str
    """What is wrong, for a person."""
    severity: str = "error"
    """`error` (the row is `INVALID`) or `warning` (the row still counts)."""
    kind: str | None = None
    """A short name for problems of one kind (`duplicate key`), so many can be counted as one;
    `None`: the message's words before its first quote, colon or parenthesis."""


@dataclass(frozen=True)
class LoadOutcome:
    """Everything `load_files` read: the `references` table, its problems and its input files."""

    table: pa.Table
    """Schema `tables.REFERENCES`; `row_id` 0..n-1 in file order across all files."""
    problems: tuple[Problem, ...]
    """Every parse error and warning, in file order."""
    inputs: tuple[InputFile, ...]
    """One per file read, with its digest and row count."""


#: The `references` columns a loader fills; `load_files` adds row_id/source_path/source_format,
#: and `classify` the identifier columns it derives.
ENTRY_COLUMNS: tuple[str, ...] = (
    "source_line", "key", "entry_type", "declared_type", "id_raw", "doi", "pmid", "arxiv",
    "title", "authors", "authors_et_al", "author_names", "year", "container_title", "volume",
    "issue", "pages", "issn", "language", "url", "parse_error", "warnings", "title_as_written",
    "howpublished", "note", "publisher", "reference_text", "source_page", "source_label",
    "cited_at", "field_confidence",
)  # fmt: skip


@dataclass
class Rows:
    """Entries being collected by a loader, one `add` per entry, read back as columns."""

    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def add(self, **values: Any) -> None:
        """Append one entry; a column not named is null (`warnings` becomes an empty list)."""
        self.rows.append(tuple(map(values.get, ENTRY_COLUMNS)))

    @property
    def columns(self) -> dict[str, list[Any]]:
        """The entries as `ENTRY_COLUMNS` → list of values (transposed in one C-level pass)."""
        if not self.rows:
            return {name: [] for name in ENTRY_COLUMNS}
        transposed = zip(*self.rows, strict=True)
        cols = {name: list(col) for name, col in zip(ENTRY_COLUMNS, transposed, strict=True)}
        cols["warnings"] = [w or [] for w in cols["warnings"]]
        return cols

    def __len__(self) -> int:
        return len(self.rows)


class Loader(abc.ABC):
    """Reads one bibliography format."""

    format: ClassVar[str]
    """bibtex | ris | wos | medline | endnote | csv: the value of `source_format`."""

    @abc.abstractmethod
    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """Parse `text` (the decoded file named `path`) into one row per entry, never raising."""

    def load_all(self, files: Sequence[tuple[str, str]]) -> list[tuple[Rows, list[Problem]]]:
        """Parse several `(text, path)` files of this format given in one run, in order.

        Files are independent unless a format says otherwise (BibTeX: one database).
        """
        return [self.load(text, path) for text, path in files]
