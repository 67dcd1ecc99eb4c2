"""The batch form of the overlap check: a bibliography plus saved article HTML as one bundle.

Each reference becomes a citation: its id is the citation key (characters the contract's id
pattern forbids become `_`), its URL the entry's own HTTPS URL or else the landing page of its
identifier (doi.org, arXiv, PubMed), and its HTML the file `<key>.html` in the HTML folder when
there is one. References with neither an HTTPS URL nor an identifier are skipped and listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyarrow as pa

from auditor.overlap.urls import url_problem

__all__ = ["BatchBundle", "bundle_from_references", "citation_id", "landing_url"]

_NOT_ID = re.compile(r"[^A-Za-z0-9_.-]")
#: Read at most this much of a saved page: enough past the contract's 131,072-byte HTML bound
#: to report an oversized page (and most of its size) without reading a huge file whole.
_HTML_READ_CAP = 131_072 * 4 + 1
#: The contract's bound on one citation's HTML, in UTF-8 bytes.
_HTML_MAX_BYTES = 131_072


@dataclass(frozen=True)
class BatchBundle:
    """A bundle built from a bibliography, with what could not go into it."""

    request: dict[str, Any]
    """The contract's request object (`claim`, `citations`)."""
    keys: tuple[str, ...]
    """The citation key behind each citation, in order (ids may differ, see `citation_id`)."""
    skipped: tuple[str, ...]
    """One line per reference left out (or whose saved page was left out), saying why."""


def citation_id(key: str | None, row_id: int, taken: set[str]) -> str:
    """A contract-valid, unused id for a citation key (`row<N>` when there is no key)."""
    base = _NOT_ID.sub("_", key)[:60] if key else f"row{row_id}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}.{n}", n + 1
    taken.add(candidate)
    return candidate


def landing_url(row: dict[str, Any]) -> str | None:
    """The reference's own HTTPS URL, else its identifier's landing page, else None."""
    url = row.get("url")
    if isinstance(url, str) and url_problem(url.strip()) is None:
        return url.strip()
    if row.get("doi"):
        return f"https://doi.org/{quote(row['doi'], safe='/')}"
    if row.get("arxiv"):
        return f"https://arxiv.org/abs/{quote(row['arxiv'], safe='/')}"
    if row.get("pmid"):
        return f"https://pubmed.ncbi.nlm.nih.gov/{quote(row['pmid'], safe='')}/"
    return None


def _saved_html(html_dir: Path, key: str | None) -> str | None:
    """Text of `<key>.html` directly inside `html_dir`, or None.

    Keys are untrusted: one that is not a plain file name (separators, `..`) never names a file.
    Undecodable bytes are replaced rather than dropping the page.
    """
    if not key or key in (".", "..") or any(ch in key for ch in "/\\\x00"):
        return None
    path = html_dir / f"{key}.html"
    if not path.is_file() or path.resolve().parent != html_dir.resolve():
        return None
    with path.open("rb") as handle:
        data = handle.read(_HTML_READ_CAP)
    return data.decode("utf-8-sig", errors="replace")


def bundle_from_references(references: pa.Table, html_dir: Path | None, claim: str) -> BatchBundle:
    """One contract request holding every reference of `references` that has a URL."""
    cols = ["row_id", "key", "url", "doi", "pmid", "arxiv"]
    citations: list[dict[str, Any]] = []
    keys: list[str] = []
    skipped: list[str] = []
    taken: set[str] = set()
    for row in references.select(cols).to_pylist():
        url = landing_url(row)
        if url is None:
            skipped.append(f"{row['key'] or row['row_id']}: no HTTPS URL or identifier")
            continue
        citation: dict[str, Any] = {"id": citation_id(row["key"], row["row_id"], taken)}
        citation["url"] = url
        if html_dir is not None:
            html = _saved_html(html_dir, row["key"])
            size = len(html.encode("utf-8")) if html is not None else 0
            if html is not None and size > _HTML_MAX_BYTES:
                # One oversized page must not stop the batch: that citation is checked by its
                # URL alone, and the user is told (many real article pages are this large).
                skipped.append(
                    f"{row['key']}: saved page is over the contract's {_HTML_MAX_BYTES:,}-byte "
                    "HTML bound; its links were not read (checked by URL only)"
                )
            elif html is not None:
                citation["html"] = html
        citations.append(citation)
        keys.append(row["key"] or f"row{row['row_id']}")
    return BatchBundle({"claim": claim, "citations": citations}, tuple(keys), tuple(skipped))
