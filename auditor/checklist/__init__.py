"""The checklist stage: one human-confirmation item for every applicable non-matched outcome.

A priority orders a person's work; it is never a suspicion score. P0 belongs to the Chinese
waterfall's fabrication-grade cases and to a cited work that was retracted, withdrawn or removed
(read from the record's `updates`, whatever its verdict); this stage words ordinary outcomes at
P1-P3 and always says "pending human check" without suggesting fabrication. `human_result` is
left empty for the person who does the check.

Items are built as columns (Arrow compute, NumPy), not one dict per row: the wording is decided
once per distinct (verdict, reason) pair, and only the rare rows with register updates are worded
one by one.

The stage is a package: `wording` (what an ordinary item says), `links` (the pages to check),
`updates` (retractions, corrections), `duplicates` (repeated works), `items` (rows from columns),
`priority` (the order of priorities) and `build` (the merged, sorted table).
"""

from __future__ import annotations

from auditor.checklist.build import build_checklist
from auditor.checklist.duplicates import duplicate_items, member_items
from auditor.checklist.links import links_for
from auditor.checklist.priority import PRIORITY_ORDER, priority_rank
from auditor.checklist.updates import update_items

__all__ = [
    "PRIORITY_ORDER",
    "build_checklist",
    "duplicate_items",
    "links_for",
    "member_items",
    "priority_rank",
    "update_items",
]
