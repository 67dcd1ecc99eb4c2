"""A LaTeX manuscript read by TeX's rules for argument text (not run as TeX).

`TexSource` strips comments as TeX does (`%` to the end of the line *and* that line end, and the
spaces that open the next line, unless the `%` is escaped as `\\%` or stands in a `\\url{…}`),
keeping a map back to the original line numbers, and blanks `comment` and `verbatim`-like
environments. `commands` then walks its control words in order:

- every citation command (natbib, biblatex, plain LaTeX, in any case: `\\Citet`, `\\Parencite`),
  starred or not, with its optional arguments (`[…]`, biblatex multicite `(…)`), and the key
  groups of a multicite command (`\\cites[p.~1]{a}[p.~2]{b}`). Spaces and one line end may stand
  between the command and its arguments, and a key list may span lines;
- `\\input{file}`, `\\input file` (TeX primitive syntax), `\\include{…}`, `\\subfile{…}`,
  `\\import{dir/}{file}` and `\\subimport{…}{…}`;
- `\\bibliography{…}`, `\\addbibresource{…}` (with `\\jobname` as the main file's name);
- `filecontents` / `filecontents*` environments (their text, where they start).

A key that cannot be read (a macro in it, a group never closed) is reported, never dropped.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from auditor.load.enclosed import Closing, NextChar, enclosed, replaced

__all__ = ["IMPORTS", "Command", "TexSource", "is_citation", "is_multicite"]

#: The import package's commands: a folder, then a file (`\\subimport{chapters/}{intro}`).
IMPORTS: frozenset[str] = frozenset(
    {"import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"}
)

_CONTROL = re.compile(r"\\([A-Za-z@]+)|\\.", re.S)
# Control words containing "cite" that are settings or lists, not citations.
_NOT_CITATIONS = frozenset(
    {"citestyle", "citeindexfalse", "citeindextrue", "citesetup", "citeindextype"}
)
#: Control words that define or set up citation commands rather than cite.
_DEFINING = ("declare", "renew", "new", "provide", "def", "let", "undef")
_SETTING_WORDS = ("style", "setup", "punct", "tracker", "counter", "reset", "delim", "index")
#: Environments whose text LaTeX does not read as text: citations in them are not citations.
# (each opening with the first `\\end{…}` of its name after it, found by `enclosed`: as the one
# pattern `\\begin\s*\{(comment|…)\}(.*?)\\end\s*\{\1\}` would, without its cost, the text's
# length for every opening never closed)
_IGNORED = re.compile(r"\\begin\s*\{(comment|verbatim\*?|lstlisting|minted)\}")
#: `\\begin{filecontents}[options]{name}`, read up to its options; then the name.
_FILECONTENTS = re.compile(r"\\begin\s*\{(filecontents\*?)\}\s*")
# (space is read here only after `]`: the header's `\s*` took any before the name)
_FILE_NAME = re.compile(r"(?:(?<=\])\s*)?\{[^{}]*\}")
_ENDS = {
    name: re.compile(r"\\end\s*\{" + re.escape(name) + r"\}")
    for name in ("comment", "verbatim", "verbatim*", "lstlisting", "minted")
    + ("filecontents", "filecontents*")
}


def is_citation(name: str) -> bool:
    """Whether control word `name` (without `\\`) cites: it contains `cite` (any case), as
    `\\nocite` and `\\fullcite` do, or is natbib's `\\bibentry`; and is neither a setting
    (`\\citestyle`, `\\citesetup`), a definition (`\\DeclareCiteCommand`) or an internal macro
    (`\\@cite`, redefined under `\\makeatletter`)."""
    lower = name.lower()
    if lower == "bibentry":
        return True
    return (
        "cite" in lower
        and "@" not in lower  # a package's internals (`\\@cite`, `\\b@citeword`), not a command
        and lower not in _NOT_CITATIONS
        and not lower.startswith(_DEFINING)
        and not any(word in lower for word in _SETTING_WORDS)
    )


def is_multicite(name: str) -> bool:
    """Whether `name` is a biblatex multicite command (`\\cites`, `\\Parencites`, …): after its
    first key group more `[…]{…}` groups follow, as long as the next token opens one."""
    return name.lower().endswith("cites")


@dataclass(frozen=True)
class Command:
    """One control word of interest with its arguments, where it stands."""

    name: str
    """The control word without `\\` (`citep`, `input`, `filecontents`)."""
    groups: tuple[tuple[str, int], ...]
    """Mandatory arguments: each group's text and the offset it starts at in the clean text."""
    line: int
    """The original line the command starts on."""
    unclosed: bool = False
    """A brace group was opened and never closed (the rest of the file would be its text)."""


def _filecontents_body(text: str) -> Closing:
    """Where a `filecontents` environment's body starts (after `[options]{name}`), and its end."""
    bracket = NextChar(text, "]")

    def closing(begin: re.Match[str]) -> tuple[int, re.Pattern[str]] | None:
        at = begin.end()
        if text.startswith("[", at):
            at = bracket.find(at) + 1
            if not at:
                return None
        name = _FILE_NAME.match(text, at)
        return None if name is None else (name.end(), _ENDS[begin[1]])

    return closing


class TexSource:
    """The comment-free text of one `.tex` file, with original line numbers for any offset."""

    def __init__(self, text: str) -> None:
        # Windows and old Mac line ends are line ends to TeX (a `\r` would stop an argument)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.original = text
        files = list(enclosed(text, _FILECONTENTS, _filecontents_body(text)))
        self.filecontents = []
        line, counted = 1, 0
        for _, body, end in files:
            line, counted = line + text.count("\n", counted, body), body
            name = text[text.rfind("{", 0, body - 1) + 1 : body - 1]  # `{name}` ends the header
            self.filecontents.append((name.strip(), text[body : end.start()], line))
        # filecontents bodies are data, not TeX: blank them (keeping their line ends) first
        spans = ((m.start(), end.end()) for m, _, end in files)
        kept = replaced(text, spans, lambda s: "\n" * s.count("\n"))
        text, self._starts, self._lines = _strip_comments(kept)
        # same length, line ends kept: every offset still maps to its line
        ignored = enclosed(text, _IGNORED, lambda m: (m.end(), _ENDS[m[1]]))
        spans = ((m.start(), end.end()) for m, _, end in ignored)
        self.text = replaced(text, spans, lambda s: re.sub(r"[^\n]", " ", s))
        self._pairs = _brace_pairs(self.text)

    def line_at(self, offset: int) -> int:
        """The original 1-based line of clean-text `offset`."""
        return self._lines[bisect.bisect_right(self._starts, offset) - 1]

    def commands(self, wanted: frozenset[str]) -> Iterator[Command]:
        """Every citation command and every control word in `wanted`, in text order, with its
        arguments read as TeX reads them."""
        text = self.text
        for match in _CONTROL.finditer(text):
            name = match[1]
            if name is None or not (is_citation(name) or name in wanted):
                continue
            at = match.end()
            if name == "input" and _next(text, at)[0] != "{":
                yield from self._bare_input(at, match.start())
                continue
            yield self._arguments(name, at, match.start())

    def _bare_input(self, at: int, start: int) -> Iterator[Command]:
        # `\input file`: TeX reads a file name up to the next space or line end
        found = _BARE_NAME.match(self.text, at)
        if found:
            yield Command("input", ((found[1], found.start(1)),), self.line_at(start))

    def _arguments(self, name: str, at: int, start: int) -> Command:
        text = self.text
        line = self.line_at(start)
        groups: list[tuple[str, int]] = []
        multi = is_multicite(name)
        limit = 2 if name in IMPORTS else 1  # `\\subimport{dir/}{file}`
        if text.startswith("*", at):
            at += 1
        while True:
            char, at = _next(text, at)
            if char in ("[", "("):  # optional arguments (biblatex multicite: `(…)` too)
                end = self._optional_end(at, "]" if char == "[" else ")")
                if end < 0:
                    break
                at = end + 1
            elif char == "{":
                end = self._pairs.get(at, -1)
                if end < 0:
                    return Command(name, tuple(groups), line, unclosed=True)
                groups.append((text[at + 1 : end], at + 1))
                at = end + 1
                if not multi and len(groups) >= limit:  # what follows is text (`\citefield`)
                    break
            else:
                break
        return Command(name, tuple(groups), line)

    def _optional_end(self, at: int, closer: str) -> int:
        """The offset of the `closer` ending the optional argument opened at `at`, skipping brace
        groups (LaTeX reads `[…]` up to the first `]` outside braces); -1 when there is none
        within `_MAX_OPTIONAL` characters (a prenote is a few words)."""
        end = min(len(self.text), at + _MAX_OPTIONAL)
        i = at + 1
        while (match := _OPTIONAL_TOKEN.search(self.text, i, end)) is not None:
            token = match[0]
            if token == closer:
                return match.start()
            if token == "{":
                close = self._pairs.get(match.start(), -1)
                if close < 0:
                    return -1
                i = close + 1
            elif token == "}":
                return -1  # the group around the command closes first
            else:
                i = match.end()  # an escape, or the other kind of closer
        return -1


#: The longest optional argument read (`[see][p.~3]`): an unclosed `[` must not make every later
#: command scan far.
_MAX_OPTIONAL = 256
_GAP = re.compile(r"[ \t]*(?:\n[ \t]*)?")
# `\input file`'s name (`match`ed after the command's last letter; the look-behind keeps a scan
# inside a long run of space linear)
_BARE_NAME = re.compile(r"(?<![ \t])[ \t]*([^\s{}\\%#]+)")


def _next(text: str, at: int) -> tuple[str, int]:
    """The next character after spaces and at most one line end, and its offset (`""` at the
    end). A blank line is `\\par`, which ends the search for an argument: its line end is
    returned as the next character."""
    match = _GAP.match(text, at)
    at = match.end() if match else at
    return (text[at] if at < len(text) else ""), at


def _brace_pairs(text: str) -> dict[int, int]:
    """Every `{` offset → the offset of its `}` (-1 when it never closes), in one pass; escaped
    braces (`\\{`) do not count."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for match in _BRACE_TOKEN.finditer(text):
        token = match[0]
        if token == "{":
            stack.append(match.start())
        elif token == "}" and stack:
            pairs[stack.pop()] = match.start()
    pairs.update(dict.fromkeys(stack, -1))
    return pairs


_BRACE_TOKEN = re.compile(r"\\.|[{}]", re.S)
_OPTIONAL_TOKEN = re.compile(r"\\.|[{}\])]", re.S)


def _strip_comments(text: str) -> tuple[str, list[int], list[int]]:
    """`(clean text, offsets where an original line starts, those lines)`.

    A `%` not escaped by a backslash drops the rest of its line, the line end and the next
    line's leading spaces (TeX's state N). `\\\\%` is a line break and then a comment.
    """
    out: list[str] = []
    starts: list[int] = []
    lines: list[int] = []
    size = 0
    joined = False  # the previous line ended in a comment, which ate its line end
    for number, line in enumerate(text.split("\n"), 1):
        if joined:
            line = line.lstrip(" \t")
        elif number > 1:
            out.append("\n")
            size += 1
        starts.append(size)
        lines.append(number)
        cut = _comment_at(line)
        joined = cut >= 0
        piece = line if cut < 0 else line[:cut]
        out.append(piece)
        size += len(piece)
    return "".join(out), starts, lines


def _comment_at(line: str) -> int:
    """The offset of the `%` that opens a comment in `line`, or -1. A `%` inside `\\url{…}`,
    `\\href{…}` or `\\path{…}` is part of the URL (hyperref reads it verbatim: `a%20b`)."""
    if "%" not in line:
        return -1
    verbatim = [m.span(1) for m in _URL_ARGUMENT.finditer(line)]
    i = 0
    while True:
        i = line.find("%", i)
        if i < 0:
            return -1
        backslashes = len(line[:i]) - len(line[:i].rstrip("\\"))
        if backslashes % 2 == 0 and not any(a <= i < b for a, b in verbatim):
            return i
        i += 1


_URL_ARGUMENT = re.compile(r"\\(?:url|href|path|nolinkurl)\s*\{([^{}\n]*)\}")
