"""Find identifiers wherever users put them: URL fields, notes, `eprint`, journal strings.

These helpers only locate candidate strings and say which column they belong to (`doi`, `pmid`,
`arxiv`); `auditor.classify` normalizes and chooses. They never raise.
"""

from __future__ import annotations

import re

__all__ = ["ids_in_text", "ids_in_url"]

_URL_KIND = (
    (re.compile(r"^(?:https?://)?(?:dx\.|www\.)?doi\.org/", re.IGNORECASE), "doi"),
    (
        re.compile(r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/", re.IGNORECASE),
        "arxiv",
    ),
    (
        re.compile(
            r"^(?:https?://)?(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov/|ncbi\.nlm\.nih\.gov/pubmed/)",
            re.IGNORECASE,
        ),
        "pmid",
    ),
)
_TEXT_PATTERNS = (
    ("pmid", re.compile(r"\bPMID\s*:?\s*(\d{1,9})\b", re.IGNORECASE)),
    ("pmid", re.compile(r"pubmed\.ncbi\.nlm\.nih\.gov/(\d{1,9})", re.IGNORECASE)),
    ("arxiv", re.compile(r"\barXiv\s*:\s*([A-Za-z.-]*/?\d{4}\.?\d{3,5}(?:v\d+)?)", re.IGNORECASE)),
    ("arxiv", re.compile(r"arxiv\.org/(?:abs|pdf)/([A-Za-z.-]*/?\d{4}\.?\d{3,5}(?:v\d+)?)")),
    ("doi", re.compile(r"(?:doi\.org/|\bdoi\s*:?\s*)(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)),
)
_TRAILING = ".,;:)]}'\""


def ids_in_url(url: str) -> tuple[str, str] | None:
    """`(column, url)` when `url` is a doi.org, arxiv.org or PubMed address, else `None`."""
    s = url.strip()
    for pattern, kind in _URL_KIND:
        if pattern.match(s):
            return kind, s
    return None


def ids_in_text(text: str) -> dict[str, str]:
    """Identifiers in free text (`PMID: 123`, `arXiv:2101.00001`, `doi:10.…`), the first of each."""
    found: dict[str, str] = {}
    if not text:
        return found
    for kind, pattern in _TEXT_PATTERNS:
        if kind in found:
            continue
        m = pattern.search(text)
        if m:
            found[kind] = m.group(1).rstrip(_TRAILING)
    return found
