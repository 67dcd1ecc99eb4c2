"""GROBID's answer read into rows: the TEI of `processReferences`, for a PDF GROBID was asked about.

GROBID is optional and is asked by `auditor.grobid` through the run's one `Net` (its pace,
retries, body cap and redirect rules), before the inputs load; the loader gets each PDF's
`GrobidAnswer` by the SHA-256 of its bytes and never opens a socket itself.

`tei_rows(body)` reads each `biblStruct` of the TEI into the same columns as the built-in
reader: the title (`analytic/title`, else the monograph's), authors (`persName` as
`surname, forenames`), year (`date/@when`), venue (`monogr/title`), volume, issue, pages
(`biblScope`), identifiers (`idno` DOI, arXiv, PMID), the raw string
(`note[@type='raw_reference']`, kept as `reference_text`; read by the one reference-string reader
when GROBID gave no title) and the page from its coordinates when present. The TEI is parsed with
defusedxml (no DTD, no entities).

A TEI that is not well-formed, or that holds no reference, raises `GrobidError`; the PDF loader
then reads the file with the built-in reader and says why in a warning, so a GROBID that could
not help never passes for a document without references.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from auditor.load.documents.refstring import parse
from auditor.load.interface import Rows

__all__ = ["GrobidAnswer", "GrobidError", "tei_rows"]

_TEI = "{http://www.tei-c.org/ns/1.0}"


class GrobidError(Exception):
    """GROBID gave no usable answer (the message says which)."""


@dataclass(frozen=True)
class GrobidAnswer:
    """What asking GROBID about one PDF gave: its TEI, or why there is none."""

    tei: bytes | None
    """The body of GROBID's `200` answer; `None` when it could not be had."""
    failure: str | None = None
    """Why there is no TEI (`GROBID could not be asked (timeout: …)`), for the warning."""


def tei_rows(body: bytes) -> Rows:
    """The references of GROBID's TEI `body`; raises `GrobidError` for malformed TEI or none."""
    try:
        root: Element = SafeET.fromstring(body)
    except (SafeET.ParseError, DefusedXmlException, ValueError) as exc:
        raise GrobidError(f"GROBID answered no well-formed TEI ({exc})") from exc
    rows = Rows()
    for n, bibl in enumerate(root.iter(f"{_TEI}biblStruct"), start=1):
        _row(rows, bibl, n)
    if not len(rows):
        raise GrobidError("GROBID found no references")
    return rows


def _text(el: Element | None) -> str | None:
    if el is None:
        return None
    text = " ".join("".join(el.itertext()).split())
    return text or None


def _parsed(pers: Element) -> dict[str, str | None] | None:
    """The `author_names` value of one `persName`: GROBID's own surname and forenames."""
    surname = _text(pers.find(f"{_TEI}surname"))
    given = " ".join(filter(None, (_text(f) for f in pers.findall(f"{_TEI}forename"))))
    if not surname:
        return None
    return {"family": surname, "given": given or None, "particle": None, "suffix": None}


def _person(pers: Element) -> str | None:
    surname = _text(pers.find(f"{_TEI}surname"))
    given = " ".join(filter(None, (_text(f) for f in pers.findall(f"{_TEI}forename"))))
    if surname and given:
        return f"{surname}, {given}"
    return surname or given or None


_YEAR_RE = re.compile(r"^(\d{4})")


def _row(rows: Rows, bibl: Element, n: int) -> None:
    analytic, monogr = bibl.find(f"{_TEI}analytic"), bibl.find(f"{_TEI}monogr")
    title = _text(analytic.find(f"{_TEI}title")) if analytic is not None else None
    venue = _text(monogr.find(f"{_TEI}title")) if monogr is not None else None
    monogr_title = monogr.find(f"{_TEI}title") if monogr is not None else None
    if title is None and monogr_title is not None and monogr_title.get("level") != "j":
        title, venue = venue, None  # a book: its own title (a journal's name is no title)
    holder = (
        analytic if analytic is not None and analytic.find(f"{_TEI}author") is not None else monogr
    )
    people = list(holder.iter(f"{_TEI}persName")) if holder is not None else []
    authors = [a for a in map(_person, people) if a]
    parsed_names = [_parsed(p) for p in people if _person(p)]
    date = bibl.find(f".//{_TEI}imprint/{_TEI}date")
    when = (date.get("when") or "") if date is not None else ""
    year = int(m.group(1)) if (m := _YEAR_RE.match(when)) else None
    scope = {s.get("unit"): s for s in bibl.iter(f"{_TEI}biblScope")}
    page = scope.get("page")
    pages = None
    if page is not None:
        first, last = page.get("from"), page.get("to")
        pages = f"{first}-{last}" if first and last else first or _text(page)
    ids = {(i.get("type") or "").lower(): _text(i) for i in bibl.iter(f"{_TEI}idno")}
    raw = _text(bibl.find(f"{_TEI}note[@type='raw_reference']"))
    parsed = parse(raw) if raw and not title else None
    if parsed is not None and parsed.title:
        venue = venue or parsed.container_title
    coords = bibl.get("coords") or ""
    page_no = int(coords.split(",", 1)[0]) if re.match(r"^\d+,", coords) else None
    rows.add(
        source_line=n,
        source_page=page_no,
        source_label=parsed.label if parsed else None,
        reference_text=raw,
        key=bibl.get("{http://www.w3.org/XML/1998/namespace}id") or f"ref{n}",
        doi=ids.get("doi") or (parsed.ids.doi if parsed else None),
        arxiv=ids.get("arxiv") or (parsed.ids.arxiv if parsed else None),
        pmid=ids.get("pmid") or (parsed.ids.pmid if parsed else None),
        title=title or (parsed.title if parsed else None),
        authors=authors or (parsed.authors if parsed else []),
        author_names=parsed_names or None,
        year=year or (parsed.year if parsed else None),
        container_title=venue or (parsed.container_title if parsed else None),
        volume=_text(scope.get("volume")),
        issue=_text(scope.get("issue")),
        pages=pages,
        entry_type=_entry_type(analytic, monogr),
    )


def _entry_type(analytic: Element | None, monogr: Element | None) -> str:
    """`article` in a journal, `inproceedings` in a book or proceedings, `book` on its own."""
    title = monogr.find(f"{_TEI}title") if monogr is not None else None
    level = title.get("level") if title is not None else None
    if analytic is None:
        return "book" if level == "m" else "reference"
    return {"j": "article", "m": "inproceedings"}.get(level or "", "reference")
