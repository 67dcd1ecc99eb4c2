"""Parquet outputs: `verdicts.parquet`, `checklist.parquet` and (when any) `duplicates.parquet`."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from auditor.report.interface import ReportFormat, atomic_write_bytes
from auditor.report.rows import report_verdicts
from auditor.result import AuditResult

__all__ = ["ParquetReport", "table_bytes"]


def table_bytes(table: pa.Table) -> bytes:
    """The Parquet file of `table` as bytes (schema and column types kept)."""
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


class ParquetReport(ReportFormat):
    """Writes the verdict, checklist and duplicate tables as Parquet."""

    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Write the Parquet files; `duplicates.parquet` only when there are duplicate groups."""
        written = [
            atomic_write_bytes(out_dir / "verdicts.parquet", table_bytes(report_verdicts(result))),
            atomic_write_bytes(out_dir / "checklist.parquet", table_bytes(result.checklist)),
        ]
        if result.duplicates.num_rows:
            written.append(
                atomic_write_bytes(out_dir / "duplicates.parquet", table_bytes(result.duplicates))
            )
        return written
