"""EndNote tagged loader (`.enw`, EndNote "Refer/BibIX" export): `%0 Type` … records.

One `%X value` per line, a blank line between records, untagged lines continuing the value
before them. No maintained Python library reads this format; it is small enough to read here.

Identifiers: `%R` (the DOI, sometimes written as a doi.org URL or `doi:`), `%U` (a doi.org,
arXiv or PubMed address), `%M` (the accession number: a PMID when `%W` names PubMed/MEDLINE), and
`PMID: …`/`doi: …` in the `%Z` notes (a note, like BibTeX's `note`; `%X` abstracts are never
searched). Authors `%A` (else editors `%E`), title `%T`, venue `%J` else `%B`, year `%D`.
"""

from __future__ import annotations

import re
from typing import ClassVar

from auditor.load.ids import ids_in_text, ids_in_url
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import cut_records, fields, first, stray_problems, values, year_in

__all__ = ["EndnoteLoader"]

_TAG_RE = re.compile(r"^%(\S)(?:[ \t](.*))?$")
_PUBMED = ("pubmed", "medline", "nlm")
_ISSN_RE = re.compile(r"\b(\d{4}-\d{3}[\dXx])\b")


class EndnoteLoader(Loader):
    """Loads EndNote tagged exports: one row per `%0` record."""

    format: ClassVar[str] = "endnote"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record, in file order (a record missing its `%0` line still counts)."""
        rows, problems = Rows(), list[Problem]()
        records, stray = cut_records(text, _TAG_RE, "0")
        problems.extend(stray_problems(path, stray))
        for record in records:
            tags = values(fields(record, _TAG_RE))
            warnings = [] if "0" in tags else ["record without a `%0` type line"]
            self._row(rows, tags, record.line, warnings)
            problems.extend(Problem(path, record.line, w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _row(rows: Rows, tags: dict[str, list[str]], line: int, warnings: list[str]) -> None:
        authors, et_al = clean_author_list(tags.get("A") or tags.get("E") or [])
        doi, pmid, arxiv = first(tags, "R"), None, None
        accession = first(tags, "M")
        source = (first(tags, "W") or "").lower()
        if accession and accession.isdigit() and any(s in source for s in _PUBMED):
            pmid = accession
        urls = tags.get("U", [])
        for url in urls:
            hit = ids_in_url(url)
            if hit:
                kind, value = hit
                doi = doi or (value if kind == "doi" else None)
                pmid = pmid or (value if kind == "pmid" else None)
                arxiv = arxiv or (value if kind == "arxiv" else None)
        found = ids_in_text(" ".join(tags.get("Z", [])))
        issn = _ISSN_RE.search(" ".join(tags.get("@", [])))  # `%@` holds an ISSN or an ISBN
        date = first(tags, "D", "8")
        year = year_in(date)
        if date and year is None:
            warnings.append(f"year {date!r} is not a year")
        rows.add(
            source_line=line,
            key=first(tags, "F") or accession,
            entry_type=(first(tags, "0") or "").lower() or None,
            doi=doi or found.get("doi"),
            pmid=pmid or found.get("pmid"),
            arxiv=arxiv or found.get("arxiv"),
            title=first(tags, "T"),
            authors=authors,
            author_names=family_given_names(authors),
            authors_et_al=et_al,
            year=year,
            container_title=first(tags, "J", "B", "S"),
            volume=first(tags, "V"),
            issue=first(tags, "N"),
            pages=first(tags, "P"),
            issn=issn.group(1) if issn else None,
            language=first(tags, "G"),
            url=urls[0] if urls else None,
            warnings=warnings,
        )
