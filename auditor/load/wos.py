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
from auditor.load.names import clean_author_list
from auditor.load.tagged import cut_records, fields, page_range, values, year_in

__all__ = ["WosLoader"]

_TAG_RE = re.compile(r"^([A-Z][A-Z0-9])(?: (.*))?$")
_OUTSIDE = frozenset({"FN", "VR", "EF"})
_LIST_TAGS = frozenset({"AU", "AF", "BA", "BF", "CA", "GP", "BE", "CR", "RI", "OI", "C1", "C3"})
_PUB_TYPES = {"J": "article", "B": "book", "S": "series", "P": "patent", "C": "conference"}


def _one(tags: dict[str, list[str]], *names: str) -> str | None:
    for name in names:
        for value in tags.get(name, []):
            if value.strip():
                return " ".join(value.split())
    return None


class WosLoader(Loader):
    """Loads Web of Science "Plain Text" exports: one row per `PT` record."""

    format: ClassVar[str] = "wos"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record, in file order (a record missing its `ER` line still counts)."""
        rows, problems = Rows(), list[Problem]()
        records, stray = cut_records(text, _TAG_RE, "PT", "ER", _OUTSIDE)
        if stray:
            where = ", ".join(map(str, stray[:10]))
            problems.append(
                Problem(path, stray[0], f"text outside any record (lines {where})", "warning")
            )
        for record in records:
            tags = values(fields(record, _TAG_RE, _LIST_TAGS))
            warnings = [] if record.closed else ["record not closed by an `ER` line"]
            self._row(rows, tags, record.line, warnings)
            problems.extend(Problem(path, record.line, w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _row(rows: Rows, tags: dict[str, list[str]], line: int, warnings: list[str]) -> None:
        names = (tags.get("AF") or tags.get("AU") or []) + tags.get("CA", [])
        if not names:
            names = tags.get("BF") or tags.get("BA") or tags.get("BE") or []
        authors, et_al = clean_author_list(dict.fromkeys(names))  # `CA` often repeats an `AU`
        year_text = _one(tags, "PY", "EY")
        year = year_in(year_text)
        if year_text and year is None:
            warnings.append(f"year {year_text!r} is not a year")
        pub_type = _one(tags, "PT")
        rows.add(
            source_line=line,
            key=_one(tags, "UT"),
            entry_type=_PUB_TYPES.get(pub_type or "", pub_type.lower() if pub_type else None),
            doi=_one(tags, "DI"),
            pmid=_one(tags, "PM"),
            title=_one(tags, "TI"),
            authors=authors,
            authors_et_al=et_al,
            year=year,
            container_title=_one(tags, "SO", "CT"),
            volume=_one(tags, "VL"),
            issue=_one(tags, "IS"),
            pages=page_range(_one(tags, "BP"), _one(tags, "EP")) or _one(tags, "AR"),
            issn=_one(tags, "SN", "EI"),
            language=_one(tags, "LA"),
            warnings=warnings,
        )
