"""Items for the updates of the record relied on: a retraction, withdrawal or removal is P0
even when every field matches; an expression of concern P1; a correction P3; a cited identifier
that is itself a notice P1."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from auditor import column_idioms, tables
from auditor.checklist.items import REFERENCE_COLUMNS, VERDICT_COLUMNS, base_items, items, only
from auditor.errors import Reason
from auditor.registers.updates import CONCERN_TYPES, CORRECTION_TYPES, RETRACTION_TYPES
from auditor.vocabulary import UpdateRelation

__all__ = ["update_items", "update_rows"]

_PAST = {"retraction": "retracted", "withdrawal": "withdrawn", "removal": "removed"}


def _notice(update: dict[str, Any]) -> str:
    if update.get("doi"):
        return f"doi:{update['doi']}"
    if update.get("pmid"):
        return f"PMID {update['pmid']}"
    return "not named by the register"


def _when(update: dict[str, Any]) -> str:
    return f"on {update['date']}" if update.get("date") else "(the register gives no date)"


def _update_wording(update: dict[str, Any]) -> tuple[str, str, str] | None:
    """(priority, reason code, sentence) for one update, or `None` when it needs no item."""
    kind = str(update.get("type") or "")
    if update.get("relation") == UpdateRelation.UPDATE_TO:
        if kind in RETRACTION_TYPES | CONCERN_TYPES | CORRECTION_TYPES:
            what = kind.replace("_", " ")
            return (
                "P1",
                Reason.CITED_UPDATE_NOTICE.value,
                f"the cited identifier is itself a notice of {what} ({_when(update)}) of "
                f"{_notice(update).replace('not named by the register', 'an unnamed work')}, "
                "not the work it concerns",
            )
        return None
    if kind in RETRACTION_TYPES:
        return (
            "P0",
            Reason.WORK_RETRACTED.value,
            f"the cited work was {_PAST[kind]} {_when(update)}; notice: {_notice(update)}",
        )
    if kind in CONCERN_TYPES:
        what = kind.replace("_", " ")
        return (
            "P1",
            Reason.WORK_UNDER_CONCERN.value,
            f"the cited work carries a {what} {_when(update)}; notice: {_notice(update)}",
        )
    if kind in CORRECTION_TYPES:
        what = "superseded" if kind == "obsoleted" else f"given a {kind.replace('_', ' ')}"
        return (
            "P3",
            Reason.WORK_CORRECTED.value,
            f"the cited work was {what} {_when(update)}; notice: {_notice(update)}",
        )
    return None


def update_rows(verdicts: pa.Table) -> tuple[np.ndarray, list[str], list[str], list[str]]:
    """(row, priority, reason code, text) of the items for the updates of each row's record.

    A retraction, withdrawal or removal is P0 even when every field matches; an expression of
    concern or partial retraction P1; a correction P3; a cited identifier that is itself a
    retraction or correction notice P1. Several updates of one kind share one item. Only rows
    with updates are read one by one: they are few.
    """
    rows, priorities, reasons, texts = [], [], [], []
    with_updates = np.flatnonzero(
        column_idioms.truthy(verdicts["updates"]).to_numpy(zero_copy_only=False)
    )
    updates = verdicts["updates"].take(pa.array(with_updates)).to_pylist()
    for row, row_updates in zip(with_updates.tolist(), updates, strict=True):
        by_reason: dict[str, tuple[str, list[str]]] = {}
        for update in row_updates:
            worded = _update_wording(update)
            if worded is None:
                continue
            priority, reason, sentence = worded
            sentences = by_reason.setdefault(reason, (priority, []))[1]
            if sentence not in sentences:
                sentences.append(sentence)
        for reason, (priority, sentences) in by_reason.items():
            text = "; ".join(sentences)
            rows.append(row)
            priorities.append(priority)
            reasons.append(reason)
            texts.append(f"{text[0].upper()}{text[1:]}; pending human check.")
    return np.array(rows, np.int64), priorities, reasons, texts


def update_items(ref: dict[str, Any], verdict: dict[str, Any]) -> list[dict[str, Any]]:
    """CHECKLIST items for the updates of the record one verdict relied on, one per reason code.

    The one-row form of what `build_checklist` does for every row with updates (see
    `update_rows` for the priorities); `ref` is the reference row, `{}` when unknown.
    """
    refs = tables.from_rows(
        [{name: ref.get(name) for name in REFERENCE_COLUMNS}], tables.REFERENCES
    )
    verdicts = tables.from_rows([verdict], tables.VERDICTS)
    refs = only(refs, tables.REFERENCES, REFERENCE_COLUMNS)
    verdicts = only(verdicts, tables.VERDICTS, VERDICT_COLUMNS)
    base = base_items(refs, verdicts, "source_line" in verdict)
    rows, priorities, reasons, texts = update_rows(verdicts)
    fields = {"priority": priorities, "reason_code": reasons, "text": texts}
    made: list[dict[str, Any]] = items(base, rows, fields).to_pylist()
    return made
