"""The editor's screening table: one row per manuscript (`submissions.parquet`/`.csv`).

A manuscript is one input file (`source_path`). `SUBMISSIONS` is its schema, defined here once;
`submission_rows` counts the report rows of each file with Arrow kernels, and `changes_since`
compares a manuscript with its row of the previous run (the kept `submissions.parquet`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from auditor.checklist import PRIORITY_ORDER, priority_rank
from auditor.vocabulary import OUTCOMES, RowState, Verdict

__all__ = [
    "COUNTS",
    "MANUSCRIPTS",
    "SUBMISSIONS",
    "changes_since",
    "folder_names",
    "submission_rows",
]


#: The count columns, compared between runs.
COUNTS: tuple[str, ...] = (
    "references",
    "cited",
    *OUTCOMES,
    "retracted",
    "not_found",
)

#: Schema of `submissions.parquet`/`.csv`: one row per manuscript, worst first.
SUBMISSIONS = pa.schema(
    [
        pa.field("source_path", pa.string(), nullable=False),  # the file as the user named it
        pa.field("references", pa.int64(), nullable=False),  # rows read from it
        pa.field("cited", pa.int64(), nullable=False),  # rows cited in the text (`cited_at`)
        # one count per outcome, named as the criteria spell it (`vocabulary.OUTCOMES`: every
        # `Verdict`, then every `RowState`)
        *(pa.field(v, pa.int64(), nullable=False) for v in OUTCOMES),
        pa.field("retracted", pa.int64(), nullable=False),  # rows alerted RETRACTED
        pa.field("not_found", pa.int64(), nullable=False),  # DOES-NOT-RESOLVE or NOT FOUND
        pa.field("worst_priority", pa.string()),  # most urgent checklist priority (P0 worst)
        pa.field("report", pa.string(), nullable=False),  # relative link to its own report
        pa.field("changes", pa.string()),  # what changed since the previous run; null: first run
    ]
)

#: The folder that holds one report folder per manuscript (apart from the run's own files, so
#: no file name can land on `report.html` or `verdicts.csv`).
MANUSCRIPTS = "manuscripts"

_NOT_FOUND = (Verdict.DOES_NOT_RESOLVE.value, RowState.NOT_FOUND.value)
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def folder_names(paths: Sequence[str]) -> dict[str, str]:
    """A safe, distinct folder name for each of `paths`: its parts below the folders all paths
    share, joined by `_`, with only `[A-Za-z0-9._-]` kept (no separator, never `.`/`..` nor
    hidden), capped at 80 characters; a name two files share gets `-2`, `-3` … in input
    order (case-blind: a folder on macOS or Windows is)."""
    parts = [[p for p in re.split(r"[\\/]+", path) if p] or ["manuscript"] for path in paths]
    shared = 0
    while all(len(p) > shared + 1 for p in parts) and len({p[shared] for p in parts}) == 1:
        shared += 1
    out: dict[str, str] = {}
    taken: set[str] = set()
    for path, own in zip(paths, parts, strict=True):
        base = _SAFE.sub("_", "_".join(own[shared:])).strip("._-")[:80] or "manuscript"
        name, n = base, 1
        while name.lower() in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name.lower())
        out[path] = name
    return out


def _worst(priorities: pa.Array) -> str | None:
    valid = priorities.filter(pc.is_valid(priorities))
    if len(valid) == 0:
        return None
    return str(PRIORITY_ORDER[pc.min(priority_rank(valid)).as_py()])


def submission_rows(rows: pa.Table, paths: Sequence[str], folders: dict[str, str]) -> pa.Table:
    """One `SUBMISSIONS` row per file of `paths` (every `source_path` of `rows` among them: the
    caller's `folders` name each), counted from `rows` (`rows.REPORT_VERDICTS`), worst first: by
    priority (P0 first, none last), then DOES-NOT-RESOLVE and NOT FOUND, then UNCHECKED, then
    path. `changes` is null."""
    table = rows.select(["source_path", "verdict", "cited_at", "alert", "priority"])
    out: list[dict[str, Any]] = []
    for path in paths:
        mine = table.filter(pc.equal(table["source_path"], path))
        verdicts = mine["verdict"]
        row: dict[str, Any] = {
            "source_path": path,
            "references": mine.num_rows,
            "cited": pc.sum(pc.is_valid(mine["cited_at"])).as_py() or 0,
        }
        for v in OUTCOMES:
            row[v] = pc.sum(pc.equal(verdicts, v)).as_py() or 0
        row["retracted"] = pc.sum(pc.equal(mine["alert"], "RETRACTED")).as_py() or 0
        found = pc.is_in(verdicts, value_set=pa.array(_NOT_FOUND))
        row["not_found"] = pc.sum(found).as_py() or 0
        row["worst_priority"] = _worst(mine["priority"].combine_chunks())
        row["report"] = f"{MANUSCRIPTS}/{folders[path]}/report.html"
        row["changes"] = None
        out.append(row)
    out.sort(key=_badness)
    return pa.Table.from_pylist(out, schema=SUBMISSIONS)


def _badness(row: dict[str, Any]) -> tuple[int, int, int, str]:
    priority = row["worst_priority"]
    rank = PRIORITY_ORDER.index(priority) if priority else len(PRIORITY_ORDER)
    unchecked = row[RowState.UNCHECKED.value]
    return (rank, -row["not_found"], -unchecked, row["source_path"])


def changes_since(
    now: dict[str, Any],
    before: dict[str, Any] | None,
    refs_now: dict[str, str],
    refs_before: dict[str, str],
) -> str:
    """What changed in one manuscript since the previous run, in words: `new submission`, the
    counts that moved (`not_found 2→0`), and the references added, removed or whose verdict
    changed (`refs_*` map a reference's key to its verdict); `unchanged` when nothing did."""
    if before is None:
        return "new submission"
    parts = [f"{c} {before[c]}→{now[c]}" for c in COUNTS if c in before and before[c] != now[c]]
    added = sorted(set(refs_now) - set(refs_before))
    removed = sorted(set(refs_before) - set(refs_now))
    moved = sorted(k for k in set(refs_now) & set(refs_before) if refs_now[k] != refs_before[k])
    for word, keys in (("added", added), ("removed", removed)):
        if keys:
            parts.append(f"{word}: {', '.join(keys[:10])}{' …' if len(keys) > 10 else ''}")
    parts.extend(f"{key}: {refs_before[key]}→{refs_now[key]}" for key in moved[:10])
    return "; ".join(parts) or "unchanged"
