"""Parquet outputs: `verdicts.parquet`, `checklist.parquet` and (when any) `duplicates.parquet`."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from auditor.files import atomic_write_parquet, side_by_side, table_bytes
from auditor.report.interface import ReportFormat
from auditor.report.view import ReportView

__all__ = ["ParquetReport", "table_bytes"]


class ParquetReport(ReportFormat):
    """Writes the verdict, checklist and duplicate tables as Parquet."""

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write the Parquet files; `duplicates.parquet` only when there are duplicate groups."""
        result = view.result
        tables = {"verdicts": view.rows, "checklist": result.checklist}
        if result.duplicates.num_rows:
            tables["duplicates"] = result.duplicates
        return side_by_side(
            [
                partial(atomic_write_parquet, out_dir / f"{name}.parquet", table)
                for name, table in tables.items()
            ]
        )
