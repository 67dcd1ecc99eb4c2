"""Where each entry and field value sits in a BibTeX file's text, so edits touch only values.

A small scanner of its own, not bibtexparser: a fix must keep every byte outside the changed
values (comments, `@string`, field order, braces, quoting, line endings), so it needs offsets,
which a parser that builds a model does not give. It reads the grammar BibTeX reads: `@type{key,
name = value, …}` or with parentheses, values in braces, quotes (braces nest inside), bare numbers
or macros, joined by `#`. An entry it cannot scan is left out (never edited).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

__all__ = ["EntrySpan", "FieldSpan", "scan"]

_NAME = re.compile(r"[^\s=,{}()\"#%]+")
_BARE = re.compile(r"[^\s,#{}()\"]+")
_SKIPPED_TYPES = frozenset({"comment", "preamble", "string"})


@dataclass(frozen=True)
class FieldSpan:
    """One `name = value` of an entry."""

    name: str
    """Lower-cased field name."""
    start: int
    """Offset of the field name."""
    value_start: int
    value_end: int
    """The value with its delimiters is `text[value_start:value_end]`."""
    style: str
    """`brace`, `quote`, `bare` (a number or macro) or `concat` (parts joined by `#`)."""

    def inner(self, text: str) -> str:
        """The value without its outer delimiters (as written, LaTeX and all)."""
        raw = text[self.value_start : self.value_end]
        return raw[1:-1] if self.style in ("brace", "quote") else raw


@dataclass
class EntrySpan:
    """One regular entry (not `@string`, `@preamble` or `@comment`)."""

    start: int
    """Offset of the `@`."""
    line: int
    """1-based line of the `@`."""
    entry_type: str
    key: str
    closer: int
    """Offset of the closing `}` or `)`."""
    fields: list[FieldSpan] = field(default_factory=list)

    def get(self, name: str) -> FieldSpan | None:
        return next((f for f in self.fields if f.name == name), None)


class _Unscannable(Exception):
    pass


def scan(text: str) -> list[EntrySpan]:
    """Every entry of `text` that scans cleanly, in file order."""
    newlines = [m.start() for m in re.finditer("\n", text)]
    entries: list[EntrySpan] = []
    pos, n = 0, len(text)
    while pos < n:
        at = text.find("@", pos)
        if at < 0:
            break
        percent = text.rfind("%", pos, at)
        line_start = text.rfind("\n", 0, at) + 1
        if percent >= line_start and text[line_start:percent].strip() == "":
            # `%` starts a comment line outside entries (biber, JabRef): skip to its end.
            end = text.find("\n", at)
            pos = n if end < 0 else end + 1
            continue
        try:
            entry, pos = _entry(text, at)
        except _Unscannable:
            pos = at + 1
            continue
        if entry is not None:
            entry.line = bisect.bisect_left(newlines, at) + 1
            entries.append(entry)
    return entries


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _balanced(text: str, pos: int, opener: str, closer: str) -> int:
    """Offset one past the delimiter matching `text[pos]` (== opener); braces nest."""
    depth = 0
    for i in range(pos, len(text)):
        ch = text[i]
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i + 1
    raise _Unscannable


def _quoted(text: str, pos: int) -> int:
    depth = 0
    for i in range(pos + 1, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0 and text[i - 1] != "\\":
            return i + 1
    raise _Unscannable


def _entry(text: str, at: int) -> tuple[EntrySpan | None, int]:
    match = re.compile(r"@\s*([A-Za-z][\w-]*)\s*([{(])").match(text, at)
    if not match:
        raise _Unscannable
    kind, opener = match[1].lower(), match[2]
    closer = "}" if opener == "{" else ")"
    body = match.end()
    if kind in _SKIPPED_TYPES:
        return None, _balanced(text, match.end() - 1, opener, closer)
    comma = text.find(",", body)
    close = text.find(closer, body)
    if comma < 0 or (0 <= close < comma):
        raise _Unscannable
    entry = EntrySpan(at, 0, match[1], text[body:comma].strip(), -1)
    pos = comma + 1
    while True:
        pos = _skip_ws(text, pos)
        while pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
        if pos >= len(text):
            raise _Unscannable
        if text[pos] == closer:
            entry.closer = pos
            return entry, pos + 1
        name = _NAME.match(text, pos)
        if not name:
            raise _Unscannable
        eq = _skip_ws(text, name.end())
        if eq >= len(text) or text[eq] != "=":
            raise _Unscannable
        value_start = _skip_ws(text, eq + 1)
        value_end, style = _value(text, value_start)
        entry.fields.append(FieldSpan(name[0].lower(), pos, value_start, value_end, style))
        pos = value_end


def _value(text: str, pos: int) -> tuple[int, str]:
    parts = 0
    style = "bare"
    end = pos
    while True:
        if pos >= len(text):
            raise _Unscannable
        ch = text[pos]
        if ch == "{":
            end, style = _balanced(text, pos, "{", "}"), "brace"
        elif ch == '"':
            end, style = _quoted(text, pos), "quote"
        else:
            bare = _BARE.match(text, pos)
            if not bare:
                raise _Unscannable
            end, style = bare.end(), "bare"
        parts += 1
        after = _skip_ws(text, end)
        if after < len(text) and text[after] == "#":
            pos = _skip_ws(text, after + 1)
            continue
        return end, ("concat" if parts > 1 else style)
