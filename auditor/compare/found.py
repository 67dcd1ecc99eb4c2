"""The comparison of references with the records a title search chose for them.

`compare_found` is `compare` without the join by identifier: each reference is compared with the
record at its own position, so a searched row keeps its own identity (no stand-in identifier
is swapped in and back) and the v2 rules know the record was found by title.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from auditor import tables
from auditor.compare.verdicts import verdicts_at

__all__ = ["compare_found"]


def compare_found(
    references: pa.Table, records: pa.Table, criteria: str = tables.DEFAULT_CRITERIA
) -> pa.Table:
    """Verdicts of references each compared with the record at its own position: the records a
    title search chose (`records` row-aligned with `references`, no join by identifier).

    The states classify decided (NOT COVERED for want of an identifier) no longer hold: each row
    gets its record's outcome. `queried_by` is `title`; `id_type`/`identifier` stay the
    references' own. Raises `ValueError` on an unknown criteria or unaligned tables.
    """
    if criteria not in tables.CRITERIA_IDS:
        raise ValueError(f"unknown criteria {criteria!r}")
    if references.num_rows != records.num_rows:
        raise ValueError("compare_found needs one record per reference")
    if references.num_rows == 0:
        return tables.empty(tables.VERDICTS)
    at = references.schema.get_field_index("row_state")
    undecided = references.set_column(
        at, references.schema.field(at), pa.nulls(references.num_rows, pa.string())
    )
    idx = np.arange(references.num_rows, dtype=np.int64)
    return verdicts_at(undecided, records, idx, criteria, True)
