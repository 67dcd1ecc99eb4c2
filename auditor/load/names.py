"""Author lists: split a BibTeX `author` field, or a list from RIS/CSV, into one string per author.

BibTeX separates names with the word `and` (any case) at brace depth 0, so `{Barnes and Noble}`
and `{World Health Organization}` stay one (corporate) author. A trailing `and others` (or
`et al.`) is not an author: it sets the et-al flag. Names are kept as written (LaTeX decoded), so
the criteria's claimed-surname rule recovers the surname: `Last, First` and `von Last, Jr, First`
→ the part before the first comma; `First Last` → the last token. A name BibTeX would split
differently is written in its `von Last, First` order first (`_bibtex_order`): particles go
with the surname, a braced last part (`{de la Fontaine}`, `{Bennett, Jr.}`) stays whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from auditor.load.latex import latex_to_unicode

__all__ = ["clean_author_list", "split_bibtex_authors"]

_AND_RE = re.compile(r"\s+and\s+", re.IGNORECASE)
_LOWER_WORD_RE = re.compile(r"[\s~][a-z]")
_ET_AL_WORDS = frozenset({"al", "al.", "others", "al..", "etal"})
_ET_AL = frozenset({"others", "et al", "et al.", "et. al.", "etal", "et al..", "and others"})


def _split_depth0(raw: str) -> list[str]:
    quick = _AND_RE.split(raw)
    if "{" not in raw or all(p.count("{") == p.count("}") for p in quick):
        return quick  # no `and` sits inside braces
    parts: list[str] = []
    depth, start, scan = 0, 0, 0
    for m in _AND_RE.finditer(raw):
        chunk = raw[scan : m.start()]
        depth += chunk.count("{") - chunk.count("}")
        scan = m.start()
        if depth <= 0:
            parts.append(raw[start : m.start()])
            start = m.end()
    parts.append(raw[start:])
    return parts


def _tokens(name: str) -> list[str] | None:
    """Whitespace-separated tokens at brace depth 0, or `None` when the name has a depth-0 comma
    (it is already `Last, First` or `von Last, Jr, First`, which BibTeX and we read as written)."""
    tokens: list[str] = []
    depth, start = 0, None
    for i, ch in enumerate(name):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif depth == 0 and ch == ",":
            return None
        tie = ch == "~" and (i == 0 or name[i - 1] != "\\")  # `\\~a` is an accent, not a tie
        if depth == 0 and (ch.isspace() or tie):
            if start is not None:
                tokens.append(name[start:i])
                start = None
        elif start is None:
            start = i
    if start is not None:
        tokens.append(name[start:])
    return tokens


def _is_von(token: str) -> bool:
    """BibTeX's test: the first letter at brace depth 0 is lower case; a `{\\'e}` accent counts
    as its letter; any other brace group (`{Foo}`, `{G\\"o}del`) has no case, so is not von."""
    depth, i = 0, 0
    while i < len(token):
        ch = token[i]
        if ch == "\\":  # a command: its name is not a letter of the name (`\\v{C}apek`)
            i += 1
            while i < len(token) and token[i].isalpha():
                i += 1
            continue
        if ch == "{":
            if depth == 0 and token[i + 1 : i + 2] != "\\":
                return False
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch.isalpha():
            return ch.islower()
        i += 1
    return False


def _bibtex_order(name: str) -> str:
    """`First von Last` rewritten as `von Last, First`, as BibTeX splits it, so the criteria's
    surname rule (the part before the comma, else the last token) sees the whole surname:

    - `Ludwig van Beethoven` → `van Beethoven, Ludwig`; `Charles de la Vall{\\'e}e Poussin` →
      `de la Vall{\\'e}e Poussin, Charles` (von: the lower-case words before the last);
    - `Jean {de la Fontaine}` → `{de la Fontaine}, Jean` and `Frank G. {Bennett, Jr.}` →
      `{Bennett, Jr.}, Frank G.` (a braced last token is one surname, comma and all);
    - `Bogdan Filipi{\\v c}` stays: a brace group inside a token is part of that token.

    Names with a depth-0 comma, one token, or no particle are unchanged.
    """
    if not name.rstrip().endswith("}") and ("," in name or not _LOWER_WORD_RE.search(name)):
        return name  # the common case: no braced last token, and a comma or no particle
    tokens = _tokens(name.strip())
    if not tokens or len(tokens) < 2:
        return name
    last = tokens[-1]
    if last.startswith("{") and last.endswith("}") and last[1:2] != "\\":
        inner = last[1:-1]
        if " " in inner.strip() or "," in inner:
            return f"{last}, {' '.join(tokens[:-1])}"
    if tokens[-1].lower() in _ET_AL_WORDS:
        return name  # `David Jones et al.`: the marker is dropped later, not a particle
    von = [i for i in range(1, len(tokens) - 1) if _is_von(tokens[i])]
    if not von:
        return name
    return f"{' '.join(tokens[von[0] :])}, {' '.join(tokens[: von[0]])}"


def _is_et_al(name: str) -> bool:
    return name.strip().strip("{}").strip().lower() in _ET_AL


def split_bibtex_authors(raw: str) -> tuple[list[str], bool]:
    """Split a BibTeX name list into `(authors, et_al)`. Never raises; empty parts are dropped."""
    raw = raw.strip()
    if not raw:
        return [], False
    out: list[str] = []
    et_al = False
    for part in _split_depth0(raw):
        name, marker = _bibtex_name(part)
        et_al = et_al or marker
        if name:
            out.append(name)
    return out, et_al


@lru_cache(maxsize=1 << 17)
def _bibtex_name(part: str) -> tuple[str, bool]:
    """One name of a BibTeX list as `clean_author_list` keeps it (`""`: dropped), and whether it
    was an et-al marker. Memoised: the same authors recur across a bibliography."""
    if not part.strip():
        return "", False
    return _clean_name(latex_to_unicode(_bibtex_order(part)))


def clean_author_list(names: Iterable[str]) -> tuple[list[str], bool]:
    """Drop empty names and `others`/`et al.` markers (returned as the flag), trim whitespace."""
    out: list[str] = []
    et_al = False
    for name in names:
        n, marker = _clean_name(name)
        et_al = et_al or marker
        if n:
            out.append(n)
    return out, et_al


def _clean_name(name: str) -> tuple[str, bool]:
    """`(name trimmed, or "" when nothing is left, was it an et-al marker)`."""
    n = name.strip().rstrip(",;").strip()
    if not n:
        return "", False
    low = n.lower()
    if "et" not in low and "others" not in low:  # the common case: an ordinary name
        return n, False
    if _is_et_al(n):
        return "", True
    for tail in (" et al.", " et al", ", et al.", ", et al"):
        if low.endswith(tail):  # "Smith J, et al." written as one name by some exporters
            return n[: -len(tail)].rstrip(" ,"), True
    return n, False
