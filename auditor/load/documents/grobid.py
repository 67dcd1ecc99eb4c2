"""GROBID, optional: a PDF's references read by a GROBID server the user runs (`grobid_url`).

`grobid_rows(data, path, url)` posts the PDF to `{url}/api/processReferences` (multipart field
`input`, with `includeRawCitations=1` and `teiCoordinates=biblStruct`) and reads each
`biblStruct` of the TEI answer into the same columns as the built-in reader: the title
(`analytic/title`, else the monograph's), authors (`persName` as `surname, forenames`), year
(`date/@when`), venue (`monogr/title`), volume, issue, pages (`biblScope`), identifiers
(`idno` DOI, arXiv, PMID), the raw string (`note[@type='raw_reference']`, kept as
`reference_text`; read by the one reference-string reader when GROBID gave no title) and the
page from its coordinates. The TEI is parsed with defusedxml (no entities) and the answer is
capped at `MAX_ANSWER` bytes.

Failure to ask (connection refused, timeout, HTTP error, malformed TEI) raises `GrobidError`
naming what happened; the PDF loader then reads the file with the built-in reader and says so.
The built-in reader is the default and needs no server.
"""

from __future__ import annotations

import re
import secrets
import urllib.error
import urllib.request
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from auditor.load.documents.refstring import parse
from auditor.load.interface import Rows

__all__ = ["MAX_ANSWER", "TIMEOUT", "GrobidError", "grobid_rows"]

#: Largest TEI answer read (a 500-reference answer is about 1 MiB).
MAX_ANSWER = 32 * 1024 * 1024
#: Seconds GROBID may take for one PDF (it parses the whole document).
TIMEOUT = 120.0
_TEI = "{http://www.tei-c.org/ns/1.0}"


class GrobidError(Exception):
    """GROBID could not be asked or gave no usable answer (the message says which)."""


def grobid_rows(data: bytes, path: str, url: str, timeout: float = TIMEOUT) -> Rows:
    """The references GROBID reads from the PDF `data`; raises `GrobidError`."""
    body = _ask(data, url.rstrip("/") + "/api/processReferences", timeout)
    try:
        root: Element = SafeET.fromstring(body)
    except (SafeET.ParseError, DefusedXmlException) as exc:
        raise GrobidError(f"GROBID answered no well-formed TEI ({exc})") from exc
    rows = Rows()
    for n, bibl in enumerate(root.iter(f"{_TEI}biblStruct"), start=1):
        _row(rows, bibl, n)
    if not len(rows):
        raise GrobidError("GROBID found no references")
    return rows


def _ask(data: bytes, endpoint: str, timeout: float) -> bytes:
    if not endpoint.startswith(("http://", "https://")):
        raise GrobidError(f"grobid_url must be an http(s) address, not {endpoint!r}")
    boundary = "auditor" + secrets.token_hex(12)
    parts = [
        _field(boundary, "includeRawCitations", b"1"),
        _field(boundary, "teiCoordinates", b"biblStruct"),
        _field(boundary, "input", data, filename="document.pdf"),
        f"--{boundary}--\r\n".encode(),
    ]
    request = urllib.request.Request(
        endpoint,
        data=b"".join(parts),
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Accept": "application/xml",
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 (the user's server)
            body: bytes = answer.read(MAX_ANSWER + 1)
    except urllib.error.HTTPError as exc:
        raise GrobidError(f"GROBID answered HTTP {exc.code}") from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise GrobidError(f"GROBID at {endpoint} could not be reached ({exc})") from exc
    if len(body) > MAX_ANSWER:
        raise GrobidError(f"GROBID's answer is larger than {MAX_ANSWER // 2**20} MiB")
    return body


def _field(boundary: str, name: str, value: bytes, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    kind = "Content-Type: application/pdf\r\n" if filename else ""
    return (
        f"--{boundary}\r\nContent-Disposition: {disposition}\r\n{kind}\r\n".encode()
        + value
        + b"\r\n"
    )


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
