"""RIS loader on rispy: one row per `TY  -` … `ER  -` record, with the line it starts on.

The file is cut into records here (rispy reports no line numbers and would stop at the first
record it cannot read), and each record is parsed by rispy on its own, so one bad record never
costs the others. Unknown tags and text outside records are reported as warnings.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from auditor.load.ids import ids_in_text, ids_in_url
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import cut_records, stray_problems

__all__ = ["RisLoader"]

_TAG_RE = re.compile(r"^([A-Z][A-Z0-9])  ?-(?: |$)")
_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_PUBMED_SOURCES = ("nlm", "pubmed", "medline")


def _first(rec: dict[str, Any], *names: str) -> str | None:
    for name in names:
        value = rec.get(name)
        if isinstance(value, list):
            value = next((v for v in value if isinstance(v, str) and v.strip()), None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


class RisLoader(Loader):
    """Loads `.ris` files (RIS as written by EndNote, Zotero, Scopus, Web of Science, …)."""

    format: ClassVar[str] = "ris"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per record, in file order; a record rispy cannot read is a `parse_error` row."""
        import rispy  # on first use: a run without RIS files never needs it

        rows, problems = Rows(), []
        records, stray = cut_records(text, _TAG_RE, "TY", "ER")
        problems.extend(stray_problems(path, stray))
        for record in records:
            line, body, closed = record.line, "\n".join(record.lines), record.closed
            warnings = [] if closed else ["record not closed by an `ER  -` line"]
            try:
                parsed = rispy.loads(body + ("" if closed else "\nER  - \n"))
            except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                message = f"unreadable RIS record: {exc}"
                rows.add(source_line=line, parse_error=message)
                problems.append(Problem(path, line, message, "error"))
                continue
            if len(parsed) != 1:
                message = "unreadable RIS record"
                rows.add(source_line=line, parse_error=message)
                problems.append(Problem(path, line, message, "error"))
                continue
            rec = parsed[0]
            unknown = rec.get("unknown_tag") or {}
            if None in unknown:  # rispy files untagged text before the first tag under None
                warnings.append("text without a tag after `TY  -` (ignored)")
            tags = sorted(t for t in unknown if isinstance(t, str))
            if tags:
                warnings.append(f"unknown RIS tags: {', '.join(tags)}")
            self._row(rows, rec, line, warnings)
            problems.extend(Problem(path, line, w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _row(rows: Rows, rec: dict[str, Any], line: int, warnings: list[str]) -> None:
        names: list[str] = []
        for tag in ("authors", "first_authors"):
            names.extend(v for v in rec.get(tag) or [] if isinstance(v, str))
        if not names:
            names = [v for v in rec.get("secondary_authors") or [] if isinstance(v, str)]
        authors, et_al = clean_author_list(names)
        year_text = _first(rec, "year", "publication_year", "date")
        m = _YEAR_RE.search(year_text or "")
        if year_text and not m:
            warnings.append(f"year {year_text!r} is not a year")
        urls = [u for u in rec.get("urls") or [] if isinstance(u, str)]
        accession = _first(rec, "accession_number")
        doi, pmid, arxiv = _identifiers(rec, urls, accession)
        start, end = _first(rec, "start_page"), _first(rec, "end_page")
        pages = f"{start}-{end}" if start and end and end != start else start or end
        rows.add(
            source_line=line,
            key=_first(rec, "id") or accession,
            entry_type=_first(rec, "type_of_reference"),
            doi=doi,
            pmid=pmid,
            arxiv=arxiv,
            title=" ".join(t.split())
            if (t := _first(rec, "title", "primary_title", "short_title", "translated_title"))
            else None,
            authors=authors,
            author_names=family_given_names(authors),
            authors_et_al=et_al,
            year=int(m.group(1)) if m else None,
            container_title=_first(
                rec,
                "journal_name",
                "alternate_title3",
                "secondary_title",
                "alternate_title2",
                "alternate_title1",
            ),
            volume=_first(rec, "volume"),
            issue=_first(rec, "number"),
            pages=pages,
            issn=_first(rec, "issn"),
            language=_first(rec, "language"),
            url=urls[0] if urls else None,
            warnings=warnings,
        )


def _identifiers(
    rec: dict[str, Any], urls: list[str], accession: str | None
) -> tuple[str | None, str | None, str | None]:
    """The DOI, PMID and arXiv id of a record: its `DO`, a PubMed export's `AN`, then its URLs,
    then its notes (each found id kept where an earlier place gave none)."""
    doi = _first(rec, "doi")
    pmid = None
    arxiv = None
    source = " ".join(str(rec.get(k) or "") for k in ("database_provider", "name_of_database"))
    if accession and accession.isdigit() and any(s in source.lower() for s in _PUBMED_SOURCES):
        pmid = accession  # PubMed/MEDLINE exports put the PMID in AN
    for url in urls:
        hit = ids_in_url(url)
        if hit and hit[0] == "doi":
            doi = doi or hit[1]
        elif hit and hit[0] == "pmid":
            pmid = pmid or hit[1]
        elif hit:
            arxiv = arxiv or hit[1]
    notes = " ".join(
        v if isinstance(v, str) else " ".join(map(str, v))
        # `RN` research notes are the user's commentary (BibTeX's `annote`): never searched
        for k in ("notes", "note", "custom1", "custom2")
        if (v := rec.get(k))
    )
    if notes:
        found = ids_in_text(notes)
        doi, pmid, arxiv = (
            doi or found.get("doi"),
            pmid or found.get("pmid"),
            arxiv or found.get("arxiv"),
        )
    return doi, pmid, arxiv
