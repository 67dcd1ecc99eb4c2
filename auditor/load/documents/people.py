"""Split the author part of a formatted reference into one string per author.

Handles the forms the style families print: `A. Smith, B. Jones, and C. Lee` (natural order),
`Smith, A., Jones, B., & Lee, C.` (APA, inverted with initials), `Smith, Alan, Bob Jones, and
Cy Lee` (Chicago: the first inverted), `Smith A, Jones BC` (Vancouver, family first without a
comma) and `张三, 李四` (GB/T 7714). Each name keeps the words as printed; a family-first name
printed without a comma (Vancouver, GB/T) gets one after the family name, because the criteria
read the part before a comma as the surname and otherwise the last word. `et al.`, `others` and
`等` become the flag, and so does APA 7's `…` before the last name. Never raises.
"""

from __future__ import annotations

import re

__all__ = ["PARTICLE", "split_authors"]

# Leading space is taken only where a run of it starts (or right after the last separator):
# tried at every space of a long run, as `\s*` alone would be, it costs the square of the run.
_AND_RE = re.compile(r"(?:(?<!\s)\s*|(?<=\s))(?:(?:,\s*)?(?:(?<=\s)(?:and|und|AND)\s+|&\s*)|;\s*)")
# (here and below: space before the match is taken only from where its run starts, `(?<!\s)`;
# a match found inside the run is found at its start first, and trying each space of a long run
# that ends in no match would cost the square of the run)
_ET_AL_RE = re.compile(
    r"(?:(?:,|(?<!\s))\s*(?:et\s*al\.?|and\s+others|others|等|等人)\s*)$", re.IGNORECASE
)
#: A surname particle, as a pattern (`van`, `de`, `y`, …).
PARTICLE = r"(?:van|von|de|der|den|del|della|da|das|dos|du|di|la|le|ten|ter|zu|vom|y)"
# `J. A.`, `P.-Y.`, `İ. İ.`, `JA`, and a particle after them: BibTeX's initials of it
# (`J. W. v. d.`, as `apalike` prints `van der Meent`) or CSL's demoted particle in full
# (`Schaar, M. van der`, as APA and Nature print `van der Schaar`)
_INITIALS_RE = re.compile(
    r"^(?:[A-Z\u00c0-\u00de\u0100-\u017f](?:[a-z]?\.|\.?-[A-Z]\.?|\b)\s*){1,5}"
    rf"(?:[a-z]\.\s*){{0,3}}(?:{PARTICLE}(?:\s+|$)){{0,3}}$"
)
_DEMOTED_RE = re.compile(rf"^(?P<i>.*?)(?<!\s)\s++(?P<p>{PARTICLE}(?:\s+{PARTICLE}){{0,2}})$")
_VANCOUVER_RE = re.compile(
    r"^(?P<f>[\w'’\-\u00c0-\u024f][\w'’\-\s\u00c0-\u024f]*?)(?<!\s)\s++(?P<i>[A-Z]{1,4})$"
)
_INITIAL_DOT_RE = re.compile(r"(?:^|[\s.\-])[A-Za-z\u00c0-\u00de]\.$")
_HAN_RE = re.compile(r"[\u3400-\u9fff]")
_DASHES_RE = re.compile(r"^[—–\-_]{2,}\.?$")


def _is_initials(part: str) -> bool:
    return bool(_INITIALS_RE.match(part.strip()))


def _one_word(part: str) -> bool:
    words = part.split()
    # `van der Berg`: lowercase particles then one capitalised word
    return bool(words) and all(w[:1].islower() for w in words[:-1]) and not _is_initials(part)


def split_authors(text: str | None) -> tuple[list[str], bool]:
    """`(names as written, et-al flag)` of an author list; `([], False)` for nothing."""
    t = (text or "").strip(" ,;:")
    # a final full stop ends the list, unless it closes an initial (`Bellemare, M. G.`)
    t = t if _INITIAL_DOT_RE.search(t) else t.rstrip(" .")
    if not t or _DASHES_RE.match(t):
        return [], False
    et_al = bool(_ET_AL_RE.search(t))
    t = _ET_AL_RE.sub("", t).strip(" ,;")
    parts = [
        p.strip(" .,") if not _is_initials(p.strip(" ,")) else p.strip(" ,") for p in _parts(t)
    ]
    parts = [p for p in parts if p]
    names: list[str] = []
    i = 0
    while i < len(parts):
        p = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if nxt is not None and _is_initials(nxt) and not _is_initials(p):
            names.append(_inverted(p, nxt))  # APA: `Smith, A. B.`
            i += 2
        elif i == 0 and nxt is not None and _first_family(p) and _given_like(nxt):
            names.append(f"{p}, {nxt}")  # Chicago: only the first author is inverted
            i += 2
        else:
            names.append(_family_first(p))
            i += 1
    if any(a.startswith("…") for a in names):  # APA 7: `A, B, … Z`: the middle left out
        return [a.lstrip("… ") for a in names], True
    return names, et_al


def _inverted(family: str, initials: str) -> str:
    """`Smith, A. B.`; a particle printed after the initials goes back before the family name
    (`Schaar, M. van der` → `van der Schaar, M.`), where every reader of a surname looks."""
    m = _DEMOTED_RE.match(initials)
    if m:
        return f"{m.group('p')} {family}, {m.group('i')}"
    return f"{family}, {initials}"


def _parts(t: str) -> list[str]:
    out: list[str] = []
    for chunk in _AND_RE.split(t):
        out.extend(c for c in chunk.split(",") if c.strip())
    return out


def _first_family(part: str) -> bool:
    """A first part that can only be a family name: one word (with particles), or one initial
    (`R., Mallikarjun B.`: a family name printed as an initial)."""
    # `d'Amore F` is Vancouver's `Family I`, not a Chicago family name: its lowercase `d'` is
    # no particle, and taking it as one would glue the next author on as its given names
    vancouver = _VANCOUVER_RE.match(part)
    if vancouver and not vancouver.group("f").isupper():
        return False
    return _one_word(part) or len(part.split()) == 1


def _given_like(part: str) -> bool:
    """`Momin`, `Durmus Alp Emre`, `Jacob D.`: given names, not a second `Given Family` name
    that would make a natural-order list of one-word names unlikely to be inverted."""
    words = part.split()
    return 1 <= len(words) <= 4 and all(w[:1].isupper() for w in words)


def _family_first(name: str) -> str:
    """`Smith AB` → `Smith, AB` (Vancouver); `张三` stays; anything else as written."""
    if "," in name or _HAN_RE.search(name):
        return name
    m = _VANCOUVER_RE.match(name)
    if m and not m.group("f").isupper():
        return f"{m.group('f')}, {m.group('i')}"
    words = name.split()
    # GB/T 7714 prints Latin names `SMITH J` / `SMITH John`: the all-capital word is the family
    first = words[0] if words else ""
    if (
        len(words) >= 2
        and first.isalpha()
        and first.isupper()
        and len(first) > 1
        and not words[-1].isupper()
    ):
        return f"{words[0]}, {' '.join(words[1:])}"
    if m:
        return f"{m.group('f')}, {m.group('i')}"
    return name
