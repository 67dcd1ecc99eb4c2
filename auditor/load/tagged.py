"""Tagged-line exports (RIS, Web of Science, MEDLINE, EndNote) cut into records with their lines.

All four write one `TAG value` per line, continue long values on indented or untagged lines, and
delimit records by a start tag (`TY`, `PT`, `PMID`, `%0`), an end tag (`ER`) or a blank line.
`cut_records` finds the records and the line each starts on, so a reader (ours or rispy) parses
one record at a time and one bad record never costs the others; `fields` reads a record's lines
as `(tag, value, line)` with continuation lines joined. Nothing here raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.load.interface import Problem

__all__ = [
    "Record",
    "cut_records",
    "fields",
    "first",
    "page_range",
    "stray_problems",
    "values",
    "year_in",
]


@dataclass(frozen=True)
class Record:
    """One record's lines, as written."""

    line: int
    """1-based line the record starts on."""
    lines: tuple[str, ...]
    """Its lines, the start line first (a BOM removed)."""
    closed: bool
    """Ended by its end tag (formats without one: always `True`)."""


def cut_records(
    text: str,
    tag_re: re.Pattern[str],
    start: str,
    end: str | None = None,
    outside: frozenset[str] = frozenset(),
) -> tuple[list[Record], list[int]]:
    """Cut `text` into records, and list the lines of tagged text outside any record.

    A record starts at a line tagged `start`. With an `end` tag it runs to that line (a record
    left open is cut at the next start); without one, a blank line ends it, and the next tagged
    line after a blank line starts a record even when its tag is not `start` (an exporter that
    left the start tag out must not merge two references into one). Tags in `outside` are file
    headers and trailers (`FN`, `VR`, `EF` in Web of Science) and are skipped between records.
    """
    records: list[Record] = []
    stray: list[int] = []
    current: list[str] | None = None
    first = 0

    def close(closed: bool) -> None:
        nonlocal current
        if current is not None:
            records.append(Record(first, tuple(current), closed))
        current = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.lstrip("\ufeff") if number == 1 or raw.startswith("\ufeff") else raw
        m = tag_re.match(line)
        tag = m.group(1) if m else None
        if tag == start:
            close(end is None)
            current, first = [line], number
        elif end is not None and tag == end:
            if current is None:
                stray.append(number)
                continue
            current.append(line)
            close(True)
        elif not line.strip():
            if end is None:
                close(True)
            elif current is not None:
                current.append(line)
        elif current is not None:
            current.append(line)
        elif tag is not None and tag in outside:
            continue
        elif end is None and tag is not None:
            current, first = [line], number
        else:
            stray.append(number)
    close(end is None)
    return records, stray


def fields(
    record: Record, tag_re: re.Pattern[str], list_tags: frozenset[str] = frozenset()
) -> list[tuple[str, str, int]]:
    """`(tag, value, line)` for each tagged line; an untagged line continues the value before it.

    `tag_re` must capture the tag as group 1 and the value as group 2 (which may be absent). A
    continuation line of a tag in `list_tags` is a value of its own (Web of Science writes one
    author per line under one `AU`). Untagged text before the first tag is kept under `""`.
    """
    out: list[tuple[str, str, int]] = []
    for offset, line in enumerate(record.lines):
        m = tag_re.match(line)
        if m:
            out.append((m.group(1), (m.group(2) or "").strip(), record.line + offset))
        elif line.strip():
            if not out:
                out.append(("", line.strip(), record.line + offset))
                continue
            tag, value, at = out[-1]
            if tag in list_tags:
                out.append((tag, line.strip(), record.line + offset))
            else:
                out[-1] = (tag, f"{value} {line.strip()}".strip(), at)
    return out


def values(pairs: list[tuple[str, str, int]]) -> dict[str, list[str]]:
    """Tag → its non-empty values in order."""
    out: dict[str, list[str]] = {}
    for tag, value, _line in pairs:
        if value:
            out.setdefault(tag, []).append(value)
    return out


_YEAR_RE = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|2100)(?!\d)")


def first(tags: dict[str, list[str]], *names: str) -> str | None:
    """The first non-blank value of the first of `names` a record has, whitespace collapsed."""
    for name in names:
        for value in tags.get(name, []):
            if value.strip():
                return " ".join(value.split())
    return None


def stray_problems(path: str, stray: list[int]) -> list[Problem]:
    """One warning for the lines `cut_records` found outside every record (the first ten)."""
    if not stray:
        return []
    where = ", ".join(map(str, stray[:10]))
    return [Problem(path, stray[0], f"text outside any record (lines {where})", "warning")]


def year_in(text: str | None) -> int | None:
    """The first plausible year (1500-2100) in `text` (`2016 Mar 8`, `2016/03/08/`), or `None`."""
    m = _YEAR_RE.search(text or "")
    return int(m.group(1)) if m else None


def page_range(start: str | None, end: str | None) -> str | None:
    """`start-end` (or whichever is given); `None` when neither is."""
    start, end = (start or "").strip(), (end or "").strip()
    if start and end and end != start:
        return f"{start}-{end}"
    return start or end or None
