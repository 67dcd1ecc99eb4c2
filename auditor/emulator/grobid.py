"""GROBID's `POST /api/processReferences`: the corpus's `grobid` references as GROBID's TEI.

Whatever PDF is sent, the answer lists `Corpus.grobid` in the shape GROBID 0.8 writes it
(`GrobidRestProcessFiles.processStatelessReferencesDocument` and `BiblioItem.toTEI`, Apache-2.0,
github.com/kermitt2/grobid): a bare `TEI` with an empty `teiHeader`, one `biblStruct xml:id="bN"`
per reference in `back/div/listBibl`, `analytic` (article title, authors, DOI `idno`) before
`monogr` (venue title, `imprint` with `biblScope` and `date`), and the raw string in
`note type="raw_reference"` (asked for with `includeRawCitations=1`). No reference: `204` and no
body, as GROBID answers a PDF in which it found none. The request's one identifier is
`document`, so a test's fault plan can aim at it (`faults={"grobid:document": "malformed"}`).
"""

from __future__ import annotations

from functools import partial
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply

#: GROBID's media type for TEI answers.
TEI_TYPE = "application/xml; charset=UTF-8"

_HEAD = (
    '<TEI xmlns="http://www.tei-c.org/ns/1.0" xmlns:xlink="http://www.w3.org/1999/xlink" \n'
    ' xmlns:mml="http://www.w3.org/1998/Math/MathML">\n'
    "\t<teiHeader/>\n\t<text>\n\t\t<front/>\n\t\t<body/>\n\t\t<back>\n\t\t\t<div>\n"
    "\t\t\t\t<listBibl>\n"
)
_TAIL = "\t\t\t\t</listBibl>\n\t\t\t</div>\n\t\t</back>\n\t</text>\n</TEI>\n"


def _author(given: str, family: str) -> str:
    first = f'<forename type="first">{escape(given)}</forename>' if given else ""
    person = f"<persName>{first}<surname>{escape(family)}</surname></persName>"
    return f"\t\t<author>\n\t\t\t{person}\n\t\t</author>\n"


def bibl_struct(n: int, ref: dict[str, Any]) -> str:
    """One reference as GROBID's `biblStruct` (`b{n}`): see the module docstring."""
    authors = "".join(_author(given, family) for given, family in ref.get("authors", []))
    doi = f'\t\t<idno type="DOI">{escape(ref["doi"])}</idno>\n' if ref.get("doi") else ""
    title = ref.get("title")
    analytic = (
        f'\t<analytic>\n\t\t<title level="a" type="main">{escape(title)}</title>\n'
        f"{authors}{doi}\t</analytic>\n"
        if title
        else ""
    )
    level = quoteattr(ref.get("venue_level", "j"))
    venue = f"\t\t<title level={level}>{escape(ref['venue'])}</title>\n" if ref.get("venue") else ""
    scope = "".join(
        f'\t\t\t<biblScope unit="{unit}">{escape(str(ref[unit]))}</biblScope>\n'
        for unit in ("volume", "issue")
        if ref.get(unit)
    )
    if ref.get("pages"):
        first, _, last = str(ref["pages"]).partition("-")
        to = f" to={quoteattr(last)}" if last else ""
        scope += f'\t\t\t<biblScope unit="page" from={quoteattr(first)}{to} />\n'
    year = ref.get("year")
    date = f'\t\t\t<date type="published" when="{int(year)}" />\n' if year else ""
    raw = ref.get("raw")
    note = f'\t<note type="raw_reference">{escape(raw)}</note>\n' if raw else ""
    return (
        f'<biblStruct xml:id="b{n}">\n{analytic}\t<monogr>\n{venue}'
        f"\t\t<imprint>\n{scope}{date}\t\t</imprint>\n\t</monogr>\n{note}</biblStruct>\n"
    )


def process_references(corpus: Corpus, wrong_echo: set[str]) -> Reply:
    """The TEI of every `corpus.grobid` reference, or GROBID's `204` when there is none."""
    if not corpus.grobid:
        return Reply(204, b"", TEI_TYPE)
    body = _HEAD + "".join(bibl_struct(n, ref) for n, ref in enumerate(corpus.grobid)) + _TAIL
    return Reply(200, body.encode("utf-8"), TEI_TYPE)


class GrobidService(EmulatedService):
    """`/grobid`: GROBID's reference extraction (no `Settings` field points here by default:
    a test sets `grobid_url` to `<origin>/grobid` itself, so no other run asks it)."""

    name = "grobid"
    url_setting = None
    endpoints = ("grobid_references",)

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/api/processReferences`."""
        if asked.path != "/grobid/api/processReferences":
            return None
        return Routed("grobid_references", ["document"], partial(process_references, corpus))
