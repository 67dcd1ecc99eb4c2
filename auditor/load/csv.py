"""CSV loader: a header row, then one reference per record.

Columns are found by name, case-insensitively: `key,type,id,title,authors,year,journal,volume,
issue,pages,issn,language,url,doi,pmid,arxiv`, or the names database exports give them (Scopus,
PubMed, Embase, Zotero: `auditor.load.csv_exports`), each overridable (`{"title": "Headline"}`).
Authors are separated by `;` (a comma only in the exports that write them so). The delimiter is
`,` unless the header says tab or `;`. Records may span lines (quoted newlines); `source_line`
is the line a record starts on.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from typing import ClassVar

from auditor.errors import InputError
from auditor.load.csv_exports import Export, derive, recognise
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names

__all__ = ["DEFAULT_COLUMNS", "CsvLoader", "delimiter"]

#: Field → default column name (a field missing from the file is null).
DEFAULT_COLUMNS: dict[str, str] = {
    name: name
    for name in (
        "key", "type", "id", "title", "authors", "year", "journal", "volume", "issue", "pages",
        "issn", "language", "url", "doi", "pmid", "arxiv",
    )
}  # fmt: skip
#: `--map` may also use the `references` column names.
_ALIASES = {
    "container_title": "journal",
    "declared_type": "type",
    "id_raw": "id",
    "author": "authors",
}
_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_BARE_ISSN = re.compile(r"^\d{7}[\dXx]$")  # Scopus writes `19326203`

csv.field_size_limit(1 << 24)  # abstracts in database exports exceed the 128 KiB default


def delimiter(header: str) -> str:
    """The delimiter of a CSV file whose first line is `header`: `,` unless tab or `;` is more
    frequent."""
    counts = {d: header.count(d) for d in (",", "\t", ";")}
    return max(counts, key=lambda d: (counts[d], d == ","))


class CsvLoader(Loader):
    """Loads `.csv` files with a header row."""

    format: ClassVar[str] = "csv"

    def __init__(self, column_map: Mapping[str, str] | None = None) -> None:
        self.columns = dict(DEFAULT_COLUMNS)
        self.mapped: dict[str, str] = {}
        for field, column in (column_map or {}).items():
            name = _ALIASES.get(field.strip().lower(), field.strip().lower())
            if name not in DEFAULT_COLUMNS:
                known = ", ".join(DEFAULT_COLUMNS)
                raise InputError(f"--map: unknown field {field!r} (known: {known})")
            self.columns[name] = self.mapped[name] = column.strip()

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record after the header, in file order."""
        rows, problems = Rows(), []
        text = text.removeprefix("\ufeff")
        first = text.split("\n", 1)[0]
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(first))
        try:
            header = next(reader)
        except (StopIteration, csv.Error):
            return rows, [Problem(path, 1, "no header row", "error")] if text.strip() else []
        export = recognise(header, self.columns, self.mapped)
        if not export.columns and not self.mapped and not path.lower().endswith((".csv", ".tsv")):
            # A file no format recognised lands here; read as CSV it would give one INVALID row
            # per line (a Web of Science export once gave 6,266): one error naming it instead.
            message = (
                "not a bibliography format auditor reads (no BibTeX, RIS, Web of Science, "
                "MEDLINE, EndNote or CSL-JSON signature, and no known CSV column in line 1); "
                "pass --input-format to force one"
            )
            rows.add(source_line=1, parse_error=message)
            return rows, [Problem(path, 1, message, "error", "unrecognised format")]
        # An export the names of `csv_exports` do not cover loses its authors or year silently
        # without them, so the header's gap is named once.
        for field in ("title", "authors", "year"):
            if field not in export.columns and field not in export.derived():
                column = self.columns[field]
                problems.append(
                    Problem(
                        path,
                        1,
                        f"no {column!r} column in the header; name the file's column with "
                        f"--map {field}=COLUMN",
                        "warning",
                    )
                )
        line = reader.line_num + 1
        while True:
            try:
                record = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                message = f"unreadable CSV record: {exc}"
                rows.add(source_line=line, parse_error=message)
                problems.append(Problem(path, line, message, "error"))
                line = reader.line_num + 1
                continue
            start, line = line, reader.line_num + 1
            if not any(cell.strip() for cell in record):
                continue  # blank lines are not references
            warnings = []
            if len(record) == len(header) + 1 and not record[-1].strip():
                record = record[:-1]  # a trailing comma (PubMed's old export ends every row so)
            if len(record) != len(header):
                warnings.append(f"{len(record)} cells for {len(header)} header columns")
            self._row(rows, record, export, start, warnings)
            problems.extend(Problem(path, start, w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _row(rows: Rows, record: list[str], export: Export, line: int, warnings: list[str]) -> None:
        def cell(i: int | None) -> str | None:
            if i is None or i >= len(record):
                return None
            return record[i].strip() or None

        extra = derive(export, cell)

        def get(field: str) -> str | None:
            found = (cell(i) for i in export.columns.get(field, ()))
            return next((v for v in found if v), None) or extra.get(field)

        authors, et_al = clean_author_list(export.split_authors(get("authors") or ""))
        year_text = get("year")
        m = _YEAR_RE.search(year_text or "")
        if year_text and not m:
            warnings.append(f"year {year_text!r} is not a year")
        rows.add(
            source_line=line,
            key=get("key"),
            entry_type=None,
            declared_type=get("type"),
            id_raw=get("id"),
            doi=get("doi"),
            pmid=get("pmid"),
            arxiv=get("arxiv"),
            title=" ".join(t.split()) if (t := get("title")) else None,
            authors=authors,
            author_names=family_given_names(authors),
            authors_et_al=et_al,
            year=int(m.group(1)) if m else None,
            container_title=get("journal"),
            volume=get("volume"),
            issue=get("issue"),
            pages=get("pages"),
            issn=f"{issn[:4]}-{issn[4:]}"
            if (issn := get("issn")) and _BARE_ISSN.match(issn)
            else issn,
            language=get("language"),
            url=get("url"),
            warnings=warnings,
        )
