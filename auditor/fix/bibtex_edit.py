"""Apply changes to a BibTeX file's text, byte for byte outside the changed values.

A changed value keeps its field's delimiters (braces or quotes); a new field copies the entry's
own layout (indentation, alignment of `=`, field-name case, delimiters, line endings) and goes
after its last field. Non-ASCII text is written as LaTeX escapes when the file writes its accents
that way and holds no raw non-ASCII, and as Unicode otherwise. A field written as a `#`
concatenation is not rewritten (the note says so). Notes become `% auditor: …` lines above their
entry; a note line left by an earlier run is replaced, not repeated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from auditor.fix.bibtex_spans import EntrySpan, FieldSpan, scan
from auditor.fix.changes import Change, Note

__all__ = ["Applied", "edit_bibtex", "note_line"]

_VENUE_FIELDS = ("journal", "journaltitle", "booktitle")
_BOOKTITLE_TYPES = frozenset({"inproceedings", "conference", "incollection", "proceedings"})
_LATEX_SPECIALS = re.compile(r"(?<!\\)([&%$#_])")
_LATEX_ACCENTS = re.compile(r"\\['`^\"~=.uvHckbdr]\s*\{?\w|\{\\\w+\s*\{?\w")
_NOTE_PREFIX = "% auditor: "


@dataclass(frozen=True)
class Applied:
    """The new text, and the changes that were made or could not be."""

    text: str
    made: tuple[Change, ...]
    skipped: tuple[tuple[Change, str], ...]


def note_line(text: str) -> str:
    """A note as one comment line: no line breaks or control characters, and no `@` (BibTeX
    itself does not know `%` comments and would start an entry at an `@`)."""
    clean = "".join(ch if ch.isprintable() else " " for ch in text).replace("@", "(at)")
    return _NOTE_PREFIX + " ".join(clean.split())


def edit_bibtex(
    text: str,
    changes: Sequence[Change],
    notes: Sequence[Note] = (),
    *,
    accept: Callable[[Change], bool] = lambda _c: True,
    latex: bool | None = None,
) -> Applied:
    """`text` with `changes` applied (each first offered to `accept`) and `notes` written.

    `latex` forces new non-ASCII text to be written as LaTeX escapes (a Latin-1 file that must
    stay Latin-1); by default the file's own habit decides."""
    entries = scan(text)
    by_line = {e.line: e for e in entries}
    by_key: dict[str, list[EntrySpan]] = {}
    for scanned in entries:
        by_key.setdefault(scanned.key, []).append(scanned)
    latex = _writes_latex(text) if latex is None else latex
    newline = "\r\n" if "\r\n" in text else "\n"
    edits: list[tuple[int, int, str]] = []
    made: list[Change] = []
    skipped: list[tuple[Change, str]] = []
    for change in changes:
        entry = _find(change.source_line, change.key, by_line, by_key)
        if entry is None:
            skipped.append((change, "entry not found in the source text"))
            continue
        planned = _edit_for(text, entry, change, latex, newline)
        if isinstance(planned, str):
            skipped.append((change, planned))
        elif accept(change):
            edits.extend(planned)
            made.append(change)
    for note in notes:
        entry = _find(note.source_line, note.key, by_line, by_key)
        if entry is not None:
            edits.append(_note_edit(text, entry, note, newline))
    out = text
    # Last edit first, so offsets stay valid; inserts at one offset keep the changes' order.
    ordered = sorted(enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[0]), reverse=True)
    for _, (start, end, new) in ordered:
        out = out[:start] + new + out[end:]
    return Applied(out, tuple(made), tuple(skipped))


def _find(
    line: int | None,
    key: str | None,
    by_line: dict[int, EntrySpan],
    by_key: dict[str, list[EntrySpan]],
) -> EntrySpan | None:
    entry = by_line.get(line) if line is not None else None
    if entry is not None and (key is None or entry.key == key):
        return entry
    candidates = by_key.get(key or "", [])
    return candidates[0] if len(candidates) == 1 else None


def _writes_latex(text: str) -> bool:
    return not any(ord(ch) > 127 for ch in text) and bool(_LATEX_ACCENTS.search(text))


def _latex(value: str, latex: bool) -> str:
    value = _LATEX_SPECIALS.sub(r"\\\1", value)
    if latex and any(ord(ch) > 127 for ch in value):
        from pylatexenc.latexencode import unicode_to_latex  # only files that need it

        encoded = unicode_to_latex(
            value,
            non_ascii_only=True,
            replacement_latex_protection="braces",
            unknown_char_warning=False,  # kept as it is; the caller decides the encoding
        )
        return str(encoded)
    return value


def _rendered(change: Change, latex: bool, old_pages: str | None) -> str:
    if isinstance(change.value, list):
        return " and ".join(_latex(name, latex) for name in change.value)
    if change.field == "pages":
        dash = "--" if old_pages is None or "--" in old_pages else "-"
        return re.sub(r"\s*[-\u2010-\u2015]+\s*", dash, change.value)
    if change.field in ("doi", "eprint"):
        return change.value  # identifiers are written verbatim: `_` in a DOI is not LaTeX
    return _latex(change.value, latex)


def _delimited(value: str, style: str) -> str:
    if style == "bare" and value.isdigit():
        return value
    if style == "quote" and '"' not in value:
        return f'"{value}"'
    return "{" + value + "}"


def _target(entry: EntrySpan, change: Change) -> tuple[str, FieldSpan | None]:
    """The BibTeX field a logical change writes, and its span when the entry has it."""
    if change.field == "venue":
        for name in _VENUE_FIELDS:
            span = entry.get(name)
            if span is not None:
                return name, span
        name = "booktitle" if entry.entry_type.lower() in _BOOKTITLE_TYPES else "journal"
        return name, None
    if change.field == "year" and entry.get("year") is None and entry.get("date") is not None:
        return "date", entry.get("date")
    return change.field, entry.get(change.field)


def _edit_for(
    text: str, entry: EntrySpan, change: Change, latex: bool, newline: str
) -> list[tuple[int, int, str]] | str:
    name, span = _target(entry, change)
    if (
        change.field == "venue"
        and span is None
        and entry.entry_type.lower()
        not in (
            "article",
            *_BOOKTITLE_TYPES,
        )
    ):
        return f"no venue field for a @{entry.entry_type} entry"
    old_pages = span.inner(text) if span is not None and name == "pages" else None
    value = _rendered(change, latex, old_pages)
    if span is not None:
        if span.style == "concat":
            return f"{name} is written as a # concatenation; not rewritten"
        if name == "date":
            value = value + span.inner(text)[4:]
        return [(span.value_start, span.value_end, _delimited(value, span.style))]
    edits = [_insert(text, entry, name, _delimited(value, _entry_style(entry)), newline)]
    if name == "eprint" and entry.get("archiveprefix") is None and entry.get("eprinttype") is None:
        edits.append(_insert(text, entry, "archiveprefix", _delimited("arXiv", "brace"), newline))
    return edits


def _entry_style(entry: EntrySpan) -> str:
    quotes = sum(1 for f in entry.fields if f.style == "quote")
    braces = sum(1 for f in entry.fields if f.style == "brace")
    return "quote" if quotes > braces else "brace"


def _insert(
    text: str, entry: EntrySpan, name: str, value: str, newline: str
) -> tuple[int, int, str]:
    if not entry.fields:
        key_end = text.find(",", entry.start) + 1
        return key_end, key_end, f"{newline}  {name} = {value}"
    last = entry.fields[-1]
    line_start = text.rfind("\n", 0, last.start) + 1
    indent = text[line_start : last.start]
    if indent.strip():
        indent = " "  # fields on the entry's first line: keep to one space
        newline_used = ""
    else:
        newline_used = newline
    written = text[last.start : last.start + len(last.name)]
    if written.isupper():
        name = name.upper()
    elif written[:1].isupper():
        name = name.capitalize()
    equals = text.find("=", last.start + len(last.name))
    width = equals - last.start
    after = text[equals + 1 : last.value_start]
    label = name.ljust(width) if len(name) < width else name + " "
    return last.value_end, last.value_end, f",{newline_used}{indent}{label}={after}{value}"


def _note_edit(text: str, entry: EntrySpan, note: Note, newline: str) -> tuple[int, int, str]:
    line_start = text.rfind("\n", 0, entry.start) + 1
    new = note_line(note.text) + newline
    previous_end = line_start - 1  # the newline ending the line above
    if previous_end > 0:
        previous_start = text.rfind("\n", 0, previous_end) + 1
        if text[previous_start:previous_end].rstrip("\r").startswith(_NOTE_PREFIX):
            return previous_start, line_start, new
    return line_start, line_start, new
