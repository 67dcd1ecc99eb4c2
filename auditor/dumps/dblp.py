"""DBLP's XML dump (`dblp.xml.gz`), with its DTD's character entities, read safely.

`dblp.xml` declares `<!DOCTYPE dblp SYSTEM "dblp.dtd">` and writes accented letters as the
DTD's entities (`&ouml;`, `&eacute;`, …: the HTML Latin-1 set). We never load a DTD: the stream
is rewritten on the way into the parser, each `&name;` of a known character entity becoming
the numeric reference of its character (`html.entities`; `&#246;` is right whatever encoding the
file declares), the five XML entities left to the parser, and the DOCTYPE
declaration dropped, so any other entity is an error the parser reports, never an expansion.
Parsed with defusedxml element by element (each record cleared once read).

Each `article`, `inproceedings`, `proceedings`, `book`, `incollection`, `phdthesis`,
`mastersthesis` or `www` record with a title becomes a row of register `dblp`, id type `dblp`
(its `key`, e.g. `journals/cacm/Knuth74`), with the DOI of its `ee` links: DBLP rows serve the
title index (an id-less reference searched offline), not the identifier join.
"""

from __future__ import annotations

import html.entities
import re
from collections.abc import Iterator
from typing import BinaryIO, ClassVar
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException

from auditor.dumps import xmlstream
from auditor.dumps.interface import DumpReader, Skipped
from auditor.errors import RegisterError
from auditor.registers.interface import RecordRow
from auditor.registers.records import row
from auditor.tables import RecordStatus

__all__ = ["DblpDump", "EntityMapping"]

RECORD_TAGS = frozenset(
    {"article", "inproceedings", "proceedings", "book", "incollection", "phdthesis",
     "mastersthesis", "www"}
)  # fmt: skip
_XML_OWN = frozenset({"amp", "lt", "gt", "quot", "apos"})
_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]{0,31});")
_DOCTYPE = re.compile(rb"<!DOCTYPE[^>\[]*(\[[^\]]*\])?\s*>")
_DOI_LINK = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)


def _character(match: re.Match[bytes]) -> bytes:
    name = match.group(1).decode("ascii")
    if name in _XML_OWN or name not in html.entities.name2codepoint:
        return match.group(0)
    # A numeric reference: right in any declared encoding, and never an entity expansion.
    return b"&#%d;" % html.entities.name2codepoint[name]


class EntityMapping:
    """A binary stream that maps DBLP's character entities and drops the DOCTYPE on read."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._carry = b""
        self._started = False

    def read(self, size: int = -1) -> bytes:
        """Up to about `size` bytes of the rewritten stream (`b""` at its end)."""
        chunk = self._raw.read(size if size > 0 else 1 << 16)
        data = self._carry + chunk
        self._carry = b""
        if chunk:
            # An entity may straddle the chunk end: keep an unfinished `&…` for the next read.
            cut = data.rfind(b"&")
            if cut != -1 and b";" not in data[cut:] and len(data) - cut <= 33:
                data, self._carry = data[:cut], data[cut:]
        if not self._started:
            if b">" not in data and chunk:
                self._carry = data
                return self.read(size)
            data = _DOCTYPE.sub(b"", data, count=1)
            self._started = True
        return _ENTITY.sub(_character, data)


def _text(element: Element | None) -> str | None:
    if element is None:
        return None
    return " ".join("".join(element.itertext()).split()) or None


def _surname(name: str) -> str:
    # DBLP disambiguates homonyms with a number: "Wei Wang 0001".
    tokens = [t for t in name.split() if not t.isdigit()]
    return tokens[-1] if tokens else ""


def _record(element: Element, where: str) -> RecordRow | Skipped:
    key = element.get("key")
    title = _text(element.find("title"))
    if not key or not title:
        return Skipped(where, "no key or no title")
    authors = [a for a in (_text(x) for x in element.findall("author")) if a]
    year_text = _text(element.find("year")) or ""
    year = int(year_text) if year_text.isascii() and year_text.isdigit() else None
    doi = None
    for link in element.findall("ee"):
        m = _DOI_LINK.match(_text(link) or "")
        if m:
            doi = m.group(1).lower()
            break
    venue = _text(element.find("journal")) or _text(element.find("booktitle"))
    try:
        return row(
            "dblp",
            "dblp",
            key,
            RecordStatus.FOUND,
            title=title.rstrip("."),  # DBLP ends every title with a full stop
            authors=authors,
            surnames=[_surname(a) for a in authors],
            year=year,
            years=[year] if year is not None else [],
            container_title=venue,
            volume=_text(element.find("volume")),
            issue=_text(element.find("number")),
            pages=_text(element.find("pages")),
            doi=doi,
            work_type=element.tag,
            body_digest=xmlstream.digest(element),
        )
    except RegisterError as exc:
        return Skipped(where, str(exc))


class DblpDump(DumpReader):
    """Reads `dblp.xml`."""

    kind: ClassVar[str] = "dblp"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per publication record; a broken file ends with one `Skipped` naming it."""
        count = 0
        try:
            for element in xmlstream.records(
                EntityMapping(stream), RECORD_TAGS, self.limits.xml_depth
            ):
                count += 1
                yield _record(element, f"{path}: record {count}")
        except (ParseError, DefusedXmlException) as exc:
            yield Skipped(f"{path}: after record {count}", f"unreadable XML ({exc})")
