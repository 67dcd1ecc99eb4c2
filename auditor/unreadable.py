"""A reference the tool could not read is never a suspect (issue #35 item 6).

A row read from a document (PDF, Word, text) carries how sure the reading is of each field
(`references.field_confidence`). When such a row would be flagged (`RESOLVES-BUT-DIFFERS`,
`NOT FOUND`) and every field its flag rests on was read weakly, or is missing, or the "title"
is a venue's name, the flag would be a guess about our own reading, not about the reference.
The row becomes `UNCHECKED` with reason `unreadable_reference` instead; its findings stay, and
its checklist item carries the printed string for a person to compare.

This is the rule "a failure to look is never reported as absence", applied to reading: a
flag needs at least one finding on a field read with confidence. `DOES-NOT-RESOLVE` rests on
an identifier, which the certain rules read (a DOI, PMID or arXiv id), so it stays. Rows of
bibliography files carry no confidences and are never touched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor.errors import Reason
from auditor.load.documents.rows import UNSURE
from auditor.patches import empty_patch, patch_from_rows
from auditor.vocabulary import RowState, Verdict

__all__ = ["WEAK_BELOW", "flag_fields", "unreadable_patch"]

#: A field read with less confidence than this cannot carry a flag alone. The rules' own
#: certainties (`refstring._confidence`) put a reading whose parts were unmarked at 0.3 and a
#: marked one at 0.6 or more; a model's marginals below one half are more wrong than right.
WEAK_BELOW = 0.5

#: A string search that found the work validated its title, first author and year in the
#: string itself (`documents.settle.validated`): those fields are read as well as marked ones.
_VALIDATED = 0.8

_SUSPECT = frozenset({str(Verdict.DIFFERS), str(RowState.NOT_FOUND)})

# Which field a finding rests on, by its reason code's first word (`errors.Reason`, and the
# codes later rules add in the same families).
_FIELD_OF_PREFIX: tuple[tuple[str, str], ...] = (
    ("title", "title"),
    ("no_index_match", "title"),
    ("authors", "authors"),
    ("year", "year"),
    ("arxiv_year", "year"),
    ("venue", "container_title"),
    ("wrong_venue", "container_title"),
    ("unknown_venue", "container_title"),
    ("preprint", "container_title"),
    ("published_as_preprint", "container_title"),
)

# A "title" that is where the work appeared: the reading took the venue for the title.
_VENUE_TITLE_RE = re.compile(
    r"^(?:in\b|proc(?:eedings|\.)|journal of\b|j\.\s|transactions\b|trans\.\s|advances in\b|"
    r"arxiv\b|preprint\b|corr\b|conference\b|workshop\b|symposium\b|(?:ieee|acm)\s+(?:trans|conf))",
    re.IGNORECASE,
)


def flag_fields(reason: str | None, findings: Sequence[str] | None) -> set[str] | None:
    """The fields a flag with `reason` and `findings` rests on; `None` when one of them rests
    on something other than a read field (an identifier, an update notice), so the flag stands
    whatever the reading."""
    fields: set[str] = set()
    for code in [*(findings or []), *([reason] if reason else [])]:
        field = next((f for p, f in _FIELD_OF_PREFIX if code.startswith(p)), None)
        if field is None:
            return None
        fields.add(field)
    return fields


def _confidence(ref: Mapping[str, Any], verdict: Mapping[str, Any]) -> dict[str, float]:
    """Each field's confidence for this row, with what the search validated raised."""
    conf: dict[str, float] = {
        k: float(v) for k, v in (ref.get("field_confidence") or {}).items() if v is not None
    }
    settled = UNSURE in (ref.get("warnings") or []) and verdict.get("queried_by") == "title"
    if settled and verdict.get("verdict") == str(Verdict.DIFFERS):
        for field in ("title", "authors", "year"):
            conf[field] = max(conf.get(field, 0.0), _VALIDATED)
    title = str(verdict.get("title_claimed") or "")
    if _VENUE_TITLE_RE.match(title.strip(" “\"'")):
        conf["title"] = 0.0
    return conf


def unreadable_patch(references: pa.Table, verdicts: pa.Table) -> pa.Table:
    """The verdict patch turning weakly read suspects into `UNCHECKED unreadable_reference`
    (see the module docstring); an empty patch when no row is one. `references` and `verdicts`
    are in the same row order (`tables` schemas). Never raises on data."""
    if "field_confidence" not in references.column_names or verdicts.num_rows == 0:
        return empty_patch()
    suspect = pc.is_in(verdicts["verdict"], value_set=pa.array(sorted(_SUSPECT), pa.string()))
    read = pc.is_valid(references["field_confidence"])
    at = pc.indices_nonzero(pc.fill_null(pc.and_(suspect, read), False))
    if len(at) == 0:
        return empty_patch()
    refs = references.select(["field_confidence", "warnings"]).take(at).to_pylist()
    rows = verdicts.select(
        ["row_id", "verdict", "reason", "findings", "queried_by", "title_claimed"]
    ).take(at)
    patch: list[dict[str, object]] = []
    for ref, v in zip(refs, rows.to_pylist(), strict=True):
        fields = flag_fields(v["reason"], v["findings"])
        if fields is None:
            continue
        conf = _confidence(ref, v)
        if all(conf.get(f, 0.0) < WEAK_BELOW for f in fields):
            unchecked = str(RowState.UNCHECKED)
            reason = str(Reason.UNREADABLE_REFERENCE)
            patch.append({"row_id": v["row_id"], "verdict": unchecked, "reason": reason})
    if not patch:
        return empty_patch()
    return patch_from_rows(patch, ["verdict", "reason"])
