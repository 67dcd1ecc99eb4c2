"""XML shared by the dumps that are one long document of records (PubMed, DBLP).

`records(stream, tags)` parses with defusedxml (no entity expansion, no DTD fetched) and yields
each element whose tag is in `tags` once it is complete; when the caller asks for the next one,
the element and the root's list of finished children are cleared, so memory is one record, never
the document. A record is read at most `MAX_RECORD_BYTES` past the end of the one before it: a
hostile text node of gigabytes stops the file with a `ParseError` naming the cap once that many
bytes were read, instead of growing in the parser's memory. Elements open at once are capped
(`max_depth`, setting `import_max_xml_depth`): the parser builds a deep tree without recursion,
but the serializer of `digest` and the readers' text walks recurse once per level, and a record
100,000 deep stopped the import with a `RecursionError`. `digest(element)` is the record's
`body_digest`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator
from typing import Protocol
from xml.etree.ElementTree import Element, ParseError, tostring

import defusedxml.ElementTree as safe_et

__all__ = ["MAX_RECORD_BYTES", "digest", "records"]

#: Bytes one record may span (a PubMed article is some 10 KB, a DBLP entry less).
MAX_RECORD_BYTES = 64 << 20


class Readable(Protocol):
    """What the parser reads from: a binary file, or DBLP's entity-mapping stream."""

    def read(self, size: int = -1, /) -> bytes:
        """Up to `size` bytes; `b""` at the end."""


class _Budget:
    """`stream`, refusing to read more than `limit` bytes past `mark` (the last record's end)."""

    def __init__(self, stream: Readable, limit: int) -> None:
        self._stream = stream
        self._limit = limit
        self.read_bytes = 0
        self.mark = 0

    def read(self, size: int = -1, /) -> bytes:
        data = self._stream.read(size)
        self.read_bytes += len(data)
        if self.read_bytes - self.mark > self._limit:
            raise ParseError(f"a record larger than {self._limit} bytes")
        return data


def records(stream: Readable, tags: Collection[str], max_depth: int = 200) -> Iterator[Element]:
    """Each complete element of `stream` whose tag is in `tags`, in document order; past
    `max_depth` elements open at once, a `ParseError` naming the cap.

    Raises `xml.etree.ElementTree.ParseError` or `defusedxml.DefusedXmlException` where the
    document stops being readable XML (the caller names the file and the record count).
    """
    root: Element | None = None
    budget = _Budget(stream, MAX_RECORD_BYTES)
    # A DOCTYPE may stand (PubMed's names its DTD, never fetched); an entity declaration may not.
    events = safe_et.iterparse(budget, events=("start", "end"), forbid_entities=True)
    depth = 0
    for event, element in events:
        if root is None:
            root = element  # the first event is the root's start
        if event == "start":
            depth += 1
            if depth > max_depth:
                raise ParseError(
                    f"elements nested deeper than {max_depth:,} (import_max_xml_depth)"
                )
            continue
        depth -= 1
        if element.tag not in tags:
            continue
        budget.mark = budget.read_bytes
        yield element
        element.clear()
        root.clear()  # drop the cleared records the root still lists


def digest(element: Element) -> str:
    """SHA-256 of the element serialized as `tostring(element)` (US-ASCII, character references).

    Serialized to text and encoded once: the same bytes as `tostring(element)`, a third faster
    (that writes every piece through an encoding wrapper; it was a third of an XML import).
    """
    text = tostring(element, encoding="unicode")
    return hashlib.sha256(text.encode("ascii", "xmlcharrefreplace")).hexdigest()
