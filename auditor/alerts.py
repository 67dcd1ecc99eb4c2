"""Alerts: what a row's verdict alone does not say, read from its checklist items.

A cited work that was retracted, withdrawn or removed can still match its citation field by field
(`RESOLVES-AND-MATCHES`); its retraction lives in the checklist (`reason_code` `work_retracted`,
P0). Every place that shows a verdict (console summary, findings, GitHub annotations, JUnit, HTML)
shows the alert beside it, and `--fail-on` accepts the alert's label, so a retraction never reads
as a pass. Pure Arrow: no report or CLI imports.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from auditor.errors import Reason

__all__ = ["ALERTS", "ALERT_CODES", "ALERT_HELP", "alert_column", "alert_counts"]

#: Alert label of each checklist reason code that needs one, most serious first.
ALERTS: dict[str, str] = {
    Reason.WORK_RETRACTED.value: "RETRACTED",
    Reason.WORK_UNDER_CONCERN.value: "UNDER CONCERN",
}

#: The checklist reason code of each alert label.
ALERT_CODES: dict[str, str] = {label: code for code, label in ALERTS.items()}

#: One line per alert label, for legends and help.
ALERT_HELP: dict[str, str] = {
    "RETRACTED": "The cited work was retracted, withdrawn or removed, whatever its fields say.",
    "UNDER CONCERN": "The cited work carries an expression of concern or a partial retraction.",
}


def alert_column(verdicts: pa.Table, checklist: pa.Table) -> pa.Array:
    """The most serious alert label of each row of `verdicts` (in its order), null for none."""
    labels: pa.Array = pa.nulls(verdicts.num_rows, pa.string())
    if not checklist.num_rows or not verdicts.num_rows:
        return labels
    row_ids = verdicts["row_id"]
    # least serious first, so a more serious alert of the same row overwrites it
    for code, label in reversed(ALERTS.items()):
        items = checklist.filter(pc.equal(checklist["reason_code"], code))
        if not items.num_rows:
            continue
        hit = pc.is_in(row_ids, value_set=items["row_id"].combine_chunks())
        labels = pc.if_else(hit, pa.scalar(label, pa.string()), labels)
    return labels.combine_chunks() if isinstance(labels, pa.ChunkedArray) else labels


def alert_counts(verdicts: pa.Table, checklist: pa.Table) -> dict[str, int]:
    """Rows per alert label, in `ALERTS` order; labels no row has are left out."""
    column = alert_column(verdicts, checklist)
    counts = {
        str(v["values"]): int(v["counts"])
        for v in pc.value_counts(column).to_pylist()
        if v["values"] is not None
    }
    return {label: counts[label] for label in ALERTS.values() if label in counts}
