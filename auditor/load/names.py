"""Author lists: split a BibTeX `author` field, or a list from RIS/CSV, into one string per author.

BibTeX separates names with the word `and` (any case) at brace depth 0, so `{Barnes and Noble}`
and `{World Health Organization}` stay one (corporate) author. A trailing `and others` (or
`et al.`) is not an author: it sets the et-al flag. Names are kept as written (LaTeX decoded), so
the criteria's claimed-surname rule recovers the surname: `Last, First` and `von Last, Jr, First`
→ the part before the first comma; `First Last` → the last token; and `First {Multi Word}` is
written `Multi Word, First` so that its braced surname is not cut to its last word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from auditor.load.latex import latex_to_unicode

__all__ = ["clean_author_list", "split_bibtex_authors"]

_AND_RE = re.compile(r"\s+and\s+", re.IGNORECASE)
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


def _braced_last(name: str) -> str:
    """`Jean {de la Fontaine}` → `{de la Fontaine}, Jean`: a braced multi-word last name written
    after the first names is moved before a comma, so the surname stays recoverable by the
    criteria's rule (part before the comma, else the last token). Other names are unchanged."""
    s = name.strip()
    if not s.endswith("}") or "," in s:
        return name
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        depth += {"}": 1, "{": -1}.get(s[i], 0)
        if depth == 0:
            first, last = s[:i].strip(), s[i:]
            if first and " " in last.strip() and not first.endswith("\\"):
                return f"{last}, {first}"
            return name
    return name


def _is_et_al(name: str) -> bool:
    return name.strip().strip("{}").strip().lower() in _ET_AL


def split_bibtex_authors(raw: str) -> tuple[list[str], bool]:
    """Split a BibTeX name list into `(authors, et_al)`. Never raises; empty parts are dropped."""
    raw = raw.strip()
    if not raw:
        return [], False
    parts = (_braced_last(p) if p.endswith("}") else p for p in _split_depth0(raw))
    return clean_author_list(latex_to_unicode(p) for p in parts if p.strip())


def clean_author_list(names: Iterable[str]) -> tuple[list[str], bool]:
    """Drop empty names and `others`/`et al.` markers (returned as the flag), trim whitespace."""
    out: list[str] = []
    et_al = False
    for name in names:
        n = name.strip().rstrip(",;").strip()
        if not n:
            continue
        low = n.lower()
        if "et" not in low and "others" not in low:  # the common case: an ordinary name
            out.append(n)
            continue
        if _is_et_al(n):
            et_al = True
            continue
        for tail in (" et al.", " et al", ", et al.", ", et al"):
            if low.endswith(tail):  # "Smith J, et al." written as one name by some exporters
                et_al = True
                n = n[: -len(tail)].rstrip(" ,")
                break
        if n:
            out.append(n)
    return out, et_al
