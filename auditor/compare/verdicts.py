"""Verdict assembly: join references to their records, apply the field rules, name the outcome.

`compare(references, records)` is the pure compare stage of the pipeline. It keeps states decided
before any lookup (INVALID, NOT COVERED from classify), maps what the register said
(not_found → DOES-NOT-RESOLVE, unreachable → UNCHECKED, not_covered → NOT COVERED), and runs the
field rules of `auditor.compare.criteria` over the rows whose record was found. A row with no
record at all is UNCHECKED (`not_looked_up`): a failure to look is never reported as absence.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.compare.aligned import gather_found, take_found
from auditor.compare.field_columns import RECORD_COLUMNS, as_array, decide_found
from auditor.errors import Reason
from auditor.patches import record_keys
from auditor.tables import RecordStatus, RowState, Verdict

__all__ = ["compare", "verdicts_at"]

# Outcome codes, indexes into `_OUTCOMES`.
_OUTCOMES = pa.array(
    [
        Verdict.MATCHES.value,
        Verdict.DIFFERS.value,
        Verdict.DOES_NOT_RESOLVE.value,
        Verdict.NOT_COVERED.value,
        RowState.UNCHECKED.value,
        RowState.INVALID.value,
    ],
    pa.string(),
)
_NOT_RESOLVE, _NOT_COVERED, _UNCHECKED = 2, 3, 4  # after `field_columns.MATCHES`, `DIFFERS`
_STATUS_OUTCOME = {
    RecordStatus.NOT_FOUND.value: _NOT_RESOLVE,
    RecordStatus.UNREACHABLE.value: _UNCHECKED,
    RecordStatus.NOT_COVERED.value: _NOT_COVERED,
}


#: The `VERDICTS` columns copied from the reference (name: `REFERENCES` column).
_FROM_REFERENCE = {
    **{c: c for c in ("row_id", "source_path", "source_line", "key", "id_type", "identifier")},
    "title_claimed": "title",
    "authors_claimed": "authors",
    "year_claimed": "year",
    "cited_at": "cited_at",
}

#: The `RECORDS` columns that name a record (`patches.record_keys`).
_RECORD_ID = ("register", "id_type", "identifier")


def _key(id_type: pa.ChunkedArray, identifier: pa.ChunkedArray) -> pa.Array:
    """`id_type \\x1f identifier` per row; null when either part is null."""
    return as_array(pc.binary_join_element_wise(id_type, identifier, "\x1f"))


def _record_index(references: pa.Table, records: pa.Table) -> np.ndarray:
    """For each reference, the index of its record (first one per key), or -1."""
    # Identifiers of different types practically never coincide: join on the identifier alone,
    # and on the pair only when some joined record turns out to be of another type.
    if records.num_rows == 0:
        return np.full(references.num_rows, -1, dtype=np.int64)
    at = pc.index_in(references["identifier"], value_set=records["identifier"])
    idx: np.ndarray = pc.fill_null(at, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    hit = idx >= 0
    types = pc.take(records["id_type"], pa.array(np.where(hit, idx, 0)))
    same = pc.fill_null(pc.equal(types, references["id_type"]), False)
    if np.all(same.to_numpy(zero_copy_only=False)[hit]):
        return idx
    return _record_index_by_pair(references, records)


def _record_index_by_pair(references: pa.Table, records: pa.Table) -> np.ndarray:
    """`_record_index` joining on `(id_type, identifier)`."""
    rec_keys = _key(records["id_type"], records["identifier"])
    ref_keys = _key(references["id_type"], references["identifier"])
    # One dictionary over both sides: a reference joins the first record with its code.
    encoded = pc.dictionary_encode(pa.concat_arrays([rec_keys, ref_keys]))
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    rec_codes, ref_codes = codes[: len(rec_keys)], codes[len(rec_keys) :]
    record_of = np.full(len(encoded.dictionary) + 1, -1, dtype=np.int64)  # last slot: null key
    distinct, first = np.unique(rec_codes[rec_codes >= 0], return_index=True)
    record_of[distinct] = np.flatnonzero(rec_codes >= 0)[first]
    found: np.ndarray = record_of[ref_codes]
    return found


def _wanted(
    found: np.ndarray, consulted: np.ndarray, joined: np.ndarray
) -> dict[str, tuple[str, np.ndarray]]:
    """The record columns `verdicts_at` reads and the rows it reads each for
    (`aligned.gather_found`): the field rules' for the found rows, the record relied on for the
    consulted ones, its name for every joined one; the largest columns first."""
    return {
        **{name: (name, found) for name in RECORD_COLUMNS},
        "consulted retrieved_at": ("retrieved_at", consulted),
        "found updates": ("updates", consulted & found),
        **{f"joined {c}": (c, joined) for c in _RECORD_ID},
        "consulted register": ("register", consulted),
        "consulted tier": ("tier", consulted),
    }


def _status_outcomes(status: pa.Array, has_record: np.ndarray) -> np.ndarray:
    """Outcome codes from record status alone; `found` rows get -1 (decided by the fields)."""
    known = [RecordStatus.FOUND.value, *_STATUS_OUTCOME]
    table = np.array([-1, *_STATUS_OUTCOME.values(), _UNCHECKED], dtype=np.int64)
    # An unknown status string (index -1 → last slot) is a failure to read, hence UNCHECKED.
    slot = pc.fill_null(pc.index_in(status, value_set=pa.array(known)), -1)
    codes: np.ndarray = table[slot.to_numpy(zero_copy_only=False)]
    codes[~has_record] = _UNCHECKED
    return codes


def _outcome_and_reason(
    references: pa.Table, records: pa.Table, idx: np.ndarray
) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """Outcome codes (-1 for found), the pre-decided mask and the reason column before fields."""
    row_state = as_array(references["row_state"])
    pre = pc.is_valid(row_state).to_numpy(zero_copy_only=False)
    lookup = ~pre & (idx >= 0)
    codes = _status_outcomes(take_found(records["status"], idx, lookup), lookup)
    codes[pre] = -2
    reason = pc.if_else(
        pa.array(pre),
        as_array(references["row_reason"]),
        take_found(records["reason"], idx, lookup & (codes != -1)),
    )
    missing = ~pre & (idx < 0)
    reason = pc.if_else(pa.array(missing), pa.scalar(Reason.NOT_LOOKED_UP.value), reason)
    return codes, pre, reason


def compare(
    references: pa.Table,
    records: pa.Table,
    criteria: str = tables.DEFAULT_CRITERIA,
    *,
    title_workers: bool = False,
) -> pa.Table:
    """Verdicts for every reference, in input order, under the criteria `criteria`.

    `title_workers`: a large v2 compare may decide its titles in worker processes
    (`auditor.compare.title_pool`; the `title_workers` setting); the verdicts are the same.

    `references` has the `tables.REFERENCES` schema; `records` the `tables.RECORDS` schema with one
    row per distinct `(id_type, identifier)` (if a key repeats, its first record is used). Returns a
    `tables.VERDICTS` table with `group_id` null. Never raises on data: every row gets an outcome.
    """
    if criteria not in tables.CRITERIA_IDS:
        raise ValueError(f"unknown criteria {criteria!r}")
    if references.num_rows == 0:
        return tables.empty(tables.VERDICTS)
    idx = _record_index(references, records)
    return verdicts_at(references, records, idx, criteria, False, title_workers)


def verdicts_at(
    references: pa.Table,
    records: pa.Table,
    idx: np.ndarray,
    criteria: str,
    by_title: bool,
    title_workers: bool = False,
) -> pa.Table:
    """The `VERDICTS` of `references` against `records[idx]` (-1: none), see `compare`;
    `by_title`: the records were found by a title search (`compare.found.compare_found`)."""
    n = references.num_rows
    codes, pre, reason = _outcome_and_reason(references, records, idx)
    found_mask = codes == -1
    # The record relied on (register, tier, as-of) is reported whenever one was consulted.
    consulted = ~pre & (idx >= 0)
    taken = gather_found(records, idx, _wanted(found_mask, consulted, idx >= 0))
    cols, reason = decide_found(
        references, taken, (codes, found_mask, reason), criteria, by_title, title_workers
    )
    verdict = pc.take(_OUTCOMES, pa.array(np.maximum(codes, 0)))
    verdict = pc.if_else(pa.array(pre), as_array(references["row_state"]), verdict)
    out = {
        **{name: references[column] for name, column in _FROM_REFERENCE.items()},
        "verdict": verdict,
        "reason": reason,
        "register": taken["consulted register"],
        "tier": taken["consulted tier"],
        "retrieved_at": taken["consulted retrieved_at"],
        # Updates (retractions, corrections) belong to the record that was found, whatever the
        # fields say: a matching citation of a retracted work is still a finding.
        "updates": taken["found updates"],
        "criteria_id": pc.take(pa.array([criteria]), pa.array(np.zeros(n, np.int64))),
        "group_id": pa.nulls(n, pa.int32()),
        **{f.name: references[f.name] for f in tables.DOCUMENT_FIELDS},
        # The record this row is joined with (consulted or not: its status is reported).
        "record_key": record_keys(*(taken[f"joined {c}"] for c in _RECORD_ID)),
        **cols,
    }
    # A record consulted by identifier; the title search fills its own rows (and `searched`,
    # `nearest`) later.
    out["queried_by"] = pc.if_else(
        pa.array(consulted), pa.scalar("title" if by_title else "id"), pa.scalar(None, pa.string())
    )
    schema = tables.VERDICTS
    return pa.table(
        {f.name: out[f.name] if f.name in out else pa.nulls(n, f.type) for f in schema},
        schema=schema,
    )
