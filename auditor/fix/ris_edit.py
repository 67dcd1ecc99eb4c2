"""Apply changes to a RIS file's text: tag lines replaced or added inside their record only.

A record runs from its `TY  -` line (the loader's `source_line`) to its `ER  -` line. A year
replaces the year part of `PY` (or `Y1`), keeping the rest of RIS's `YYYY/MM/DD/` form; an author
list replaces the record's `AU`/`A1` lines where the first one stood; a missing tag goes before
`ER`. Line endings are kept. RIS has no arXiv tag, so an `eprint` change is not made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from auditor.fix.bibtex_edit import Applied
from auditor.fix.changes import Change, Note

__all__ = ["edit_ris"]

_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")
_TAGS = {
    "year": ("PY", "Y1", "DA"),
    "venue": ("JO", "JF", "T2", "JA", "J2"),
    "volume": ("VL",),
    "doi": ("DO",),
}
_AUTHOR_TAGS = ("AU", "A1")


def edit_ris(
    text: str,
    changes: Sequence[Change],
    notes: Sequence[Note] = (),
    *,
    accept: Callable[[Change], bool] = lambda _c: True,
) -> Applied:
    """`text` with `changes` applied (each first offered to `accept`); RIS has no comment
    syntax, so `notes` are reported by the command, not written into the file."""
    del notes
    lines = text.splitlines(keepends=True)
    replaced: dict[int, list[str]] = {}
    before: dict[int, list[str]] = {}  # new tag lines to go before a record's `ER` line
    made: list[Change] = []
    skipped: list[tuple[Change, str]] = []
    for change in changes:
        span = _record(lines, change.source_line)
        if span is None:
            skipped.append((change, "record not found in the source text"))
            continue
        new = _lines_for(lines, span, change)
        if isinstance(new, str):
            skipped.append((change, new))
        elif accept(change):
            replacements, additions = new
            replaced.update(replacements)
            before.setdefault(span[1], []).extend(additions)
            made.append(change)
    out: list[str] = []
    for index, line in enumerate(lines):
        out.extend(before.get(index, []))
        out.extend(replaced.get(index, [line]))
    return Applied("".join(out), tuple(made), tuple(skipped))


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :] or "\n"


def _record(lines: list[str], start_line: int | None) -> tuple[int, int] | None:
    if start_line is None or not 1 <= start_line <= len(lines):
        return None
    first = start_line - 1
    if not lines[first].lstrip("\ufeff").startswith("TY  -"):
        return None
    for index in range(first + 1, len(lines)):
        if lines[index].startswith("ER  -"):
            return first, index
    return None


def _tagged(lines: list[str], span: tuple[int, int], tags: Sequence[str]) -> list[int]:
    return [
        i
        for i in range(span[0], span[1])
        if (m := _TAG.match(lines[i].rstrip("\r\n"))) and m[1] in tags
    ]


Edit = tuple[dict[int, list[str]], list[str]]
"""Line index → replacement lines, and lines to add before the record's `ER`."""


def _tag_of(line: str) -> str:
    match = _TAG.match(line.rstrip("\r\n"))
    return match[1] if match else ""


def _lines_for(lines: list[str], span: tuple[int, int], change: Change) -> Edit | str:
    end = _ending(lines[span[0]])
    if change.field == "eprint":
        return "RIS has no tag for an arXiv id; not added"
    if change.field == "author":
        found = _tagged(lines, span, _AUTHOR_TAGS)
        tag = _tag_of(lines[found[0]]) if found else "AU"
        block = [f"{tag}  - {name}{end}" for name in change.value]
        if not found:
            return {}, block
        out: dict[int, list[str]] = {i: [] for i in found}
        out[found[0]] = block
        return out, []
    if change.field == "pages":
        first, _, last = re.sub(r"[\u2010-\u2015]|--", "-", str(change.value)).partition("-")
        start = _set(lines, span, ("SP",), first.strip(), end)
        if not last.strip():
            return start
        stop = _set(lines, span, ("EP",), last.strip(), end)
        return start[0] | stop[0], start[1] + stop[1]
    tags = _TAGS.get(change.field)
    if tags is None:
        return f"no RIS tag for {change.field}"
    value = str(change.value)
    if change.field == "year":
        found = _tagged(lines, span, tags)
        if found:
            match = _TAG.match(lines[found[0]].rstrip("\r\n"))
            old = (match[2] if match else None) or ""
            value = value + old[4:] if re.match(r"\d{4}", old) else value
    return _set(lines, span, tags, value, end)


def _set(
    lines: list[str], span: tuple[int, int], tags: Sequence[str], value: str, end: str
) -> Edit:
    found = _tagged(lines, span, tags)
    if found:
        line = lines[found[0]]
        return {found[0]: [f"{_tag_of(line)}  - {value}{_ending(line)}"]}, []
    return {}, [f"{tags[0]}  - {value}{end}"]
