"""Identifiers printed in a reference string: DOIs, arXiv ids, PMIDs and URLs.

`find_identifiers(text)` returns what it found and the text without it, so the field reader does
not take a DOI for a page range. A DOI broken across lines (`10.1007/` then `S10994-…` on the
next line, joined here by one space) is joined back when the piece after the break is DOI-shaped
(it holds a digit, or the break came after `/` or `-`). `https://doi.org/…`, `doi:…` and a bare
`10.…/…` are all DOIs; trailing punctuation is never part of one. Never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Identifiers", "find_identifiers"]


@dataclass(frozen=True)
class Identifiers:
    """The first identifier of each kind printed in one reference; `None` when absent."""

    doi: str | None = None
    arxiv: str | None = None
    pmid: str | None = None
    url: str | None = None


_DOI_START_RE = re.compile(
    r"(?:(?:https?://)?(?:dx\.)?doi\.org/|\bdoi\s*:?\s*|\bDOI\s*:?\s*|(?<![\w./]))"
    r"(?P<doi>10\.\d{4,9}/\S*)",
    re.IGNORECASE,
)
_DOI_CHARS_RE = re.compile(r"^[\w./\-();:<>\[\]]+")
_ARXIV_RE = re.compile(
    r"(?:\barXiv\s*:?\s*|arxiv\.org/(?:abs|pdf)/)"
    r"(?P<id>\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)",
    re.IGNORECASE,
)
_PMID_RE = re.compile(r"\bPMID\s*:?\s*(?P<id>[1-9]\d{0,7})(?!\d)", re.IGNORECASE)
_URL_RE = re.compile(r"(?:\bURL\s*:?\s*)?(?P<url>https?://\S+)", re.IGNORECASE)
_TRAILING = ".,;:)]}>'\""
# `doi: 10.` at a line end and `1609/…` on the next: the break fell inside the prefix
_BROKEN_PREFIX_RE = re.compile(r"((?:\bdoi\s*:?\s*|doi\.org/)10\.)\s+(\d{4,9})\s*/", re.IGNORECASE)
# (from where a run of space starts only: tried inside a long run it costs the run's square)
_SPACE_MARK_RE = re.compile(r"(?<!\s)\s+([.,;])")
_LABEL_WORDS_RE = re.compile(
    r"(?:\b(?:doi|DOI|URL|Available(?: at| from)?|Retrieved from)\s*:?\s*|\barXiv\s*:\s*)$"
)


def _doi_at(text: str, start: int) -> tuple[str, int]:
    """The DOI starting at `start` (with a line-broken continuation) and where it ends in `text`."""
    m = _DOI_CHARS_RE.match(text[start:])
    end = start + (m.end() if m else 0)
    pieces = [text[start:end]]
    # a break after `/`, `-`, `_` or `.` that a DOI-shaped piece follows is a line break
    while end + 1 < len(text) and text[end] == " " and text[end - 1] in "/-_.":
        m2 = _DOI_CHARS_RE.match(text[end + 1 :])
        if not m2:
            break
        piece = m2.group(0)
        has_digit = any(c.isdigit() for c in piece)
        if not has_digit and text[end - 1] not in "/-":
            break
        if piece.lower().startswith(("http", "doi", "url")):
            break
        pieces.append(piece)
        end += 1 + m2.end()
    doi = "".join(pieces).rstrip(_TRAILING)
    while doi.endswith(")") and doi.count("(") < doi.count(")"):
        doi = doi[:-1].rstrip(_TRAILING)
    return doi, end


def find_identifiers(text: str) -> tuple[Identifiers, str]:
    """`(identifiers, text with them and their `doi:`/`URL` labels taken out)`."""
    doi = arxiv = pmid = url = None
    cut: list[tuple[int, int]] = []
    text = _BROKEN_PREFIX_RE.sub(r"\1\2/", text)
    m = _DOI_START_RE.search(text)
    if m:
        doi, end = _doi_at(text, m.start("doi"))
        cut.append((m.start(), end))
    a = _ARXIV_RE.search(text)
    if a:
        arxiv = a.group("id")
        cut.append((a.start(), a.end()))
    p = _PMID_RE.search(text)
    if p:
        pmid = p.group("id")
        cut.append((p.start(), p.end()))
    for u in _URL_RE.finditer(text):
        if any(s <= u.start("url") < e for s, e in cut):
            continue
        url = url or u.group("url").rstrip(_TRAILING)
        cut.append((u.start(), u.end()))
    return Identifiers(doi or None, arxiv, pmid, url), _remove(text, cut)


def _remove(text: str, spans: list[tuple[int, int]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos:
            continue
        head = _LABEL_WORDS_RE.sub("", text[pos:start])
        out.append(head)
        pos = end
    out.append(text[pos:])
    return _SPACE_MARK_RE.sub(r"\1", " ".join("".join(out).split())).strip(" .,;") + "."
