"""Web of Science plain-text loader (`savedrecs.txt`, `.ciw`, `.isi`): `PT J` … `ER` records.

A two-letter tag, a space, the value; continuation lines start with three spaces, and under the
list tags (`AU`, `AF`, `CA`, `CR`, …) each continuation line is one more value. Read here, not
with rispy's `WokParser`: it raises `KeyError` on any tag missing from its table (Clarivate adds
tags such as `C3` and `WE`), which would cost the whole record, and reports no line numbers.

Identifiers: `DI` (DOI), `PM` (PMID); `UT` (the WoS accession number, `WOS:000…`) becomes the
row's key, since no register we ask knows it. Authors `AF` (full names) else `AU`, plus group
authors `CA`; title `TI`, venue `SO` (else the conference `CT`), year `PY` (else `EY`), pages
`BP`-`EP` (else the article number `AR`).
"""

from __future__ import annotations

import re
from typing import ClassVar

from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import (
    cut_records,
    fields,
    first,
    page_range,
    stray_problems,
    values,
    year_in,
)

__all__ = ["WosLoader", "add_wos_row"]

_TAG_RE = re.compile(r"^([A-Z][A-Z0-9])(?: (.*))?$")
_OUTSIDE = frozenset({"FN", "VR", "EF"})
_LIST_TAGS = frozenset({"AU", "AF", "BA", "BF", "CA", "GP", "BE", "CR", "RI", "OI", "C1", "C3"})
_PUB_TYPES = {"J": "article", "B": "book", "S": "series", "P": "patent", "C": "conference"}


class WosLoader(Loader):
    """Loads Web of Science "Plain Text" exports: one row per `PT` record."""

    format: ClassVar[str] = "wos"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record, in file order (a record missing its `ER` line still counts)."""
        rows, problems = Rows(), list[Problem]()
        records, stray = cut_records(text, _TAG_RE, "PT", "ER", _OUTSIDE)
        problems.extend(stray_problems(path, stray))
        for record in records:
            tags = values(fields(record, _TAG_RE, _LIST_TAGS))
            warnings = [] if record.closed else ["record not closed by an `ER` line"]
            add_wos_row(rows, tags, record.line, warnings)
            problems.extend(Problem(path, record.line, w, "warning") for w in warnings)
        return rows, problems


def add_wos_row(rows: Rows, tags: dict[str, list[str]], line: int, warnings: list[str]) -> None:
    """Add one Web of Science record (tag → values) to `rows`; a bad year is added to `warnings`.

    Shared by the plain-text and the tab-delimited reader: both carry the same tags.
    """
    names = (tags.get("AF") or tags.get("AU") or []) + tags.get("CA", [])
    if not names:
        names = tags.get("BF") or tags.get("BA") or tags.get("BE") or []
    authors, et_al = clean_author_list(dict.fromkeys(names))  # `CA` often repeats an `AU`
    year_text = first(tags, "PY", "EY")
    year = year_in(year_text)
    if year_text and year is None:
        warnings.append(f"year {year_text!r} is not a year")
    pub_type = first(tags, "PT")
    rows.add(
        source_line=line,
        key=first(tags, "UT"),
        entry_type=_PUB_TYPES.get(pub_type or "", pub_type.lower() if pub_type else None),
        doi=first(tags, "DI"),
        pmid=first(tags, "PM"),
        title=first(tags, "TI"),
        authors=authors,
        author_names=family_given_names(authors),
        authors_et_al=et_al,
        year=year,
        container_title=first(tags, "SO", "CT"),
        volume=first(tags, "VL"),
        issue=first(tags, "IS"),
        pages=page_range(first(tags, "BP"), first(tags, "EP")) or first(tags, "AR"),
        issn=first(tags, "SN", "EI"),
        language=first(tags, "LA"),
        warnings=warnings,
    )
