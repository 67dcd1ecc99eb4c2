"""Parquet outputs: `verdicts.parquet`, `checklist.parquet` and (when any) `duplicates.parquet`."""

from __future__ import annotations

from pathlib import Path

from auditor.files import atomic_write_parquet, table_bytes
from auditor.report.interface import ReportFormat
from auditor.report.rows import report_verdicts
from auditor.result import AuditResult

__all__ = ["ParquetReport", "table_bytes"]


class ParquetReport(ReportFormat):
    """Writes the verdict, checklist and duplicate tables as Parquet."""

    def write(self, result: AuditResult, out_dir: Path) -> list[Path]:
        """Write the Parquet files; `duplicates.parquet` only when there are duplicate groups."""
        written = [
            atomic_write_parquet(out_dir / "verdicts.parquet", report_verdicts(result)),
            atomic_write_parquet(out_dir / "checklist.parquet", result.checklist),
        ]
        if result.duplicates.num_rows:
            written.append(atomic_write_parquet(out_dir / "duplicates.parquet", result.duplicates))
        return written
