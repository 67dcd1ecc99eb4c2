"""Database CSV exports (Scopus, PubMed, Embase, Zotero, IEEE Xplore) read without `--map`.

Each database names its columns its own way and writes its author list its own way. `recognise`
looks at a header and says which export it is and which column fills each field; `derive`
fills what the export only writes inside another column. What is recognised:

- **Scopus** (`Authors,Author full names,Author(s) ID,Title,Year,Source title,…,DOI,…,EID`):
  `Author full names` (`Surname, Given (id); …`, the ids dropped) before `Authors`; venue `Source
  title`; pages `Page start`-`Page end`, else `Art. No.`; `PubMed ID`; `EID` as the key. Older
  exports separate `Authors` by `, ` after initials (`Smith J., Doe A.`).
- **PubMed** (`PMID,Title,Authors,Citation,First Author,Journal/Book,Publication Year,…,DOI`):
  `Authors` separated by `, ` (`Smith J, Doe A.`); volume, issue and pages from `Citation`
  (`PLoS One. 2016 Mar 8;11(3):e0150989. …`).
- **PubMed before 2020** (`Title,URL,Description,Details,ShortDetails,Resource,Type,Identifiers,
  Db,EntrezUID,Properties`, each record ending in a comma): authors from `Description` (as the
  newer export's `Authors`); the PMID from `Identifiers` (`PMID:26957754 | PMCID:PMC…`), else
  `EntrezUID` when `Db` is `pubmed`; the DOI, volume, issue and pages from `Details` (the
  citation); journal and year from `ShortDetails` (`PLoS One. 2016`). Its `Type` (`citation`)
  and relative `URL` (`/pubmed/26957754`) are not the `type` and `url` columns.
- **Embase** (`Title,…,Author Names,…,Source,…,Open URL Link`): `Author Names` separated by `, `
  after initials; venue, year, volume, issue and pages from `Source` (`Cancer (2004) 102:4
  (253-258). …`); the DOI and ISSN from the OpenURL's `id=doi:` and `issn=`.
- Any CSV: `Publication Year`, `Publication Title`, `Document Title`, `Author`, `Link`, … as
  the names above (Zotero's and IEEE Xplore's CSV). A `Document Type` column is never the
  `type` column (that one declares the identifier's type).

A name list with `;` in it is always split on `;`; a comma only ever splits names in the
exports above, so a generic CSV's `Smith, John` stays one author.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

__all__ = ["Export", "derive", "recognise"]

#: Field → header names that fill it, in order of preference (lower case).
_NAMES: dict[str, tuple[str, ...]] = {
    "key": ("key", "eid"),
    "title": ("title", "document title", "article title", "primary title"),
    "authors": ("authors", "author", "author names", "author(s)"),
    "year": ("year", "publication year", "pubyear", "year published"),
    "journal": (
        "journal", "source title", "journal/book", "publication title", "journal title",
    ),
    "volume": ("volume",),
    "issue": ("issue",),
    "pages": ("pages", "page range"),
    "issn": ("issn",),
    "language": ("language", "language of original document"),
    "url": ("url", "link"),
    "doi": ("doi",),
    "pmid": ("pmid", "pubmed id"),
}  # fmt: skip
_PAGE_PAIRS = (("page start", "page end"), ("start page", "end page"))
_ARTICLE_NUMBER = ("art. no.", "article number")
_SCOPUS_ID_RE = re.compile(r"(?<!\s)\s*\(\d+\)\s*$")  # from a run's start: linear
_AFTER_INITIAL_RE = re.compile(r"(?<=\.),\s*")
_CITATION_RE = re.compile(
    r";\s*(?P<volume>[^\s():;.]+)?(?:\((?P<issue>[^)]+)\))?:(?P<pages>[^\s.;]+)"
)
_DETAILS_DOI_RE = re.compile(r"\bdoi:\s*(10\.\d{4,9}/\S+?)\.?(?:\s|$)", re.I)
_IDENTIFIER_PMID_RE = re.compile(r"\bPMID:\s*(\d+)\b", re.I)
# (space before the match is taken only from where its run starts: tried inside a long run that
# leads to no match, it costs the square of the run; a match inside a run is found at its start)
_SHORT_DETAILS_RE = re.compile(r"^(?P<journal>.*?)(?:\.|(?<!\s))\s*(?P<year>\d{4})\s*$")
_SOURCE_RE = re.compile(
    r"^(?P<journal>.+?) \((?P<year>\d{4})\)(?: (?P<volume>[^\s:(]+)(?::(?P<issue>[^\s(]+))?)?"
    r"(?: \((?P<pages>[^)]+)\))?"
)


def _semicolons(value: str) -> list[str] | None:
    return value.split(";") if ";" in value else None


def _generic(value: str) -> list[str]:
    return _semicolons(value) or [value]


def _scopus(value: str) -> list[str]:
    names = _semicolons(value) or _AFTER_INITIAL_RE.split(value)
    return [_SCOPUS_ID_RE.sub("", n) for n in names]


def _pubmed(value: str) -> list[str]:
    return _semicolons(value) or [n.rstrip(".") for n in value.split(",")]


@dataclass(frozen=True)
class Export:
    """Which export a header is, the column of each field, and how its author lists split."""

    name: str
    """`scopus`, `pubmed`, `embase` or `csv` (any other)."""
    columns: Mapping[str, tuple[int, ...]]
    """Field → the columns that fill it, best first (a record's first non-empty one counts), for
    the fields the header has."""
    split_authors: Callable[[str], list[str]]
    """One author cell → its names (trimmed and cleaned later)."""
    pages: tuple[int, int] | None = None
    """Columns of the first and last page, when the export has no `pages` column."""
    article_number: int | None = None
    """Column of the article number (the pages of an article that has none)."""
    source: int | None = None
    """PubMed's `Citation` or Embase's `Source`, holding what other columns leave out."""
    openurl: int | None = None
    """Embase's `Open URL Link` (its query names the DOI and ISSN)."""
    named: Mapping[str, int] | None = None
    """PubMed's pre-2020 export: its `details`, `shortdetails`, `identifiers`, `entrezuid` and
    `db` columns (lower-cased names → column)."""

    def derived(self) -> frozenset[str]:
        """Fields this export fills from other columns when it has none of their own."""
        if self.name == "embase" and self.source is not None:
            return frozenset({"journal", "year", "volume", "issue", "pages"})
        if self.name == "pubmed_legacy":
            return frozenset({"journal", "year", "volume", "issue", "pages", "doi", "pmid"})
        return (
            frozenset({"pages"}) if self.pages or self.article_number is not None else frozenset()
        )


def recognise(header: Sequence[str], fields: Iterable[str], mapped: Mapping[str, str]) -> Export:
    """The export `header` is, and the column of each of `fields` (`mapped`: `--map` names,
    which win; a mapped column the header lacks leaves its field empty)."""
    index: dict[str, int] = {}
    for i, h in enumerate(header):
        index.setdefault(h.strip().lower(), i)
    if "eid" in index or "author(s) id" in index or "source title" in index:
        name, split = "scopus", _scopus
    elif {"pmid", "citation", "first author"} <= index.keys():
        name, split = "pubmed", _pubmed
    elif {"entrezuid", "shortdetails", "details", "description"} <= index.keys():
        name, split = "pubmed_legacy", _pubmed
    elif "author names" in index and "source" in index:
        name, split = "embase", _scopus  # `Liu R., Adler D.G.`: commas after initials
    else:
        name, split = "csv", _generic
    names = dict(_NAMES)
    if name == "scopus":
        names["authors"] = ("author full names", *names["authors"])
    named = None
    if name == "pubmed_legacy":
        names.update(authors=("description",), type=(), url=(), year=(), journal=())
        legacy = ("details", "shortdetails", "identifiers", "entrezuid", "db")
        named = {c: index[c] for c in legacy if c in index}
    columns: dict[str, tuple[int, ...]] = {}
    for field in fields:
        candidates = (mapped[field].lower(),) if field in mapped else names.get(field, (field,))
        hits = tuple(dict.fromkeys(index[c] for c in candidates if c in index))
        if hits:
            columns[field] = hits
    pages = next(((index[a], index[b]) for a, b in _PAGE_PAIRS if a in index and b in index), None)
    article = next((index[c] for c in _ARTICLE_NUMBER if c in index), None)
    source = {"pubmed": index.get("citation"), "embase": index.get("source")}.get(name)
    openurl = index.get("open url link") if name == "embase" else None
    return Export(name, columns, split, pages, article, source, openurl, named)


def derive(export: Export, get: Callable[[int | None], str | None]) -> dict[str, str]:
    """Values the export holds only inside other columns, for one record (`get(column)`)."""
    out: dict[str, str] = {}
    if export.pages:
        first, last = get(export.pages[0]), get(export.pages[1])
        span = f"{first}-{last}" if first and last and first != last else first or last
        if span:
            out["pages"] = span
    if "pages" not in out and (number := get(export.article_number)):
        out["pages"] = number
    text = get(export.source)
    if text and export.name == "pubmed":
        m = _CITATION_RE.search(text)
        if m:
            out.update({k: v for k, v in m.groupdict().items() if v})
    elif text and export.name == "embase":
        m = _SOURCE_RE.match(text)
        if m:
            out.update({k: v for k, v in m.groupdict().items() if v})
    out.update(_openurl(get(export.openurl)))
    if export.named is not None:
        out.update(_pubmed_legacy(export.named, get))
    return out


def _pubmed_legacy(
    named: Mapping[str, int], get: Callable[[int | None], str | None]
) -> dict[str, str]:
    """The fields PubMed's pre-2020 CSV keeps inside `Details`, `ShortDetails`, `Identifiers`."""
    out: dict[str, str] = {}
    details = get(named.get("details")) or ""
    if m := _CITATION_RE.search(details):
        out.update({k: v for k, v in m.groupdict().items() if v})
    if m := _DETAILS_DOI_RE.search(details):
        out["doi"] = m[1]
    short = (get(named.get("shortdetails")) or "").replace("&nbsp;", " ").replace("\xa0", " ")
    if m := _SHORT_DETAILS_RE.match(short.strip()):
        out["year"] = m["year"]
        if m["journal"].strip():
            out["journal"] = m["journal"].strip()
    if m := _IDENTIFIER_PMID_RE.search(get(named.get("identifiers")) or ""):
        out["pmid"] = m[1]
    elif (get(named.get("db")) or "").lower() == "pubmed" and (
        uid := get(named.get("entrezuid")) or ""
    ).isdigit():
        out["pmid"] = uid
    return out


def _openurl(url: str | None) -> dict[str, str]:
    """The DOI and ISSN of an OpenURL link (`…?issn=22267190&id=doi:10.4103%2F…`)."""
    if not url or "?" not in url:
        return {}
    query = parse_qs(urlsplit(url).query)
    out: dict[str, str] = {}
    for value in query.get("id", []) + query.get("rft_id", []):
        if value.lower().startswith("doi:10."):
            out["doi"] = value[4:]
            break
        if value.lower().startswith("info:doi/10."):
            out["doi"] = value[9:]
            break
    issn = (query.get("issn") or [""])[0].strip()
    if re.fullmatch(r"\d{7}[\dXx]", issn):
        out["issn"] = f"{issn[:4]}-{issn[4:]}"
    return out
