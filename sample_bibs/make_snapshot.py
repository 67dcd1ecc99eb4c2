"""Rebuild `snapshot.parquet` from `snapshot.json` (the reviewable source of the sample snapshot).

The records were written by hand from the registers' public metadata of these real papers
(Crossref works, PubMed esummary, arXiv API, doiRA), in the `records` table's shape, with the
criteria's register surname and year rules already applied. A Crossref record's updates are
written as Crossref itself serves them (`crossref_updated_by`, `crossref_update_to`: the real
`updated-by`/`update-to` shape) and read by the same code as a live answer.
Run: `python sample_bibs/make_snapshot.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from auditor import tables
from auditor.registers.updates import crossref_updates

here = Path(__file__).parent
rows = json.loads((here / "snapshot.json").read_text(encoding="utf-8"))
for row in rows:
    message = {
        "updated-by": row.pop("crossref_updated_by", None),
        "update-to": row.pop("crossref_update_to", None),
    }
    if any(message.values()):
        row["updates"] = crossref_updates(message, row["identifier"])
pq.write_table(tables.from_rows(rows, tables.RECORDS), here / "snapshot.parquet")
print(f"wrote {len(rows)} records to {here / 'snapshot.parquet'}")
