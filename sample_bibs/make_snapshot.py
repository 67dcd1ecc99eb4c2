"""Rebuild `snapshot.parquet` from `snapshot.json` and `searches.json` (its reviewable sources).

The records were written by hand from the registers' public metadata of these real papers
(Crossref works, PubMed esummary, arXiv API, doiRA), in the `records` table's shape, with the
criteria's register surname and year rules already applied. A Crossref record's updates are
written as Crossref itself serves them (`crossref_updated_by`, `crossref_update_to`: the real
`updated-by`/`update-to` shape) and read by the same code as a live answer.
`searches.json` holds the title-search answers the sample's id-less references need (one per
index asked, candidates as the search registers parse them), written as the search stage keeps
answers (`auditor.search.answers`), so the sample audit needs no network for them either.
Run: `python sample_bibs/make_snapshot.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from auditor import tables
from auditor.registers.interface import SearchAnswer, TitleQuery
from auditor.registers.updates import crossref_updates
from auditor.search.answers import query_key, to_rows

AS_OF = "2026-11-30T00:00:00+00:00"

here = Path(__file__).parent
rows = json.loads((here / "snapshot.json").read_text(encoding="utf-8"))
for row in rows:
    message = {
        "updated-by": row.pop("crossref_updated_by", None),
        "update-to": row.pop("crossref_update_to", None),
    }
    if any(message.values()):
        row["updates"] = crossref_updates(message, row["identifier"])
for search in json.loads((here / "searches.json").read_text(encoding="utf-8")):
    key = query_key(TitleQuery(**search["query"]))
    found = tuple({**c, "register": search["register"]} for c in search["candidates"])
    for kept in to_rows(search["register"], key, SearchAnswer(candidates=found)):
        rows.append({**kept, "retrieved_at": AS_OF, "tier": "snapshot"})
pq.write_table(tables.from_rows(rows, tables.RECORDS), here / "snapshot.parquet")
print(f"wrote {len(rows)} records to {here / 'snapshot.parquet'}")
