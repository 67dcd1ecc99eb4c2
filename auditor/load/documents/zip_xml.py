"""XML parts of a zip (`.docx`, `.odt`), inflated and parsed under the `DocumentLimits`.

A zip's declared sizes are the sender's word: a part is inflated a chunk at a time and the
bytes that come out are counted against `inflated_bytes` (one budget for all the parts read from
one file), so a bomb stops at the cap, whatever its header says. Each chunk goes straight into
the XML parser (defusedxml: no DTD, no entity, no external reference), whose tree builder
refuses an element opened deeper than `xml_depth`, so a tree 100,000 deep is never built.

Raises `InputError` naming the file and the part for every way a part can be refused.
"""

from __future__ import annotations

import zipfile
import zlib
from xml.etree.ElementTree import Element, TreeBuilder

from defusedxml.common import DefusedXmlException, DTDForbidden, EntitiesForbidden
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from auditor.errors import InputError
from auditor.load.documents.limits import SETTINGS, DocumentLimits

__all__ = ["Budget", "read_xml"]

_CHUNK = 1 << 20


class Budget:
    """The inflated bytes one file may still spend (`DocumentLimits.inflated_bytes`)."""

    def __init__(self, limits: DocumentLimits) -> None:
        self.limits = limits
        self.left = limits.inflated_bytes


class _TooDeep(Exception):
    """An element opened deeper than the cap."""


class _Bounded:
    """A tree builder that refuses an element opened deeper than `depth` (expat calls it)."""

    def __init__(self, depth: int) -> None:
        self._tree = TreeBuilder()
        self._depth = 0
        self._cap = depth

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        self._depth += 1
        if self._depth > self._cap:
            raise _TooDeep
        return self._tree.start(tag, attrs)

    def end(self, tag: str) -> Element:
        self._depth -= 1
        return self._tree.end(tag)

    def data(self, data: str) -> None:
        self._tree.data(data)

    def close(self) -> Element:
        return self._tree.close()


def read_xml(archive: zipfile.ZipFile, name: str, path: str, budget: Budget) -> Element:
    """The root of part `name` of `archive` (file `path`), its inflated bytes taken from
    `budget`; `InputError` when it passes a cap, is damaged or is not well-formed XML."""
    limits = budget.limits
    parser = DefusedXMLParser(
        target=_Bounded(limits.xml_depth),
        forbid_dtd=True,
        forbid_entities=True,
        forbid_external=True,
    )
    try:
        with archive.open(name) as stream:
            while chunk := stream.read(_CHUNK):
                budget.left -= len(chunk)
                if budget.left < 0:
                    raise InputError(
                        f"{path}: {name} inflates past the cap of "
                        f"{limits.inflated_bytes:,} bytes ({SETTINGS['inflated_bytes']}): "
                        "not read"
                    )
                parser.feed(chunk)
            root: Element = parser.close()
    except _TooDeep:
        raise InputError(
            f"{path}: {name} nests elements deeper than the cap of {limits.xml_depth:,} "
            f"({SETTINGS['xml_depth']}): not read"
        ) from None
    except (DTDForbidden, EntitiesForbidden) as exc:
        raise InputError(
            f"{path}: {name} declares a DTD or entities, which are never read "
            f"({type(exc).__name__})"
        ) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as exc:
        raise InputError(f"{path}: {name} is damaged ({exc})") from None
    except (ParseError, DefusedXmlException) as exc:
        raise InputError(f"{path}: {name} is not well-formed XML ({exc})") from None
    return root
