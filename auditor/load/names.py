"""Author lists: split a BibTeX `author` field, or a list from RIS/CSV, into one string per author.

BibTeX separates names with the word `and` (any case) at brace depth 0, so `{Barnes and Noble}`
and `{World Health Organization}` stay one (corporate) author. A trailing `and others` (or
`et al.`) is not an author: it sets the et-al flag. Names are kept exactly as written (LaTeX
rendered, nothing reordered): `reference-resolution/v1` reads only them. Their parse
(`auditor.names.parse`, BibTeX's own split) goes beside them in `author_names`.

A field that separates names with commas (`A B, C D, and E F`) is malformed BibTeX that language
models often write. BibTeX (and v1) read it literally; `split_bibtex_authors` also returns the
names it means, with the warning `author_list_commas`, for auditor/v2.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from auditor.load.caps import MAX_NAMES
from auditor.load.latex import latex_to_unicode
from auditor.names import parse, parse_family_given

__all__ = ["AuthorList", "clean_author_list", "family_given_names", "split_bibtex_authors"]

# from where a run of space starts only (tried inside a long run it costs the run's square)
_AND_RE = re.compile(r"(?<!\s)\s+and\s+", re.IGNORECASE)
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


_TIE_RE = re.compile(r"(?<!\\)~")  # a tie, not the `\~` accent


def _is_et_al(name: str) -> bool:
    return name.strip().strip("{}").strip().lower() in _ET_AL


@dataclass(frozen=True)
class AuthorList:
    """A BibTeX `author` field read: names as written, their parse, and the comma-list reading."""

    authors: list[str]
    """One string per name as written, LaTeX rendered (BibTeX's literal reading: v1 reads this)."""
    et_al: bool
    """`and others` / `et al.` was in the list."""
    parsed: list[dict[str, str | None] | None]
    """The `author_names` value: one `tables.AUTHOR_NAME` per name (of `comma_names` when the
    field is a comma list, else of `authors`)."""
    comma_names: list[str] | None = None
    """The names a comma-separated list means (`A B, C D, and E F`), or `None`: not one."""


def _first_names(raw: str) -> str:
    """`raw` cut before its `MAX_NAMES + 1`-th `and`: a list past the cap is never split whole
    (`auditor.load.caps` makes its row INVALID from the `MAX_NAMES + 1` names kept)."""
    if len(raw) < MAX_NAMES * 5:  # too short to hold that many `and`s
        return raw
    for i, m in enumerate(_AND_RE.finditer(raw)):
        if i == MAX_NAMES:
            return raw[: m.start()]
    return raw


def split_bibtex_authors(raw: str) -> AuthorList:
    """Split a BibTeX name list at depth-0 `and`. Never raises; empty parts are dropped.
    At most `MAX_NAMES + 1` names are read."""
    raw = _first_names(raw.strip())
    if not raw:
        return AuthorList([], False, [])
    names: list[str] = []
    authors: list[str] = []
    # Per name: the list goes on after a comma (`A B, C D, and E F`, `A B, C D, et al.`).
    trailing: list[bool] = []
    et_al = False
    parts = _split_depth0(raw)
    for i, part in enumerate(parts):
        # Ties read as spaces first, so `Smith, J.~et~al.` loses its marker as it would rendered.
        name, marker = _clean_name(_TIE_RE.sub(" ", part) if "~" in part else part)
        et_al = et_al or marker
        if marker and not name and trailing:
            trailing[-1] = True  # `A B, C D and et al`
        rendered = _rendered(name) if name else ""
        if rendered:
            names.append(name)
            authors.append(rendered)
            more = part.rstrip().endswith(",") and i < len(parts) - 1
            trailing.append(more or (marker and "," in name))
    commas = _comma_list(names, trailing)
    if commas is None:
        return AuthorList(authors, et_al, [_parsed(n) for n in names])
    meant: list[str] = []
    for seg in commas:
        name, marker = _clean_name(seg)
        et_al = et_al or marker
        if name and _rendered(name):
            meant.append(name)
    return AuthorList(authors, et_al, [_parsed(n) for n in meant], [_rendered(n) for n in meant])


@lru_cache(maxsize=1 << 17)
def _rendered(name: str) -> str:
    """A name as `authors` keeps it: LaTeX rendered. Memoised: the same authors recur."""
    return latex_to_unicode(name).strip()


@lru_cache(maxsize=1 << 17)
def _parsed(name: str) -> dict[str, str | None] | None:
    """BibTeX's own split of one raw name, each part rendered."""
    p = parse(name, render=latex_to_unicode)
    return p.as_row() if p is not None else None


def _commas(part: str) -> list[str]:
    """`part` split at its commas at brace depth 0, each piece stripped."""
    if "{" not in part:  # the common case: no brace can hide a comma (the loop is 10x slower)
        return [piece.strip() for piece in part.split(",")]
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(part):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            out.append(part[start:i].strip())
            start = i + 1
    out.append(part[start:].strip())
    return out


_INITIAL = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")


def _words(seg: str) -> list[str]:
    """The words of a raw segment as rendered (`T{\\" o}r{\\" o}k` is one word)."""
    return _rendered(seg).split()


def _full_name(seg: str) -> bool:
    """A given-first personal name: two words or more, the last no initial (`Jane Doe`)."""
    words = _words(seg)
    return len(words) >= 2 and not _INITIAL.match(words[-1]) and not _is_et_al(seg)


def _given_first(seg: str) -> bool:
    """`seg` cannot be the family part of `Last, First`: it holds an initial before its last
    word (`J. Smith`, `Paul S. de Vries`) or a lower-case word after a capitalised one."""
    words = _words(seg)
    if any(_INITIAL.match(w) for w in words[:-1]):
        return True
    return words[0][:1].isupper() and any(w[:1].islower() for w in words[1:-1])


def _part_is_list(segs: list[str], ends_with_comma: bool) -> bool:
    """Whether one `and`-part, split at its commas, is several names rather than one name."""
    names = [s for s in segs if s and not _is_et_al(s)]
    if not names or not all(map(_full_name, names)):
        return False  # `Vries, Paul S. de`, `Smith, J.`, `von Last, Jr, First`, `Smith J, et al.`
    if len(names) < len([s for s in segs if s]):
        return len(names) >= 2  # `A B, C D, et al.`
    if len(names) < 2:
        return False
    if len(names) >= 3 or ends_with_comma:
        return True  # `A B, C D, E F`; `A B, C D, and E F`
    # `Garcia Marquez, Gabriel Jose` has the shape of `Alice Brown, Carl Davis`: only a family
    # part no `Last, First` can have (`J. Smith, K. Lee`) makes two names of it.
    return _given_first(names[0])


def _comma_list(parts: list[str], trailing: list[bool]) -> list[str] | None:
    """The names of a comma-separated author list, or `None` when every part is one name."""
    if all("," not in p for p in parts):
        return None  # the common case
    out: list[str] = []
    split = False
    for i, part in enumerate(parts):
        head, comma, rest = part.partition(",")
        if comma and "," not in rest and len(head.split()) <= 1:
            out.append(part)  # `Smith, Jane`, the usual form: one comma after one word is one name
            continue
        segs = _commas(part)
        if len(segs) > 1 and _part_is_list(segs, trailing[i]):
            split = True
            out.extend(s for s in segs if s)
        else:
            out.append(part)
    return out if split else None


def clean_author_list(names: Iterable[str]) -> tuple[list[str], bool]:
    """Drop empty names and `others`/`et al.` markers (returned as the flag), trim whitespace.
    At most `MAX_NAMES + 1` names are kept (the cap's row is INVALID)."""
    out: list[str] = []
    et_al = False
    for name in names:
        if len(out) > MAX_NAMES:
            break
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


def family_given_names(authors: Iterable[str]) -> list[dict[str, str | None] | None] | None:
    """The `author_names` value of names written `Family, Given` (RIS, MEDLINE `FAU`, WoS, EndNote):
    one parse per name, null for a name without a comma; `None` when no name has one."""
    parsed = [p.as_row() if (p := parse_family_given(a)) is not None else None for a in authors]
    return parsed if any(p is not None for p in parsed) else None
