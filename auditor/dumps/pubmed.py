"""PubMed baseline and update files: `PubmedArticleSet` XML (`pubmed25n0001.xml.gz`).

Each `PubmedArticle` is read into the shape of an esummary document and handed to the live
register's own reader (`registers/pubmed.summary_row`), so an imported record and a fetched one
are the same row: `ArticleTitle`, `AuthorList` (`LastName Initials`, or `CollectiveName`),
`ISOAbbreviation`, volume, issue, `MedlinePgn`, the publication date (`PubDate` or
`MedlineDate`), the DOI in `ArticleIdList`, `Language`, `PublicationType`s and
`CommentsCorrections` (retractions, errata, expressions of concern). Parsed with defusedxml,
element by element (each article is cleared once read): no entity expansion, no DTD fetched,
memory of one article.

An update file's `DeleteCitation` list names PMIDs PubMed has removed: each becomes a
`not_found` row, what esummary answers for it now. Imported after the baseline (inputs are
parts in the order given), it wins over the baseline's record, as a later snapshot file does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, BinaryIO, ClassVar
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException

from auditor.dumps import xmlstream
from auditor.dumps.interface import DumpReader, Skipped
from auditor.errors import Reason, RegisterError
from auditor.registers.interface import RecordRow
from auditor.registers.pubmed import PubmedRegister, summary_row
from auditor.registers.records import row
from auditor.tables import IdType, RecordStatus

__all__ = ["PubmedDump"]

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _text(element: Element | None) -> str | None:
    if element is None:
        return None
    text = " ".join("".join(element.itertext()).split())
    return text or None


def _date(article: Element) -> str | None:
    pub = article.find("Journal/JournalIssue/PubDate")
    if pub is None:
        return None
    medline = _text(pub.find("MedlineDate"))
    if medline:
        return medline
    parts = [_text(pub.find(tag)) for tag in ("Year", "Month", "Day")]
    return " ".join(p for p in parts if p) or None


def _authors(article: Element) -> list[dict[str, str]]:
    out = []
    for author in article.findall("AuthorList/Author"):
        last, initials = _text(author.find("LastName")), _text(author.find("Initials"))
        name = " ".join(p for p in (last, initials) if p) or _text(author.find("CollectiveName"))
        out.append({"name": name or "", "authtype": "Author"})
    return out


def summary_of(node: Element) -> tuple[str | None, dict[str, Any]]:
    """`(PMID, esummary-shaped document)` of one `PubmedArticle` element."""
    citation = node.find("MedlineCitation")
    if citation is None:
        return None, {}
    pmid = _text(citation.find("PMID"))
    article = citation.find("Article")
    if article is None:
        return pmid, {}
    ids = [
        {"idtype": (i.get("IdType") or "").lower(), "value": _text(i) or ""}
        for i in node.findall("PubmedData/ArticleIdList/ArticleId")
    ]
    references = [
        {
            "reftype": _CAMEL.sub(" ", c.get("RefType") or "").capitalize(),
            "pmid": _text(c.find("PMID")),
            "refsource": _text(c.find("RefSource")),
        }
        for c in citation.findall("CommentsCorrectionsList/CommentsCorrections")
    ]
    date = _date(article)
    return pmid, {
        "uid": pmid,
        "title": _text(article.find("ArticleTitle")) or "",
        "authors": _authors(article),
        "source": _text(citation.find("MedlineJournalInfo/MedlineTA"))
        or _text(article.find("Journal/ISOAbbreviation")),
        "fulljournalname": _text(article.find("Journal/Title")),
        "volume": _text(article.find("Journal/JournalIssue/Volume")),
        "issue": _text(article.find("Journal/JournalIssue/Issue")),
        "pages": _text(article.find("Pagination/MedlinePgn")),
        "pubdate": date,
        "sortpubdate": date,
        "articleids": ids,
        "lang": [t for t in (_text(x) for x in article.findall("Language")) if t],
        "pubtype": [
            t
            for t in (_text(x) for x in article.findall("PublicationTypeList/PublicationType"))
            if t
        ],
        "references": references,
    }


class PubmedDump(DumpReader):
    """Reads PubMed baseline/update XML."""

    kind: ClassVar[str] = "pubmed"

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        """One row per `PubmedArticle`; a broken file ends with one `Skipped` naming it."""
        count = 0
        try:
            tags = ("PubmedArticle", "DeleteCitation", "PubmedBookArticle")
            for element in xmlstream.records(stream, tags, self.limits.xml_depth):
                if element.tag == "DeleteCitation":
                    yield from self._deleted(element, path)
                    continue
                count += 1
                if element.tag == "PubmedBookArticle":
                    yield Skipped(f"{path}: article {count}", "a Bookshelf record is not read")
                    continue
                yield self._row(element, f"{path}: article {count}")
        except (ParseError, DefusedXmlException) as exc:
            yield Skipped(f"{path}: after article {count}", f"unreadable XML ({exc})")

    @staticmethod
    def _deleted(element: Element, path: str) -> Iterator[RecordRow | Skipped]:
        """One `not_found` row per PMID of a `DeleteCitation` list."""
        for n, node in enumerate(element.findall("PMID"), 1):
            pmid = _text(node)
            if not pmid or not pmid.isascii() or not pmid.isdigit():
                yield Skipped(f"{path}: deleted citation {n}", f"no PMID ({pmid!r})")
                continue
            yield row(
                PubmedRegister.name,
                IdType.PMID,
                pmid,
                RecordStatus.NOT_FOUND,
                Reason.NOT_FOUND,
                body_digest=xmlstream.digest(node),
            )

    @staticmethod
    def _row(element: Element, where: str) -> RecordRow | Skipped:
        pmid, summary = summary_of(element)
        if not pmid or not pmid.isascii() or not pmid.isdigit():
            return Skipped(where, f"no PMID ({pmid!r})")
        if not summary.get("title"):
            return Skipped(where, f"PMID {pmid}: no article title")
        digest = xmlstream.digest(element)
        try:
            return summary_row(pmid, summary, digest)
        except RegisterError as exc:
            return Skipped(where, str(exc))
