"""Which references the body of a document cites: numbered markers and author-year citations.

`citations(body)` reads the text before the references section: `[3]`, `[1, 4-6]`, `[2–3]`
(numbered styles) and `(Smith, 2020)`, `(Smith and Lee 2020a; Chen et al., 2019)`,
`Smith et al. (2020)` (author-year). `mark_cited(rows, body, path)` then gives each row the place
of its first citation (`cited_at`, `paper.pdf p. 3` or `refs.docx ¶12`) or, when the body cites
by that scheme but never this reference, the warning `not cited in the text`. A body that cites
nothing in a scheme (a bare reference list) claims nothing: no row is marked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from auditor.load.documents.lines import Line
from auditor.load.interface import ENTRY_COLUMNS, Rows

__all__ = ["NOT_CITED", "mark_cited"]

#: The warning of a reference the body never cites (when it cites others by the same scheme).
NOT_CITED = "not cited in the text"

_NUMBERED_RE = re.compile(r"\[(\d{1,4}(?:\s*[-–,;]\s*\d{1,4}){0,30})\]")
_PAREN_RE = re.compile(r"\(([^()]{3,400})\)")
_AUTHOR_YEAR_RE = re.compile(
    r"([A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’\-]+)?"
    r",?\s+((?:1[5-9]|20)\d\d[a-z]?)\b"
)
_NARRATIVE_RE = re.compile(
    r"([A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’\-]+)?"
    r"\s+\(((?:1[5-9]|20)\d\d[a-z]?)\)"
)
_YEAR_RE = re.compile(r"((?:1[5-9]|20)\d\d[a-z]?)")


def _numbers(marker: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*[,;]\s*", marker):
        ends = re.split(r"\s*[-–]\s*", part)
        if len(ends) == 2 and ends[0].isdigit() and ends[1].isdigit():
            a, b = int(ends[0]), int(ends[1])
            out.extend(str(n) for n in range(a, min(b, a + 200) + 1))
        elif part.isdigit():
            out.append(part)
    return out


def _where(path: str, line: Line) -> str:
    return f"{path} p. {line.page}" if line.page is not None else f"{path}:{line.number}"


def citations(body: Sequence[Line], path: str) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """`(number → first place cited, (surname, year) → first place cited)`, lowercased."""
    numbers: dict[str, str] = {}
    pairs: dict[tuple[str, str], str] = {}
    for line in body:
        where = _where(path, line)
        for m in _NUMBERED_RE.finditer(line.text):
            for n in _numbers(m.group(1)):
                numbers.setdefault(n, where)
        for m in _PAREN_RE.finditer(line.text):
            for a in _AUTHOR_YEAR_RE.finditer(m.group(1)):
                pairs.setdefault((a.group(1).lower(), a.group(2)), where)
        for a in _NARRATIVE_RE.finditer(line.text):
            pairs.setdefault((a.group(1).lower(), a.group(2)), where)
    return numbers, pairs


def _first_surname(authors: object) -> str:
    if not isinstance(authors, list) or not authors:
        return ""
    first = str(authors[0])
    family = first.split(",", 1)[0] if "," in first else (first.split() or [""])[-1]
    return family.strip().lower()


def mark_cited(rows: Rows, body: Sequence[Line], path: str) -> None:
    """Fill `cited_at` or add `NOT_CITED` to each row in place (see the module docstring)."""
    numbers, pairs = citations(body, path)
    if not numbers and not pairs:
        return
    at = {c: ENTRY_COLUMNS.index(c) for c in ("source_label", "authors", "cited_at", "warnings")}
    text_at = ENTRY_COLUMNS.index("reference_text")
    out = []
    for row in rows.rows:
        values = list(row)
        label = str(values[at["source_label"]] or "")
        where: str | None = None
        scheme = False
        if label.isdigit() and numbers:
            scheme, where = True, numbers.get(label)
        elif pairs:
            year = _YEAR_RE.search(label) or _YEAR_RE.search(str(values[text_at] or ""))
            surname = _first_surname(values[at["authors"]])
            if year and surname:
                scheme, where = True, pairs.get((surname, year.group(1)))
        if where is not None:
            values[at["cited_at"]] = where
        elif scheme:
            values[at["warnings"]] = [*(values[at["warnings"]] or []), NOT_CITED]
        out.append(tuple(values))
    rows.rows = out
