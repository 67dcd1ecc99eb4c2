"""CSV outputs that open cleanly in Excel and LibreOffice.

UTF-8 with a byte-order mark (so Excel detects the encoding), lists joined with `; `, nulls as
empty cells. Text a spreadsheet would run as a formula gets a `'` in front: bibliography text is
untrusted, and a user may open the file splitting on `;`, tab or `|` rather than `,`, so every
piece that *starts* a cell under any of those splits is guarded, not only the cell's start
(`harmless;=1+1;x` becomes `harmless;'=1+1;x`). A piece starts a formula when its first
non-space character is `=`, `+`, `-`, `@` or a control character (tab, CR, LF …).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from auditor.report.interface import ReportFormat, atomic_write_text
from auditor.report.rows import report_verdicts
from auditor.report.words import update_text
from auditor.result import AuditResult

__all__ = ["CsvReport", "LIST_SEPARATOR", "table_csv"]

#: How list cells (authors, links, sources tried) are joined.
LIST_SEPARATOR = "; "

#: Where a spreadsheet may start a cell: the text's start, or after a delimiter it may split on.
_PIECE_START = re.compile("(^|[,;\t|])( *)(?=[=+\\-@\x00-\x1f\x7f])")


def _defuse(value: str | None) -> str | None:
    """Put `'` before every piece of `value` a spreadsheet would evaluate (CSV injection)."""
    if not value:
        return value
    return _PIECE_START.sub(r"\1\2'", value)


def _flatten(table: pa.Table) -> pa.Table:
    """Lists joined with `LIST_SEPARATOR`, strings defused; other types unchanged."""
    columns: list[pa.Array | pa.ChunkedArray] = []
    fields: list[pa.Field] = []
    for field, column in zip(table.schema, table.columns, strict=True):
        if pa.types.is_list(field.type) and pa.types.is_struct(field.type.value_type):
            # Update lists (retractions, corrections) read as one line per update.
            column = pa.array(
                [
                    None if v is None else LIST_SEPARATOR.join(map(update_text, v))
                    for v in column.to_pylist()
                ],
                pa.string(),
            )
            field = pa.field(field.name, pa.string())
        elif pa.types.is_list(field.type):
            column = pc.binary_join(column, LIST_SEPARATOR)
            field = pa.field(field.name, pa.string())
        if pa.types.is_string(field.type):
            column = pa.array([_defuse(v) for v in column.to_pylist()], pa.string())
        columns.append(column)
        fields.append(field.with_nullable(True))
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


def table_csv(table: pa.Table) -> str:
    """`table` as CSV text (header row, lists joined, formulas defused), without a BOM."""
    sink = io.BytesIO()
    pacsv.write_csv(_flatten(table), sink, pacsv.WriteOptions(quoting_style="needed"))
    return sink.getvalue().decode("utf-8")


class CsvReport(ReportFormat):
    """Writes `verdicts.csv`, `checklist.csv` and (when any) `duplicates.csv`."""

    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Write the CSV files, each UTF-8 with BOM; `duplicates.csv` only when there are groups."""
        written = [
            atomic_write_text(
                out_dir / "verdicts.csv", table_csv(report_verdicts(result)), bom=True
            ),
            atomic_write_text(out_dir / "checklist.csv", table_csv(result.checklist), bom=True),
        ]
        if result.duplicates.num_rows:
            written.append(
                atomic_write_text(
                    out_dir / "duplicates.csv", table_csv(result.duplicates), bom=True
                )
            )
        return written
