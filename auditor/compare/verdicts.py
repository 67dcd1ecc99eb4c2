"""Verdict assembly: join references to their records, apply the field rules, name the outcome.

`compare(references, records)` is the pure compare stage of the pipeline. It keeps states decided
before any lookup (INVALID, NOT COVERED from classify), maps what the register said
(not_found → DOES-NOT-RESOLVE, unreachable → UNCHECKED, not_covered → NOT COVERED), and runs the
field rules of `auditor.compare.criteria` over the rows whose record was found. A row with no
record at all is UNCHECKED (`not_looked_up`): a failure to look is never reported as absence.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.compare.claimed import v2_claimed_authors
from auditor.compare.criteria import (
    AuthorsResult,
    TitleResult,
    YearResult,
    authors_rule,
    title_rule,
    year_rule,
)
from auditor.compare.v2columns import v2_fields
from auditor.errors import Reason
from auditor.markup import strip_markup_column
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
_MATCHES, _DIFFERS, _NOT_RESOLVE, _NOT_COVERED, _UNCHECKED = range(5)
_STATUS_OUTCOME = {
    RecordStatus.NOT_FOUND.value: _NOT_RESOLVE,
    RecordStatus.UNREACHABLE.value: _UNCHECKED,
    RecordStatus.NOT_COVERED.value: _NOT_COVERED,
}


#: The `RECORDS` columns that name a record (`patches.record_keys`).
_RECORD_ID = ("register", "id_type", "identifier")


def _key(id_type: pa.ChunkedArray, identifier: pa.ChunkedArray) -> pa.Array:
    """`id_type \\x1f identifier` per row; null when either part is null."""
    return _as_array(pc.binary_join_element_wise(id_type, identifier, "\x1f"))


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


def _take(column: pa.ChunkedArray, index: np.ndarray, keep: np.ndarray) -> pa.Array:
    """`column[index]` where `keep`, null elsewhere (and where `index` is -1)."""
    mask = ~keep | (index < 0)
    picked = pa.array(np.where(mask, 0, index), mask=mask, type=pa.int64())
    if len(column) == 0:
        return pa.nulls(len(index), column.type)
    return _as_array(pc.take(column, picked))


def _as_array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def _status_outcomes(status: pa.Array, has_record: np.ndarray) -> np.ndarray:
    """Outcome codes from record status alone; `found` rows get -1 (decided by the fields)."""
    known = [RecordStatus.FOUND.value, *_STATUS_OUTCOME]
    table = np.array([-1, *_STATUS_OUTCOME.values(), _UNCHECKED], dtype=np.int64)
    # An unknown status string (index -1 → last slot) is a failure to read, hence UNCHECKED.
    slot = pc.fill_null(pc.index_in(status, value_set=pa.array(known)), -1)
    codes: np.ndarray = table[slot.to_numpy(zero_copy_only=False)]
    codes[~has_record] = _UNCHECKED
    return codes


def _found_reason(
    title_ok: np.ndarray, empty: np.ndarray, authors_ok: np.ndarray, year_ok: np.ndarray
) -> pa.Array:
    """Reason of a found row: the first field that differs (title, authors, year), else null."""
    names = pa.array(
        [
            Reason.TITLE_EMPTY.value,
            Reason.TITLE_DIFFERS.value,
            Reason.AUTHORS_DIFFER.value,
            Reason.YEAR_DIFFERS.value,
        ]
    )
    which = np.select([~title_ok & empty, ~title_ok, ~authors_ok, ~year_ok], [0, 1, 2, 3], -1)
    return pc.take(names, pa.array(which, mask=which < 0, type=pa.int64()))


def _scatter(values: np.ndarray, at: np.ndarray, n: int, type_: pa.DataType) -> pa.Array:
    """A length-`n` column holding `values` at positions `at` and null elsewhere."""
    full = np.zeros(n, dtype=values.dtype)
    full[at] = values
    valid = np.zeros(n, dtype=bool)
    valid[at] = True
    if values.dtype == np.float64:
        valid[at] &= ~np.isnan(values)
    return pa.array(full, mask=~valid, type=type_)


#: Rows compared per batch: bounds the working memory, and keeps hash tables cache-sized.
CHUNK_ROWS = 1 << 16


def _picker(batch: np.ndarray) -> Callable[[pa.Array], pa.Array]:
    """Select the `batch` rows of a column: a zero-copy slice when they are consecutive (the usual
    case: most references resolve), else a `take`."""
    if batch.size and batch[-1] - batch[0] + 1 == batch.size:
        start, size = int(batch[0]), int(batch.size)
        return lambda col: col.slice(start, size)
    sel = pa.array(batch, type=pa.int64())
    return lambda col: pc.take(col, sel)


def _rules_in_chunks(
    titles: tuple[pa.Array, pa.Array],
    authors: tuple[pa.Array, pa.Array],
    years: tuple[pa.Array, pa.Array],
    rows: np.ndarray,
) -> tuple[TitleResult, AuthorsResult, YearResult]:
    """The three field rules over `rows`, a batch of `CHUNK_ROWS` at a time (never per row)."""
    parts: list[tuple[TitleResult, AuthorsResult, YearResult]] = []
    for lo in range(0, max(rows.size, 1), CHUNK_ROWS):
        pick = _picker(rows[lo : lo + CHUNK_ROWS])

        parts.append(
            (
                title_rule(pick(titles[0]), pick(titles[1])),
                authors_rule(pick(authors[0]), pick(authors[1])),
                year_rule(pick(years[0]), pick(years[1])),
            )
        )
    cat = np.concatenate
    return (
        TitleResult(*(cat([getattr(p[0], f) for p in parts]) for f in ("match", "score", "empty"))),
        AuthorsResult(*(cat([getattr(p[1], f) for p in parts]) for f in ("compared", "match"))),
        YearResult(*(cat([getattr(p[2], f) for p in parts]) for f in ("compared", "match"))),
    )


def _field_columns(
    references: pa.Table, records: pa.Table, idx: np.ndarray, found_mask: np.ndarray
) -> tuple[dict[str, pa.Array], np.ndarray, pa.Array]:
    """Per-field columns for the found rows, their MATCHES/DIFFERS codes and their reasons."""
    n = len(idx)
    found = np.flatnonzero(found_mask)
    cols = {
        # Markup is not text (every criteria): the register title without its JATS/MathML.
        "title_register": strip_markup_column(_take(records["title"], idx, found_mask)),
        "authors_register": _take(records["surnames"], idx, found_mask),
        "year_register": _take(records["year"], idx, found_mask),
    }
    rules = _rules_in_chunks(
        (strip_markup_column(references["title"]), cols["title_register"]),
        (_as_array(references["authors"]), cols["authors_register"]),
        (_as_array(references["year"]), cols["year_register"]),
        found,
    )
    title, authors, year = rules
    authors_ok = ~authors.compared | authors.match
    year_ok = ~year.compared | year.match
    codes = np.where(title.match & authors_ok & year_ok, _MATCHES, _DIFFERS)
    cols["title_match"] = _scatter(title.match, found, n, pa.bool_())
    cols["title_score"] = _scatter(title.score, found, n, pa.float64())
    cols["authors_match"] = _scatter_where(authors.match, authors.compared, found, n)
    cols["year_match"] = _scatter_where(year.match, year.compared, found, n)
    reasons = _found_reason(title.match, title.empty, authors_ok, year_ok)
    return cols, codes, reasons


def _field_columns_v2(
    references: pa.Table,
    records: pa.Table,
    idx: np.ndarray,
    found_mask: np.ndarray,
    title_workers: bool = False,
    by_title: bool = False,
) -> tuple[dict[str, pa.Array], np.ndarray, pa.Array]:
    """auditor/v2's per-field columns for the found rows, their codes and reasons.

    The rules run over whole columns in input order (each record column taken once, null where
    no record was found) and decide only the found rows: no reference column is picked apart
    and no result scattered back, which cost more than the few rows it spared.
    """
    found = np.flatnonzero(found_mask)

    def record(name: str) -> pa.Array:
        return _take(records[name], idx, found_mask)

    register_title = strip_markup_column(record("title"))
    surnames, years, venues = record("surnames"), record("year"), record("container_title")
    cols = {
        "title_register": register_title,
        "authors_register": surnames,
        "year_register": years,
        "venue_claimed": _as_array(references["container_title"]),
        "venue_register": venues,
    }
    inputs = {
        "title_claimed": strip_markup_column(references["title"]),
        "title_register": register_title,
        "authors_claimed": v2_claimed_authors(references),
        "authors_et_al": _as_array(references["authors_et_al"]),
        "surnames_register": surnames,
        "year_claimed": _as_array(references["year"]),
        "year_register": years,
        "years_register": record("years"),
        "venue_claimed": cols["venue_claimed"],
        "venue_register": venues,
        "register": record("register"),
        "work_type": record("work_type"),
        "by_title": np.full(references.num_rows, by_title),
        "id_raw": _as_array(references["id_raw"]),
        "version": record("version"),
    }
    decided = v2_fields(inputs, rows=found_mask, title_workers=title_workers)
    keep = pa.array(found_mask)

    def found_only(values: pa.Array, type_: pa.DataType) -> pa.Array:
        return pc.if_else(keep, values.cast(type_), pa.scalar(None, type_))

    for name in ("title", "authors", "year", "venue"):
        cols[f"{name}_match"] = found_only(decided.match(name), pa.bool_())
    cols["title_score"] = found_only(decided.fields["title"].scores(), pa.float64())
    findings_type = tables.VERDICTS.field("findings").type
    cols["findings"] = found_only(decided.findings(), findings_type)
    differs, reasons = decided.first_finding()
    codes = np.where(differs[found], _DIFFERS, _MATCHES).astype(np.int64)
    return cols, codes, pc.take(reasons, pa.array(found, pa.int64()))


def _scatter_where(values: np.ndarray, compared: np.ndarray, at: np.ndarray, n: int) -> pa.Array:
    """Booleans at positions `at` where `compared`, null elsewhere (a field not compared)."""
    return _scatter(values[compared], at[compared], n, pa.bool_())


def _outcome_and_reason(
    references: pa.Table, records: pa.Table, idx: np.ndarray
) -> tuple[np.ndarray, np.ndarray, pa.Array]:
    """Outcome codes (-1 for found), the pre-decided mask and the reason column before fields."""
    row_state = _as_array(references["row_state"])
    pre = pc.is_valid(row_state).to_numpy(zero_copy_only=False)
    lookup = ~pre & (idx >= 0)
    codes = _status_outcomes(_take(records["status"], idx, lookup), lookup)
    codes[pre] = -2
    reason = pc.if_else(
        pa.array(pre),
        _as_array(references["row_reason"]),
        _take(records["reason"], idx, lookup & (codes != -1)),
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
    if criteria == tables.CRITERIA_V2:
        cols, found_codes, found_reasons = _field_columns_v2(
            references, records, idx, found_mask, title_workers, by_title
        )
    else:
        cols, found_codes, found_reasons = _field_columns(references, records, idx, found_mask)
    found = np.flatnonzero(found_mask)
    codes[found] = found_codes
    if found.size:
        slot = pa.array(np.maximum(np.cumsum(found_mask) - 1, 0), mask=~found_mask)
        reason = pc.if_else(pa.array(found_mask), pc.take(found_reasons, slot), reason)
    verdict = pc.take(_OUTCOMES, pa.array(np.maximum(codes, 0)))
    verdict = pc.if_else(pa.array(pre), _as_array(references["row_state"]), verdict)
    # The record relied on (register, tier, as-of) is reported whenever one was consulted.
    consulted = ~pre & (idx >= 0)
    out = {
        "row_id": references["row_id"],
        "source_path": references["source_path"],
        "source_line": references["source_line"],
        "key": references["key"],
        "verdict": verdict,
        "reason": reason,
        "id_type": references["id_type"],
        "identifier": references["identifier"],
        "register": _take(records["register"], idx, consulted),
        "tier": _take(records["tier"], idx, consulted),
        "retrieved_at": _take(records["retrieved_at"], idx, consulted),
        # Updates (retractions, corrections) belong to the record that was found, whatever the
        # fields say: a matching citation of a retracted work is still a finding.
        "updates": _take(records["updates"], idx, consulted & found_mask),
        "criteria_id": pc.take(pa.array([criteria]), pa.array(np.zeros(n, np.int64))),
        "title_claimed": references["title"],
        "authors_claimed": references["authors"],
        "year_claimed": references["year"],
        "group_id": pa.nulls(n, pa.int32()),
        "cited_at": references["cited_at"],
        **{f.name: references[f.name] for f in tables.DOCUMENT_FIELDS},
        # The record this row is joined with (consulted or not: its status is reported).
        "record_key": record_keys(*(_take(records[c], idx, idx >= 0) for c in _RECORD_ID)),
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
