"""The checklist stage's table: ordinary items, update items and the other stages' items,
merged and sorted by priority, then input order."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import tables
from auditor.checklist.items import (
    REFERENCE_COLUMNS,
    VERDICT_COLUMNS,
    as_checklist,
    base_items,
    first_index,
    items,
    only,
    rows_of,
)
from auditor.checklist.priority import priority_rank
from auditor.checklist.updates import update_rows
from auditor.checklist.wording import item_text, wording
from auditor.vocabulary import Verdict

__all__ = ["build_checklist"]


def build_checklist(
    references: pa.Table,
    verdicts: pa.Table,
    extra: pa.Table | None = None,
) -> pa.Table:
    """The CHECKLIST table: items for ordinary outcomes merged with `extra`, sorted.

    `references` and `verdicts` have the `tables` schemas (a verdict row names the register, tier
    and as-of time of the record relied on, so no records are needed); `extra` holds CHECKLIST
    items already made by other stages (the Chinese waterfall, duplicate groups). A row whose
    verdict another stage decided (an `extra` item whose `reason_code` equals the verdict's reason)
    gets no second, ordinary item. Items are sorted by priority (P0 first), then input order,
    stably. `human_result` is always null. Never raises on data.
    """
    others = _other_items(extra)
    due = only(verdicts, tables.VERDICTS, VERDICT_COLUMNS).filter(_maybe_due(verdicts))
    due = due.filter(pc.invert(_decided_elsewhere(due, others)))
    refs = rows_of(only(references, tables.REFERENCES, REFERENCE_COLUMNS), due["row_id"])
    base = base_items(refs, due, "source_line" in verdicts.column_names)
    priority, text, reason_code = wording(due)
    ordinary = np.flatnonzero(pc.is_valid(priority).to_numpy(zero_copy_only=False))
    chosen = pa.array(ordinary, pa.int64())
    texts = item_text(refs.take(chosen), due.take(chosen), text.take(chosen))
    rows, update_priorities, update_reasons, update_texts = update_rows(due)
    merged = pa.concat_tables(
        [
            items(
                base,
                ordinary,
                {
                    "priority": priority.take(chosen),
                    "reason_code": reason_code.take(chosen),
                    "text": texts,
                },
            ),
            items(
                base,
                rows,
                {
                    "priority": update_priorities,
                    "reason_code": update_reasons,
                    "text": update_texts,
                },
            ),
            others,
        ]
    )
    return _sorted(merged, verdicts["row_id"], ordinary, rows, len(due), others.num_rows)


def _sorted(
    merged: pa.Table,
    row_ids: pa.ChunkedArray,
    ordinary: np.ndarray,
    rows: np.ndarray,
    due: int,
    others: int,
) -> pa.Table:
    """`merged` (the `ordinary` items, the update items of `rows`, then `others` items of
    other stages) by priority, then the verdicts' order (`row_ids`), stably."""
    # Stable order before sorting: each row's ordinary item, then its update items, row by
    # row; then the other stages' items.
    major = np.concatenate([ordinary, rows, due + np.arange(others)])
    minor = np.concatenate(
        [np.zeros(len(ordinary), np.int64), _ranks_within(rows), np.zeros(others, np.int64)]
    )
    rank = priority_rank(merged["priority"])
    at = first_index(row_ids, merged["row_id"])
    # A row the verdicts do not hold sorts by its own row id (as it always has).
    position = pc.if_else(pc.is_valid(at), pc.cast(at, pa.int64()), merged["row_id"])
    order = np.lexsort((minor, major, position.to_numpy(), rank.to_numpy()))
    return merged.take(pa.array(order, pa.int64()))


def _other_items(extra: pa.Table | None) -> pa.Table:
    """Other stages' items in the CHECKLIST schema, `human_result` emptied."""
    if extra is None or extra.num_rows == 0:
        return tables.empty(tables.CHECKLIST)
    return as_checklist(
        extra.drop_columns([n for n in ["human_result"] if n in extra.column_names])
    )


def _ranks_within(rows: np.ndarray) -> np.ndarray:
    """1, 2, … for the successive items of one row (`rows` is grouped by row)."""
    if len(rows) == 0:
        return np.zeros(0, np.int64)
    start = np.r_[True, rows[1:] != rows[:-1]]
    index = np.arange(len(rows))
    return index - np.maximum.accumulate(np.where(start, index, 0)) + 1


def _decided_elsewhere(due: pa.Table, others: pa.Table) -> pa.Array:
    """Rows of `due` whose (row_id, reason) is the (row_id, reason_code) of another stage's item."""
    if others.num_rows == 0 or due.num_rows == 0:
        return pa.repeat(pa.scalar(False), due.num_rows)
    probe = pa.table(
        {"row_id": due["row_id"], "reason": due["reason"], "at": np.arange(due.num_rows)}
    )
    decided = pa.table({"row_id": others["row_id"], "reason": others["reason_code"]})
    hit = probe.join(decided, keys=["row_id", "reason"], join_type="left semi")["at"]
    mask = np.zeros(due.num_rows, bool)
    mask[hit.to_numpy()] = True
    return pa.array(mask)


def _maybe_due(verdicts: pa.Table) -> pa.Array:
    """Rows that may need an item: every outcome but a plain match, and rows with updates.

    A million matching rows cost one comparison over the column, not a million dicts.
    """
    due = pc.fill_null(pc.not_equal(verdicts["verdict"], Verdict.MATCHES.value), True)
    if "updates" in verdicts.column_names:
        due = pc.or_(
            due, pc.fill_null(pc.greater(pc.list_value_length(verdicts["updates"]), 0), False)
        )
    return due
