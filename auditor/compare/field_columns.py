"""The field columns of the rows whose record was found: the rules of each criteria over whole
columns, their MATCHES/DIFFERS codes and the reason of each found row.

reference-resolution/v1's three rules run in batches of `CHUNK_ROWS`; auditor/v2's through
`auditor.compare.v2columns`. `auditor.compare.verdicts` names the outcome of every row around
them (`decide_found`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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

__all__ = ["CHUNK_ROWS", "DIFFERS", "MATCHES", "RECORD_COLUMNS", "as_array", "decide_found"]

#: The record columns the field rules of either criteria read, gathered for the found rows
#: (`auditor.compare.aligned`), the largest first.
RECORD_COLUMNS = (
    "title", "surnames", "year", "container_title", "years", "register", "work_type", "version",
)  # fmt: skip

#: Outcome codes of a found row (indexes into `verdicts._OUTCOMES`).
MATCHES, DIFFERS = 0, 1


def as_array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    """`column` as one array."""
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


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
    references: pa.Table, records: Mapping[str, pa.Array], found_mask: np.ndarray
) -> tuple[dict[str, pa.Array], np.ndarray, pa.Array]:
    """Per-field columns for the found rows, their MATCHES/DIFFERS codes and their reasons."""
    n = len(found_mask)
    found = np.flatnonzero(found_mask)
    cols = {
        # Markup is not text (every criteria): the register title without its JATS/MathML.
        "title_register": strip_markup_column(records["title"]),
        "authors_register": records["surnames"],
        "year_register": records["year"],
    }
    rules = _rules_in_chunks(
        (strip_markup_column(references["title"]), cols["title_register"]),
        (as_array(references["authors"]), cols["authors_register"]),
        (as_array(references["year"]), cols["year_register"]),
        found,
    )
    title, authors, year = rules
    authors_ok = ~authors.compared | authors.match
    year_ok = ~year.compared | year.match
    codes = np.where(title.match & authors_ok & year_ok, MATCHES, DIFFERS)
    cols["title_match"] = _scatter(title.match, found, n, pa.bool_())
    cols["title_score"] = _scatter(title.score, found, n, pa.float64())
    cols["authors_match"] = _scatter_where(authors.match, authors.compared, found, n)
    cols["year_match"] = _scatter_where(year.match, year.compared, found, n)
    reasons = _found_reason(title.match, title.empty, authors_ok, year_ok)
    return cols, codes, reasons


def _v2_inputs(
    references: pa.Table,
    record: Callable[[str], pa.Array],
    cols: dict[str, pa.Array],
    by_title: bool,
) -> dict[str, Any]:
    """The columns auditor/v2's field rules read (`v2_fields`): the claimed side, and the
    record side (`record(name)`, null where no record was found) as `cols` already holds it."""
    return {
        "title_claimed": strip_markup_column(references["title"]),
        "title_register": cols["title_register"],
        "authors_claimed": v2_claimed_authors(references),
        "authors_et_al": as_array(references["authors_et_al"]),
        "surnames_register": cols["authors_register"],
        "year_claimed": as_array(references["year"]),
        "year_register": cols["year_register"],
        "years_register": record("years"),
        "venue_claimed": cols["venue_claimed"],
        "venue_register": cols["venue_register"],
        "register": record("register"),
        "work_type": record("work_type"),
        "by_title": np.full(references.num_rows, by_title),
        "id_raw": as_array(references["id_raw"]),
        "version": record("version"),
    }


def _field_columns_v2(
    references: pa.Table,
    records: Mapping[str, pa.Array],
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
        return records[name]

    cols = {
        "title_register": strip_markup_column(record("title")),
        "authors_register": record("surnames"),
        "year_register": record("year"),
        "venue_claimed": as_array(references["container_title"]),
        "venue_register": record("container_title"),
    }
    inputs = _v2_inputs(references, record, cols, by_title)
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
    codes = np.where(differs[found], DIFFERS, MATCHES).astype(np.int64)
    return cols, codes, pc.take(reasons, pa.array(found, pa.int64()))


def _scatter_where(values: np.ndarray, compared: np.ndarray, at: np.ndarray, n: int) -> pa.Array:
    """Booleans at positions `at` where `compared`, null elsewhere (a field not compared)."""
    return _scatter(values[compared], at[compared], n, pa.bool_())


def decide_found(
    references: pa.Table,
    records: Mapping[str, pa.Array],
    state: tuple[np.ndarray, np.ndarray, pa.Array],
    criteria: str,
    by_title: bool,
    title_workers: bool,
) -> tuple[dict[str, pa.Array], pa.Array]:
    """The field columns of the rows whose record was found, under `criteria`, and the reason
    column with theirs; `state` is (outcome codes, found mask, reason): the found rows' codes
    are set in place."""
    codes, found_mask, reason = state
    if criteria == tables.CRITERIA_V2:
        cols, found_codes, found_reasons = _field_columns_v2(
            references, records, found_mask, title_workers, by_title
        )
    else:
        cols, found_codes, found_reasons = _field_columns(references, records, found_mask)
    found = np.flatnonzero(found_mask)
    codes[found] = found_codes
    if found.size:
        slot = pa.array(np.maximum(np.cumsum(found_mask) - 1, 0), mask=~found_mask)
        reason = pc.if_else(pa.array(found_mask), pc.take(found_reasons, slot), reason)
    return cols, reason
