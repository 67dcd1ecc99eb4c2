"""Find identifiers wherever users put them: URL fields, notes, `eprint`, DBLP's `ee` and CoRR.

These helpers only locate candidate strings and say which column they belong to (`doi`, `pmid`,
`arxiv`); `auditor.classify` normalizes and chooses under the criteria's input contract. They
never raise. What they accept:

- a DOI: `10.` + 4-9 digits + `/` + non-space characters, found after `doi.org/`, `doi:` or as a
  whole path segment of any URL (`doi.wiley.com/10.1002/…`, `pubs.acs.org/doi/abs/10.1021/…`,
  `doi.acm.org/10.1145/…`, `iopscience.iop.org/article/10.1088/…/pdf`, `…?doi=10.…`), with
  publisher suffixes (`/abstract`, `/full`, `/pdf`, `.pdf`, …) and trailing punctuation removed;
- an arXiv id: `YYMM.NNNN(N)` or `archive/YYMMNNN` after `arxiv.org/abs|pdf/`, `arXiv:`, or as
  CoRR's `volume = {abs/1104.5069}`;
- a PMID: 1-8 digits, not starting with 0 (PubMed's ids are below 100,000,000 today), after
  `PMID`, a PubMed URL, or before PubMed's `[pmid]` search tag (`26957754[pmid]`).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["arxiv_in_corr_volume", "doi_in_url", "ids_in_text", "ids_in_url", "pmid_shape_ok"]

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
_ARXIV_ID = (
    r"(?:\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}|[A-Za-z][A-Za-z-]*(?:\.[A-Za-z]{2})?/\d{7})(?:v\d+)?"
)
_PMID = r"[1-9]\d{0,7}"
_TEXT_PATTERNS = (
    ("pmid", re.compile(rf"\bPMID\s*:?\s*({_PMID})(?!\d)", re.IGNORECASE)),
    ("pmid", re.compile(rf"(?<!\d)({_PMID})\s*\[pmid\]", re.IGNORECASE)),
    ("pmid", re.compile(rf"pubmed\.ncbi\.nlm\.nih\.gov/({_PMID})(?!\d)", re.IGNORECASE)),
    ("pmid", re.compile(rf"ncbi\.nlm\.nih\.gov/pubmed/({_PMID})(?!\d)", re.IGNORECASE)),
    ("arxiv", re.compile(rf"\barXiv\s*:\s*({_ARXIV_ID})", re.IGNORECASE)),
    ("arxiv", re.compile(rf"arxiv\.org/(?:abs|pdf)/({_ARXIV_ID})", re.IGNORECASE)),
    (
        "doi",
        re.compile(r"(?:doi\.org/|\bdoi\s*:?\s*|(?<![\w./]))(10\.\d{4,9}/[^\s\"<>{}]+)", re.I),
    ),
)
#: `10.` + registrant as a whole path segment (or query value) of a URL.
_URL_DOI_RE = re.compile(r"[/=](10\.\d{4,9}(?:/|%2F)[^\s?#\"<>]+)", re.IGNORECASE)
#: What publishers append to a DOI in their URLs; never part of the DOI itself.
_URL_SUFFIX_RE = re.compile(
    r"(?:/(?:abstract|abs|full|fulltext|pdf|epdf|pdfdirect|pdfplus|summary|meta|references|"
    r"html|suppl|figures|tables|citedby|download|issuetoc|toc)|\.pdf)+/?$",
    re.IGNORECASE,
)
_URL_IN_TEXT_RE = re.compile(r"https?://[^\s\"<>{}]+", re.IGNORECASE)
_CORR_RE = re.compile(rf"^\s*abs/({_ARXIV_ID})\s*$")
_TRAILING = ".,;:)]}'\""


def _clean_doi(doi: str) -> str:
    return doi.rstrip(_TRAILING)


def doi_in_url(url: str) -> str | None:
    """The DOI inside a publisher's (or any) URL, or `None` (see the module docstring)."""
    m = _URL_DOI_RE.search(url)
    if not m:
        return None
    doi = unquote(m.group(1)) if "%" in m.group(1) else m.group(1)
    return _clean_doi(_URL_SUFFIX_RE.sub("", doi)) or None


def ids_in_url(url: str) -> tuple[str, str] | None:
    """`(column, value)` for a doi.org, arxiv.org or PubMed address (the URL itself, which
    `classify` strips), or for a publisher URL holding a DOI (the DOI); else `None`."""
    s = url.strip()
    for pattern, kind in _URL_KIND:
        if pattern.match(s):
            return kind, s
    doi = doi_in_url(s) if "10." in s else None
    return ("doi", doi) if doi else None


def ids_in_text(text: str) -> dict[str, str]:
    """Identifiers in free text (`PMID: 123`, `123[pmid]`, `arXiv:2101.00001`, `doi:10.…`, a
    bare `10.…/…`), the first of each kind. Never call it on commentary (abstracts, annotes)."""
    found: dict[str, str] = {}
    if not text:
        return found
    for kind, pattern in _TEXT_PATTERNS:
        if kind in found:
            continue
        m = pattern.search(text)
        if m:
            value = m.group(1).rstrip(_TRAILING)
            found[kind] = _URL_SUFFIX_RE.sub("", value) if kind == "doi" else value
    if "doi" not in found and "10." in text:
        for url in _URL_IN_TEXT_RE.findall(text):
            doi = doi_in_url(url)
            if doi:
                found["doi"] = doi
                break
    return found


def arxiv_in_corr_volume(volume: str | None) -> str | None:
    """DBLP writes arXiv papers as `journal = {CoRR}, volume = {abs/1104.5069}`: the id."""
    m = _CORR_RE.match(volume or "")
    return m.group(1) if m else None


def pmid_shape_ok(value: str) -> bool:
    """Whether `value` looks like a PMID PubMed could have issued: 1-8 digits, no leading 0."""
    return re.fullmatch(_PMID, value.strip()) is not None
