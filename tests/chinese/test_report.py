"""The waterfall's verdict patch: `identifier` stays the reference's own; `record_key` names
the record an outcome rests on (#23)."""

from __future__ import annotations

import pyarrow as pa

from auditor import tables
from auditor.chinese.outcomes import Outcome, RowOutcome
from auditor.chinese.report import outcome_patch
from auditor.patches import merge, record_keys
from tests.chinese.helpers import TITLE, refs, verdicts_for

D = "10.5555/cma.j.cn112137-20231008-00670"


def _records() -> pa.Table:
    rows = [
        {"register": "crossref", "id_type": "doi", "identifier": D, "status": "not_found"},
        {"register": "doi", "id_type": "doi", "identifier": D, "status": "not_covered"},
    ]
    return tables.from_rows(rows, tables.RECORDS)


def _verdicts(references: pa.Table) -> pa.Table:
    """`verdicts_for` with each row's own `id_type` and `identifier`, as compare leaves them."""
    verdicts = verdicts_for(references)
    for name in ("id_type", "identifier"):
        at = verdicts.schema.get_field_index(name)
        verdicts = verdicts.set_column(at, verdicts.schema.field(at), references[name])
    return verdicts


def test_a_doi_outcome_names_the_doi_record_and_keeps_the_identifier() -> None:
    references = refs({"title": TITLE, "doi": D})
    verdicts = _verdicts(references)
    out = RowOutcome(row_id=0, doi=D, attempts=["doiRA 10.5555", f"csl {D}"])
    out.decide(Outcome.DOI_TITLE_VERIFIED)
    patch = outcome_patch(verdicts, _records(), [(references.to_pylist()[0], out)], "2026-01-01")
    assert {"id_type", "identifier"}.isdisjoint(patch.column_names)
    merged = merge(verdicts, patch).to_pylist()[0]
    assert (merged["id_type"], merged["identifier"]) == ("doi", D)  # the reference's own
    assert merged["register"] == "doi"
    assert merged["record_key"] == record_keys(["doi"], ["doi"], [D]).to_pylist()[0]


def test_a_locally_decided_outcome_names_no_register() -> None:
    references = refs({"title": TITLE, "container_title": "无此期刊"})
    verdicts = _verdicts(references)
    out = RowOutcome(row_id=0, attempts=["journal bridge: no row"])
    out.decide(Outcome.NO_ISSN_MAPPING)
    patch = outcome_patch(verdicts, _records(), [(references.to_pylist()[0], out)])
    merged = merge(verdicts, patch).to_pylist()[0]
    assert merged["register"] is None and merged["identifier"] is None
    assert merged["record_key"] is None
