"""MEDLINE/PubMed loader (`.nbib`, PubMed's "PubMed" format `.txt`): `PMID- ` records.

The format: a tag of up to four letters padded to four columns, `- `, the value; long values go
on over lines indented by six spaces; a blank line ends a record. Read here rather than with
Biopython's `Bio.Medline` (sound, but a large scientific package for a 20-line grammar) or `nbib`
(unmaintained since 2021): we need the line each record starts on anyway.

Identifiers: `PMID`; the DOI from `AID`/`LID` values marked `[doi]` (`LID` may also hold a
`[pii]`, which is not a DOI). Authors: `FAU` (`Smith, John A`) else `AU` (`Smith JA`), plus
corporate `CN`. Title `TI` (a book: `BTI`), venue `JT` else `TA`, year from `DP`.
"""

from __future__ import annotations

import re
from typing import ClassVar

from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import cut_records, fields, first, stray_problems, values, year_in

__all__ = ["MedlineLoader"]

_TAG_RE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) *-(?: (.*))?$")
_DOI_MARK_RE = re.compile(r"^\s*(\S+)\s*\[doi\]\s*$", re.IGNORECASE)
_ISSN_RE = re.compile(r"\b(\d{4}-\d{3}[\dXx])\b")


def _people(pairs: list[tuple[str, str, int]]) -> list[str]:
    """Authors in order: each `FAU` (full name), or its `AU` when the author has no `FAU` line.

    PubMed writes `FAU` then `AU` per author; records before 2002 (and some exports) have `AU`
    only, for all authors or some, so choosing one tag per record would drop authors.
    """
    names: list[str] = []
    after_full = False
    for tag, value, _line in pairs:
        if tag == "FAU":
            names.append(value)
            after_full = True
        elif tag == "AU":
            if not after_full:
                names.append(value)
            after_full = False
    return [n for n in names if n.strip()]


class MedlineLoader(Loader):
    """Loads MEDLINE-format exports from PubMed: one row per record."""

    format: ClassVar[str] = "medline"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record, in file order; a record without a PMID is still a row (warned)."""
        rows, problems = Rows(), list[Problem]()
        records, stray = cut_records(text, _TAG_RE, "PMID")
        problems.extend(stray_problems(path, stray))
        for record in records:
            pairs = fields(record, _TAG_RE)
            tags = values(pairs)
            warnings = [] if "PMID" in tags else ["record without a `PMID-` line"]
            if "" in tags:
                warnings.append("text without a tag at the start of the record (ignored)")
            self._row(rows, tags, _people(pairs), record.line, warnings)
            problems.extend(Problem(path, record.line, w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _row(
        rows: Rows, tags: dict[str, list[str]], names: list[str], line: int, warnings: list[str]
    ) -> None:
        authors, et_al = clean_author_list([*names, *tags.get("CN", [])])
        if not authors:
            authors, et_al = clean_author_list(tags.get("FED") or tags.get("ED") or [])
        doi = None
        for value in [*tags.get("AID", []), *tags.get("LID", [])]:
            m = _DOI_MARK_RE.match(value)
            if m:
                doi = m.group(1)
                break
        date = first(tags, "DP", "DEP", "EDAT")
        year = year_in(date)
        if date and year is None:
            warnings.append(f"date {date!r} holds no year")
        issn = _ISSN_RE.search(" ".join(tags.get("IS", [])))
        pmid = first(tags, "PMID")
        rows.add(
            source_line=line,
            key=pmid,
            entry_type=(first(tags, "PT") or "").lower() or None,
            doi=doi,
            pmid=pmid,
            title=first(tags, "TI", "BTI", "TT"),
            authors=authors,
            author_names=family_given_names(authors),
            authors_et_al=et_al,
            year=year,
            container_title=first(tags, "JT", "TA", "BTI") if "TI" in tags else first(tags, "JT"),
            volume=first(tags, "VI"),
            issue=first(tags, "IP"),
            pages=first(tags, "PG"),
            issn=issn.group(1) if issn else None,
            language=first(tags, "LA"),
            warnings=warnings,
        )
