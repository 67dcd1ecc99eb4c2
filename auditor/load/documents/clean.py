"""Clean printed text: ligatures, running headers and footers, page numbers, hyphenation.

- `ligatures(s)` maps the typographic ligatures (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ) to their letters, drops soft
  hyphens and maps the Unicode hyphen to `-`.
- `drop_running(lines)` removes the lines a PDF repeats at the top or bottom of its pages
  (a running header or footer, digits ignored, on at least three pages or half of them) and a
  lone page number (`12`, `- 12 -`, `Page 12 of 40`) at a page's top or bottom.
- `join(lines)` joins the lines of one reference: a word hyphenated across a line break
  (`Mor-` + `genstern`) is joined without the hyphen when the next line starts in lower case;
  `Pin-` + `Yu` and `10.1007/S1099-` + `4-0` keep theirs; a line ending in `/` (a URL or DOI
  broken at a slash) is joined without a space.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from auditor.load.documents.lines import Line

__all__ = ["drop_running", "join", "ligatures"]

_LIGATURES = str.maketrans(
    {
        "ﬁ": "fi",
        "ﬂ": "fl",
        "ﬀ": "ff",
        "ﬃ": "ffi",
        "ﬄ": "ffl",
        "ﬅ": "st",
        "ﬆ": "st",
        "\u00ad": "",
        "\u2010": "-",
        "\u2011": "-",
        "\u00a0": " ",
    }
)
_PAGE_NUMBER_RE = re.compile(
    r"^\s*(?:[-–—]\s*)?(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*[-–—])?\s*$", re.I
)
_DIGITS_RE = re.compile(r"\d+")
# a reference's own label (`[#]`, `#.`, `(#)`) at a page edge is content, never a running head
_LABEL_RE = re.compile(r"^\s*(?:\[#\]|\(#\)|#\.\s)")


def ligatures(s: str) -> str:
    """`s` with ligatures mapped to letters, soft hyphens dropped, Unicode hyphens as `-`."""
    return s.translate(_LIGATURES)


def drop_running(lines: Sequence[Line]) -> list[Line]:
    """`lines` without running headers, footers and page numbers (see the module docstring)."""
    pages: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        if line.page is not None:
            pages.setdefault(line.page, []).append(i)
    if not pages:
        return list(lines)
    edges: dict[int, str] = {}
    for at in pages.values():
        for i in (at[0], at[-1]):
            edges[i] = _DIGITS_RE.sub("#", lines[i].text.strip().lower())
    counts = Counter(edges.values())
    need = max(3, len(pages) // 2) if len(pages) > 2 else len(pages) + 1
    drop = {
        i
        for i, shape in edges.items()
        if counts[shape] >= need and len(shape) < 120 and not _LABEL_RE.match(shape)
    }
    for at in pages.values():
        for i in {*at[:2], *at[-2:]}:
            if _PAGE_NUMBER_RE.match(lines[i].text):
                drop.add(i)
    return [line for i, line in enumerate(lines) if i not in drop]


_HYPHEN_END_RE = re.compile(r"[A-Za-z\u00c0-\u024f]-$")


_WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# (from a word's start only: tried at each letter of a long word it costs the word's square)
_LAST_RE = re.compile(r"(?<![^\W\d_])([^\W\d_]+)-$")
_FIRST_RE = re.compile(r"^([^\W\d_]+)")
#: Second halves that make English compounds (`instance-aware`, `pre-training`): a line break
#: after their hyphen keeps it unless the document prints the word joined elsewhere.
_COMPOUND_TAILS = frozenset(
    [
        "aware",
        "based",
        "free",
        "like",
        "level",
        "scale",
        "time",
        "wise",
        "specific",
        "agnostic",
        "driven",
        "dependent",
        "independent",
        "invariant",
        "efficient",
        "shot",
        "order",
        "step",
        "term",
        "world",
        "end",
        "source",
        "art",
        "box",
        "tuning",
        "training",
        "trained",
        "learning",
        "supervised",
        "constrained",
        "guided",
        "oriented",
        "sensitive",
        "preserving",
        "consistent",
        "augmented",
        "rank",
        "resolution",
        "dimensional",
        "layer",
        "stage",
        "task",
        "modal",
        "view",
        "domain",
        "grained",
    ]
)


def vocabulary(lines: Sequence[str]) -> frozenset[str]:
    """The words printed whole on a line (lowercase, hyphenated compounds too), for `join`."""
    words: set[str] = set()
    for line in lines:
        for w in _WORD_RE.findall(line.rstrip("-")):
            low = w.lower()
            words.add(low)
    return frozenset(words)


def _keep_hyphen(head: str, tail: str, words: frozenset[str]) -> bool:
    """Whether `head-` + `tail` across a line break is a compound (keep the hyphen)."""
    a = (m.group(1) if (m := _LAST_RE.search(head)) else "").lower()
    b = (m.group(1) if (m := _FIRST_RE.match(tail)) else "").lower()
    if f"{a}{b}" in words:
        return False
    return f"{a}-{b}" in words or b in _COMPOUND_TAILS or a in ("pre", "non", "self", "multi")


def join(lines: Sequence[str], words: frozenset[str] = frozenset()) -> str:
    """The lines of one reference as one string (see the module docstring); `words` (from
    `vocabulary`) settles a hyphen at a line end: kept when the document prints the compound,
    or its second half is a usual compound ending, else dropped (`Mor-` + `genstern`)."""
    out = ""
    for raw in lines:
        text = raw.strip()
        if not text:
            continue
        if not out:
            out = text
        elif _HYPHEN_END_RE.search(out) and text[:1].islower():
            out = out + text if _keep_hyphen(out, text, words) else out[:-1] + text
        elif out.endswith(("-", "/")) and not out.endswith(" -"):
            out += text
        else:
            out += " " + text
    return out


def with_text(line: Line, text: str) -> Line:
    """`line` with its text replaced."""
    return replace(line, text=text)
