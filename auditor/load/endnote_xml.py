"""EndNote XML loader (`File > Export… > XML`): `<xml><records><record>…</record></records></xml>`.

EndNote writes the whole library on one line, each text value wrapped in one or more
`<style face=… font=…>` runs (a title in italics and roman is several runs); other tools (and
EndNote 8) write plain text and indent. The file is cut at `<record>` tags here and each record
is parsed on its own with defusedxml (no DTD, no entity expansion, no external resources), so a
broken record costs only its row and every row knows its line. A record larger than
`MAX_RECORD_CHARS` is not parsed (a row with `parse_error`); control characters XML 1.0 forbids
(EndNote copies them in from pasted text) are removed, with a warning.

Fields: `rec-number` (key), `ref-type@name`, `contributors/authors/author` (else
`secondary-authors`, the editors), `titles/title`, `titles/secondary-title` else
`periodical/full-title` (venue), `dates/year` else `dates/pub-dates/date`, `volume`, `number`
(issue), `pages`, `isbn` (an ISSN when it has that shape), `language`. Identifiers: the DOI in
`electronic-resource-num`; `accession-num` as a PMID when `remote-database-name` or `-provider`
names PubMed/MEDLINE/NLM; doi.org, PubMed, arXiv and publisher addresses in `urls`; `PMID:`,
`doi:`, `arXiv:` in `notes`. Never from `abstract` or `research-notes` (commentary).
"""

from __future__ import annotations

import re
from typing import ClassVar
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as safe_et
from defusedxml import DefusedXmlException

from auditor.load.ids import ids_in_text, ids_in_url
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import year_in

__all__ = ["MAX_RECORD_CHARS", "EndnoteXmlLoader", "looks_like_endnote_xml"]

#: One record's XML above this is refused (a real record is a few KiB; abstracts stay far below).
MAX_RECORD_CHARS = 4_000_000
_HEAD_RE = re.compile(r"\A[\ufeff\s]*(?:<\?xml[^>]{0,200}\?>\s*)?<xml>\s*<records[\s>]")
_RECORD_RE = re.compile(r"<record[\s>]")
_END_RE = re.compile(r"</record\s*>")
_BAD_CHARS_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_PUBMED = ("pubmed", "medline", "nlm")
_ISSN_RE = re.compile(r"\b(\d{4}-\d{3}[\dXx])\b")


def looks_like_endnote_xml(head: str) -> bool:
    """Whether `head` (the start of a file) opens EndNote's `<xml><records>`."""
    return bool(_HEAD_RE.match(head))


def _text(node: Element | None) -> str | None:
    """The text of `node`, whitespace collapsed; else `None`.

    With `<style>` runs, only their text counts, joined as written: the whitespace an indenting
    tool puts between runs is not the value's (`Fe<style face="superscript">2+</style>`).
    """
    if node is None:
        return None
    runs = list(node.iter("style"))
    text = "".join(s.text or "" for s in runs) if runs else "".join(node.itertext())
    return " ".join(text.split()) or None


def _first(record: Element, *paths: str) -> str | None:
    for path in paths:
        for node in record.iterfind(path):
            text = _text(node)
            if text:
                return text
    return None


class EndnoteXmlLoader(Loader):
    """Loads EndNote XML exports: one row per `<record>`."""

    format: ClassVar[str] = "endnote_xml"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per `<record>`, in file order; a file without one is an error row."""
        rows, problems = Rows(), list[Problem]()
        # MARC XML and others have `<record>`s too: only EndNote's `<records>` holds ours
        ours = looks_like_endnote_xml(text) or "<records>" in text[:4096]
        starts = [m.start() for m in _RECORD_RE.finditer(text)] if ours else []
        if not starts:
            if text.strip():
                message = "no EndNote <records> in this XML: not an EndNote XML export"
                rows.add(source_line=1, parse_error=message)
                problems.append(Problem(path, 1, message, "error"))
            return rows, problems
        line, seen = 1, 0
        for number, start in enumerate(starts, 1):
            line += text.count("\n", seen, start)
            seen = start
            stop = starts[number] if number < len(starts) else len(text)
            end = _END_RE.search(text, start, stop)
            where = f"record {number}" if line == 1 and len(starts) > 1 else None
            if end is None:
                self._broken(rows, problems, path, line, where, "record not closed by </record>")
                continue
            chunk = text[start : end.end()]
            if len(chunk) > MAX_RECORD_CHARS:
                message = f"record of {len(chunk):,} characters (more than {MAX_RECORD_CHARS:,})"
                self._broken(rows, problems, path, line, where, message)
                continue
            warnings: list[str] = []
            if _BAD_CHARS_RE.search(chunk):
                chunk = _BAD_CHARS_RE.sub("", chunk)
                warnings.append("control characters XML does not allow were removed")
            try:
                record = safe_et.fromstring(chunk)
            except (ParseError, DefusedXmlException, ValueError) as exc:
                self._broken(rows, problems, path, line, where, f"unreadable XML: {exc}")
                continue
            _row(rows, record, line, warnings)
            prefix = f"{where}: " if where else ""
            problems.extend(Problem(path, line, prefix + w, "warning") for w in warnings)
        return rows, problems

    @staticmethod
    def _broken(
        rows: Rows, problems: list[Problem], path: str, line: int, where: str | None, why: str
    ) -> None:
        message = f"{where}: {why}" if where else why
        rows.add(source_line=line, parse_error=message)
        problems.append(Problem(path, line, message, "error", "unreadable EndNote XML record"))


def _found_ids(record: Element, urls: list[str]) -> dict[str, str]:
    """Identifiers a record names in its URLs and notes (id type: value, the first winning)."""
    found: dict[str, str] = {}
    for url in urls:
        hit = ids_in_url(url)
        if hit and (hit[0] != "doi" or "10." in hit[1]):
            found.setdefault(*hit)
    for kind, value in ids_in_text(_first(record, "notes") or "").items():
        found.setdefault(kind, value)
    return found


def _pubmed_accession(record: Element) -> str | None:
    """The PMID a PubMed/MEDLINE export puts in the accession number, else `None`."""
    accession = _first(record, "accession-num")
    source = " ".join(
        t for t in map(_text, (record.find("remote-database-name"),
                               record.find("remote-database-provider"))) if t
    ).lower()  # fmt: skip
    pubmed = accession and accession.isdigit() and any(s in source for s in _PUBMED)
    return accession if pubmed else None


def _row(rows: Rows, record: Element, line: int, warnings: list[str]) -> None:
    names = [t for n in record.iterfind("contributors/authors/author") if (t := _text(n))]
    if not names:
        names = [
            t for n in record.iterfind("contributors/secondary-authors/author") if (t := _text(n))
        ]
    authors, et_al = clean_author_list(names)
    ref_type = record.find("ref-type")
    entry_type = ref_type.get("name") if ref_type is not None else None
    doi = None
    resource = _first(record, "electronic-resource-num")
    if resource:
        doi = ids_in_text(resource).get("doi")
        if doi is None:
            warnings.append(f"electronic-resource-num {resource[:60]!r} is not a DOI (ignored)")
    urls = [t for n in record.iterfind("urls//url") if (t := _text(n))]
    found = _found_ids(record, urls)
    pmid = _pubmed_accession(record)
    date = _first(record, "dates/year", "dates/pub-dates/date")
    year = year_in(date)
    if date and year is None:
        warnings.append(f"year {date!r} is not a year")
    issn = _ISSN_RE.search(_first(record, "isbn") or "")
    rows.add(
        source_line=line,
        key=_first(record, "rec-number"),
        entry_type=entry_type.lower() if entry_type else None,
        doi=doi or found.get("doi"),
        pmid=pmid or found.get("pmid"),
        arxiv=found.get("arxiv"),
        title=_first(record, "titles/title", "titles/translated-title"),
        authors=authors,
        author_names=family_given_names(authors),
        authors_et_al=et_al,
        year=year,
        container_title=_first(
            record, "titles/secondary-title", "periodical/full-title", "periodical/abbr-1"
        ),
        volume=_first(record, "volume"),
        issue=_first(record, "number"),
        pages=_first(record, "pages"),
        issn=issn.group(1) if issn else None,
        language=_first(record, "language"),
        url=next((u for u in urls if u.lower().startswith(("http://", "https://"))), None),
        warnings=warnings,
    )
