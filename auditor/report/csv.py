"""CSV outputs that open cleanly in Excel and LibreOffice.

UTF-8 with a byte-order mark (so Excel detects the encoding), lists joined with `; `, nulls as
empty cells. Cells that a spreadsheet would run as a formula (a title beginning `=`, `+`, `-`,
`@`, tab or carriage return) get a leading `'`: bibliography text is untrusted.
"""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from auditor.files import atomic_write_bytes
from auditor.report.interface import ReportFormat
from auditor.report.rows import report_verdicts
from auditor.report.words import update_text
from auditor.result import AuditResult

__all__ = ["CsvReport", "LIST_SEPARATOR", "csv_bytes", "table_csv"]

#: How list cells (authors, links, sources tried) are joined.
LIST_SEPARATOR = "; "

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_FIRST = pa.array(_FORMULA_START, pa.string())


def _defuse(value: str | None) -> str | None:
    """Prefix `'` to a cell a spreadsheet would evaluate (CSV injection)."""
    if value and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _defuse_column(column: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """`_defuse` over a whole column."""
    risky = pc.is_in(pc.utf8_slice_codeunits(column, 0, 1), value_set=_FORMULA_FIRST)
    return pc.if_else(risky, pc.binary_join_element_wise("'", column, ""), column)


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
            column = _defuse_column(column)
        columns.append(column)
        fields.append(field.with_nullable(True))
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


def table_csv(table: pa.Table) -> str:
    """`table` as CSV text (header row, lists joined, formulas defused), without a BOM."""
    return csv_bytes(table).decode("utf-8")


def csv_bytes(table: pa.Table, *, bom: bool = False) -> bytes:
    """`table_csv` as UTF-8 bytes (with a byte-order mark when `bom`), never decoded to text."""
    sink = io.BytesIO()
    if bom:
        sink.write(b"\xef\xbb\xbf")
    pacsv.write_csv(_flatten(table), sink, pacsv.WriteOptions(quoting_style="needed"))
    return sink.getvalue()


class CsvReport(ReportFormat):
    """Writes `verdicts.csv`, `checklist.csv` and (when any) `duplicates.csv`."""

    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Write the CSV files, each UTF-8 with BOM; `duplicates.csv` only when there are groups."""
        tables = {"verdicts": report_verdicts(result), "checklist": result.checklist}
        if result.duplicates.num_rows:
            tables["duplicates"] = result.duplicates
        return [
            atomic_write_bytes(out_dir / f"{name}.csv", csv_bytes(table, bom=True))
            for name, table in tables.items()
        ]
