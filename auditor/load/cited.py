"""From the loaded bibliographies to the references a manuscript cites.

The audit of a manuscript checks exactly the cited entries, in order of first citation, each
carrying where it was first cited (`cited_at`, beside its own `.bib` line). A cited key that no
bibliography holds is a row of its own (INVALID, reason `missing_entry`, at the citing line): it
is a defect of the manuscript (LaTeX prints `[?]`) and a finding under the default policy.
Entries never cited are not audited; one warning lists them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from auditor import tables
from auditor.errors import Reason
from auditor.load.interface import Problem
from auditor.load.manuscript import Manuscript
from auditor.tables import RowState

__all__ = ["select_cited"]

#: How many uncited keys the warning names before it only counts.
_SHOWN = 10


def select_cited(
    table: pa.Table, manuscripts: Sequence[Manuscript], keep_all: Sequence[str] = ()
) -> tuple[pa.Table, list[Problem]]:
    """The rows of `table` cited by `manuscripts` (first citation first), with one INVALID row
    per cited key no row holds, in its place in that order; rows whose `source_path` is in
    `keep_all` (bibliographies named on the command line beside the manuscript) are kept whole,
    after the cited ones.

    `row_id` is renumbered 0..n-1 in the new order; `cited_at` is `path:line` of the first
    citation. A key is matched exactly (BibTeX keys are case-sensitive to biber; BibTeX itself
    warns on case-only differences), and the first entry holding a duplicated key is the one
    BibTeX uses.
    """
    keys = table["key"].to_pylist()
    first_row: dict[str, int] = {}
    for position, key in enumerate(keys):
        if key is not None:
            first_row.setdefault(key, position)
    order: list[int] = []
    cited_at: list[str | None] = []
    missing: list[dict[str, object]] = []
    taken: set[int] = set()
    cite_all = any(m.cite_all for m in manuscripts)
    for manuscript in manuscripts:
        for citation in manuscript.citations:
            where = f"{citation.path}:{citation.line}"
            found = first_row.get(citation.key)
            if found is None:
                # Its row stands where it is cited: index past the table's own rows.
                order.append(table.num_rows + len(missing))
                cited_at.append(where)
                missing.append(_missing_row(citation.key, citation.path, citation.line, where))
            elif found not in taken:
                taken.add(found)
                order.append(found)
                cited_at.append(where)
    kept = set(keep_all)
    paths = table["source_path"].to_pylist()
    for index in range(table.num_rows):
        if index not in taken and (cite_all or paths[index] in kept):
            taken.add(index)
            order.append(index)
            cited_at.append(None)
    problems = _uncited_warning(keys, taken, manuscripts)
    if missing:
        table = pa.concat_tables([table, tables.from_rows(missing, tables.REFERENCES)])
    selected = table.take(pa.array(order, pa.int64())) if order else table.slice(0, 0)
    selected = selected.set_column(
        selected.schema.get_field_index("cited_at"),
        tables.REFERENCES.field("cited_at"),
        pa.array(cited_at, pa.string()),
    )
    renumbered = pa.array(range(selected.num_rows), pa.int64())
    return selected.set_column(0, tables.REFERENCES.field("row_id"), renumbered), problems


def _missing_row(key: str, path: str, line: int, where: str) -> dict[str, object]:
    return {
        "row_id": 0,
        "source_path": path,
        "source_line": line,
        "source_format": "manuscript",
        "key": key,
        "cited_at": where,
        "row_state": RowState.INVALID.value,
        "row_reason": Reason.MISSING_ENTRY.value,
        "parse_error": f"cited at {where}, but no bibliography holds the key {key!r}",
        "warnings": [],
    }


def _uncited_warning(
    keys: list[str | None], taken: set[int], manuscripts: Sequence[Manuscript]
) -> list[Problem]:
    uncited = [k for i, k in enumerate(keys) if i not in taken and k is not None]
    if not uncited:
        return []
    shown = ", ".join(uncited[:_SHOWN]) + (
        f", … ({len(uncited)} in all)" if len(uncited) > _SHOWN else ""
    )
    names = ", ".join(m.path for m in manuscripts)
    return [
        Problem(
            names,
            None,
            f"{len(uncited)} bibliography entries are never cited in {names} and were not "
            f"audited: {shown}",
            severity="warning",
        )
    ]
