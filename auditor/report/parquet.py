"""Parquet outputs: `verdicts.parquet`, `checklist.parquet` and (when any) `duplicates.parquet`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from auditor.files import atomic_write_parquet, side_by_side, table_bytes
from auditor.report.interface import ReportFormat
from auditor.report.view import TABLES, ReportView, report_tables

__all__ = ["ParquetReport", "table_bytes"]


class ParquetReport(ReportFormat):
    """Writes the verdict, checklist and duplicate tables (those named in `tables`) as Parquet."""

    def __init__(self, tables: Sequence[str] = TABLES) -> None:
        self.tables = tuple(tables)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write the Parquet files; `duplicates.parquet` only when there are duplicate groups."""
        tables = report_tables(view, self.tables)
        return side_by_side(
            [
                partial(atomic_write_parquet, out_dir / f"{name}.parquet", table)
                for name, table in tables.items()
            ]
        )
