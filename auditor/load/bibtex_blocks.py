"""Split BibTeX text into its blocks: entries, `@string` macros and the blocks that fail.

Our own splitter, in place of bibtexparser's: a whole `auditor load` process of a 3 MB
bibliography spent more time in bibtexparser's splitter (one Python step per brace, quote,
comma, equals sign and newline) than in everything else the load does. It reads the grammar
bibtexparser v2 reads, so tables stay what they were, with the same recovery from broken
entries (the same error messages, the same place to go on from):

- a block starts at `@type{` or `@type(` anywhere outside a block; text between blocks is a
  comment; `@comment…`, `@preamble…` and `@string…` (by prefix, any case) are special;
- an entry is `@type{key, name = value, …}`; a value runs to the next `,` or closing delimiter
  outside braces and quotes, so `{…}`, `"…"`, numbers, macros and `#` joins stay raw text (the
  loader resolves them); `{"}` inside quotes is a quote character; a character after a
  backslash is never a delimiter;
- a block start at the beginning of a line inside an entry aborts that entry (an unclosed
  brace does not swallow the rest of the file).

Most entries are read by one regular expression per field (the fast path); an entry it does not
match (parentheses, a backslash or `@` in a name, braces nested deeper than `_DEPTH`, a broken
entry) is read again delimiter by delimiter (`_Block`), which gives the error messages. Line
numbers are 1-based lines of the `@`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Entry", "Failed", "Macro", "split_blocks"]


class Entry(NamedTuple):
    """`@type{key, name = value, …}`: names and values as written, stripped, in order."""

    line: int
    entry_type: str
    """Lower case, as after the `@`."""
    key: str
    fields: list[tuple[str, str]]
    duplicates: frozenset[str]
    """Field names given more than once (as written)."""


class Macro(NamedTuple):
    """`@string{name = value}`, the value raw (enclosed, or a `#` join)."""

    line: int
    name: str
    value: str


class Failed(NamedTuple):
    """A block that does not parse: its text up to where reading stopped, and why."""

    line: int
    raw: str
    reason: str


Block = Entry | Macro | Failed

#: How deep braces may nest inside a value for the fast path (`{{\\"o}}` is 3 with the value's).
_DEPTH = 6
_START_RE = re.compile(r"@(\w*)[ \t]*(?=[{(])")
_MARK_RE = re.compile(r"(?<!\\)[{}\",=]|@\w*[ \t]*(?=[{(])")
_PAREN_MARK_RE = re.compile(r"(?<!\\)[{}\",=)]|@\w*[ \t]*(?=[{(])")


def _braced(depth: int) -> str:
    """A `{…}` group nesting at most `depth` levels; a backslash run takes the next character."""
    inner = r"[^{}\\]++|\\++.?"
    if depth > 1:
        inner += "|" + _braced(depth - 1)
    return r"\{(?:" + inner + r")*+\}"


_VALUE = r"(?:[^{}\",\\]++|\\++.?|" + _braced(_DEPTH) + r'|"(?:[^"\\]++|\\++.?)*+")*+'
_NAME = r'[^{}",=\\@]*+'
_FIELD = _NAME + "=" + _VALUE
#: A whole well-formed `{`-entry after its `@type`: `{key}` or `{key, field, …}`, in one match;
#: its fields are then taken out by `_FIELD_RE.findall` over the same span (no Python loop).
_ENTRY_RE = re.compile(
    r'\{([^{}",=\\@]*)(?:\}|,((?:' + _FIELD + ",)*+(?:" + _FIELD + r")?)\s*+\})", re.S
)
# A field name starts after `,` (or where the span starts), never inside another name: tried at
# each character of a long name that has no `=`, the scan would cost the square of the name.
_FIELD_RE = re.compile(r'(?<![^{}",=\\@])(' + _NAME + ")=(" + _VALUE + ")", re.S)


def split_blocks(text: str) -> list[Block]:
    """Every entry, macro and failed block of `text`, in order (comments and preambles left out)."""
    blocks: list[Block] = []
    line_starts = _line_starts(text)
    nxt = 0  # index of the first line start after the block being read
    line, counted = 1, 0
    pos, n = 0, len(text)
    while pos < n:
        m = _START_RE.search(text, pos)
        if m is None:
            break
        at = m.start()
        line += text.count("\n", counted, at)
        counted = at
        while nxt < len(line_starts) and line_starts[nxt] <= at:
            nxt += 1
        kind = m.group(0).lower()
        if text[m.end()] == "{" and not kind.startswith(("@comment", "@preamble", "@string")):
            limit = line_starts[nxt] if nxt < len(line_starts) else n
            fast = _fast_entry(text, m, line, limit)
            if fast is not None:
                blocks.append(fast[0])
                pos = fast[1]
                continue
        block, pos = _Block(text, m).read(kind, line)
        if block is not None:
            blocks.append(block)
    return blocks


def _line_starts(text: str) -> list[int]:
    """Offsets of the block starts (`@type{`) that begin a line, after blanks only."""
    out = []
    for m in _START_RE.finditer(text):
        at = m.start()
        bol = text.rfind("\n", 0, at) + 1
        if bol == at or text[bol:at].isspace():
            out.append(at)
    return out


def _fast_entry(text: str, m: re.Match[str], line: int, limit: int) -> tuple[Entry, int] | None:
    """A well-formed `{`-entry ending before `limit` (the next line-start `@`), or `None`."""
    # never past `limit`: an unclosed brace must not send the match to the end of the file
    whole = _ENTRY_RE.match(text, m.end(), limit)
    if whole is None:
        return None
    pos = whole.end()
    if text.find('{"}', m.end(), pos) >= 0:
        return None  # an `@` line inside, or a `{"}` quote: the slow path decides
    fields: list[tuple[str, str]] = []
    dups: frozenset[str] = frozenset()
    if whole.start(2) >= 0:
        fields = [
            (k.strip(), v.strip()) for k, v in _FIELD_RE.findall(text, whole.start(2), whole.end(2))
        ]
        names = [k for k, _ in fields]
        if len(set(names)) < len(names):
            dups = frozenset(k for i, k in enumerate(names) if k in names[:i])
    return Entry(line, m.group(1).lower(), whole.group(1).strip(), fields, dups), pos


class _Abort(Exception):
    def __init__(self, reason: str, end: int) -> None:
        super().__init__(reason)
        self.reason, self.end = reason, end


class _Block:
    """One block read delimiter by delimiter, as bibtexparser's splitter reads it."""

    def __init__(self, text: str, start: re.Match[str]) -> None:
        self.text, self.start = text, start
        paren = text[start.end()] == "("
        self.closer = ")" if paren else "}"
        self.marks = (_PAREN_MARK_RE if paren else _MARK_RE).finditer(text, start.end() + 1)
        self.pending: re.Match[str] | None = None
        self.last = start.end() + 1  # where reading goes on after this block

    def read(self, kind: str, line: int) -> tuple[Block | None, int]:
        """`(block or None for a comment/preamble, where the next block may start)`."""
        try:
            if kind.startswith("@comment"):
                self._to_closer(track_quotes=False)
                block: Block | None = None
            elif kind.startswith("@preamble"):
                self._to_closer(track_quotes=True)
                block = None
            elif kind.startswith("@string"):
                block = self._string(line)
            else:
                block = self._entry(kind, line)
        except _Abort as exc:
            raw = self.text[self.start.start() : max(exc.end, self.start.start())]
            block = Failed(line, raw, exc.reason)
        resume = self.pending.start() if self.pending is not None else self.last
        return block, resume

    def _next(self) -> re.Match[str]:
        if self.pending is not None:
            m, self.pending = self.pending, None
        else:
            m = next(self.marks, None)  # type: ignore[arg-type]
            if m is None:
                self.last = len(self.text)
                raise _Abort("Unexpectedly reached end of file.", len(self.text))
        self.last = m.end()
        return m

    def _at_line_start(self, pos: int) -> bool:
        i = pos - 1
        while i >= 0:
            ch = self.text[i]
            if ch == "\n":
                return True
            if not ch.isspace():
                return False
            i -= 1
        return True

    def _to_closer(self, track_quotes: bool) -> int:
        curls, quoted = 0, False
        track_quotes = track_quotes and self.closer == ")"
        while True:
            m = self._next()
            g = m.group(0)
            if g == "{":
                curls += 1
            elif g == "}" and curls > 0:
                curls -= 1
            elif curls == 0 and g == '"' and track_quotes:
                quoted = not quoted
            elif curls == 0 and g == self.closer and not quoted:
                return m.start()
            elif g.startswith("@") and self._at_line_start(m.start()):
                self.pending = m
                raise _Abort(
                    f"Unexpected block start: `{g}`. Was still looking for closing bracket",
                    m.start() - 1,
                )

    def _string(self, line: int) -> Macro:
        eq = self._next()
        if eq.group(0) != "=":
            self.pending = eq
            raise _Abort(f"Expected equals sign after field key, but found {eq.group(0)}", eq.end())
        name = self.text[self.start.end() + 1 : eq.start()].strip()
        end = self._to_closer(track_quotes=True)
        return Macro(line, name, self.text[eq.end() : end].strip())

    def _entry(self, kind: str, line: int) -> Entry:
        key_start = self.start.end() + 1
        comma = self._next()
        if comma.group(0) == self.closer:
            key = self.text[key_start : comma.start()].strip()
            return Entry(line, kind[1:].strip(), key, [], frozenset())
        if comma.group(0) != ",":
            self.pending = comma
            raise _Abort(f"Expected comma after entry key, but found {comma.group(0)}", comma.end())
        key = self.text[key_start : comma.start()].strip()
        fields, dups = self._fields(comma.end())
        return Entry(line, kind[1:].strip(), key, fields, frozenset(dups))

    def _fields(self, key_start: int) -> tuple[list[tuple[str, str]], set[str]]:
        fields: list[tuple[str, str]] = []
        names: set[str] = set()
        dups: set[str] = set()
        text, closer = self.text, self.closer
        while True:
            eq = self._next()
            g = eq.group(0)
            if g == closer:
                dangling = text[key_start : eq.start()].strip()
                if dangling:
                    raise _Abort(
                        f"Expected a `=` after entry key `{dangling}`, "
                        f"but found the end of the entry (`{closer}`).",
                        eq.end(),
                    )
                return fields, dups
            if g != "=":
                self.pending = eq
                raise _Abort(f"Expected a `=` after entry key, but found `{g}`.", eq.start())
            value_end = self._value_end()
            name = text[key_start : eq.start()].strip()
            if name in names:
                dups.add(name)
            names.add(name)
            fields.append((name, text[eq.end() : value_end].strip()))
            after = self._next()  # `,` or the closer: `_value_end` stopped there
            if after.group(0) == ",":
                key_start = after.end()
            else:
                self.pending = after
                key_start = after.start()

    def _value_end(self) -> int:
        """Offset of the `,` or closer ending a field value (left pending)."""
        quoted, curls = False, 0
        text, closer = self.text, self.closer
        while True:
            m = self._next()
            g = m.group(0)
            if g == '"' and curls == 0:
                p = m.start()
                if quoted and 0 < p < len(text) - 2 and text[p - 1 : p + 2] == '{"}':
                    continue  # `{"}` is a literal quote inside a quoted value
                quoted = not quoted
            elif g == "{" and not quoted:
                curls += 1
            elif g == "}" and not quoted and curls > 0:
                curls -= 1
            elif (g == "," or g == closer) and not quoted and curls == 0:
                self.pending = m
                return m.start()
            elif g.startswith("@") and self._at_line_start(m.start()):
                self.pending = m
                if quoted:
                    looking_for = '`"`'
                elif curls > 0:
                    looking_for = "`}`"
                else:
                    looking_for = f"`,` or `{closer}`"
                raise _Abort(
                    f"Unexpected block start: `{g}`. "
                    f"Was still looking for field-value closing {looking_for} ",
                    m.start() - 1,
                )
