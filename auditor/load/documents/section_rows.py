"""The rows of a document's references section: the one reading PDF, Word and ODF text share.

A section is split into references (`split.split_references`), each read into fields
(`rows.rows_from_pieces`) and marked cited or not from the body text (`cited.mark_cited`). A
section that holds no reference is the input error `no_section`, never an empty success.
"""

from __future__ import annotations

from collections.abc import Sequence

from auditor.load.documents.cited import mark_cited
from auditor.load.documents.interface import no_section
from auditor.load.documents.lines import Line
from auditor.load.documents.rows import rows_from_pieces
from auditor.load.documents.split import split_references
from auditor.load.interface import Problem, Rows

__all__ = ["section_rows"]


def section_rows(
    body: Sequence[Line], section: Sequence[Line] | None, path: str
) -> tuple[Rows, list[Problem]]:
    """The rows of `section` (cited from `body`); raises `no_section(path)` when it has none."""
    pieces = split_references(section) if section else []
    if not pieces:
        raise no_section(path)
    rows = rows_from_pieces(pieces)
    mark_cited(rows, body, path)
    return rows, []
