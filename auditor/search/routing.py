"""Which rows a title search may settle, and which indexes to ask, in what order.

A miss counts only where the indexes cover the work: an entry type that names a journal article
or a proceedings paper (`article`, `inproceedings`, `conference`; RIS `JOUR`, `CONF`, …), or an
entry of no known type that names a journal or proceedings venue. Books, chapters, theses,
reports, standards, web pages, software, datasets, patents, laws and archival sources are mostly
held by no index we ask: for them a miss is no evidence, so they are not searched and stay NOT
COVERED with `not_indexed_type`. A `misc` or unknown-type entry whose venue names arXiv or CoRR
is a preprint and is searched. A `misc`, `online` or `unpublished` entry that reads as a paper
by its content (`auditor.search.scholarly.looks_scholarly`) is searched like an article
(`route_reference`).

A row of a counted type is still only evidence by its miss when its title is in Latin script
and its year (if any) is 1950 or later (`miss_counts`); other rows are searched, and a hit
confirms them, but a miss leaves them NOT COVERED `not_indexed_type`.

A `Route` names the indexes a row may ask, in order of preference: the general indexes first
(OpenAlex, Crossref: the fastest, ten requests a second), then the specialist the venue points
to (DBLP for computer science, PubMed for biomedicine, arXiv for preprints), then the other
general ones (Semantic Scholar, DBLP). It also names the indexes that *cover* the row's field:
only their "no" counts towards NOT FOUND, which needs two of them (criteria auditor/v2
`title_search.not_found`). Crossref does not cover the computer-science venues that register no
DOIs (NeurIPS, ICML, ICLR, …) nor preprints; DBLP covers computer science only. The planner
(`search/plan.py`) decides when each index is asked, by its pace.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from auditor.search.scholarly import SCHOLARLY_TYPES, looks_scholarly

#: Entry types whose works the indexes hold (BibTeX, biblatex, RIS), lower-cased.
INDEXED_TYPES: frozenset[str] = frozenset(
    {"article", "inproceedings", "conference", "jour", "ejour", "conf", "cpaper", "inpress"}
    # CSL-JSON (Zotero, Mendeley), EndNote XML `ref-type` names and Word `b:SourceType`
    | {"article-journal", "paper-conference", "journal article", "conference paper"}
    | {"conference proceedings", "journalarticle", "conferenceproceedings"}
)
#: Types that name no venue of their own but may be preprints (decided by the venue).
VENUE_DECIDES: frozenset[str] = frozenset({"misc", "unpublished", "online", "preprint", "gen"})

#: `entry_type` of a reference read from a document (PDF, Word, text) whose string names no
#: kind: a work with authors, title and year, searched as a scholarly work.
DOCUMENT_REFERENCE = "reference"

#: Index names, as the search registers call themselves.
CROSSREF, OPENALEX, DBLP, ARXIV, S2, PUBMED = (
    "crossref_search",
    "openalex_search",
    "dblp",
    "arxiv_search",
    "s2",
    "pubmed_search",
)
#: The general indexes: every field, and the fastest paces.
GENERAL: frozenset[str] = frozenset({CROSSREF, OPENALEX})


@dataclass(frozen=True)
class Route:
    """The indexes one row may ask, in order of preference, and those covering its field."""

    order: tuple[str, ...]
    covering: frozenset[str]
    """Indexes whose "no" counts towards NOT FOUND (two are needed)."""

    def __iter__(self) -> Iterator[str]:
        return iter(self.order)


# Every route holds both general indexes and at least two covering ones: a real work missed by
# one index is still found (a false NOT FOUND costs more than a request).
ROUTE_CS = Route((OPENALEX, CROSSREF, DBLP, S2), frozenset({OPENALEX, CROSSREF, DBLP, S2}))
#: CS venues that register no DOIs: Crossref holds none of their papers.
ROUTE_CS_NO_DOI = Route((OPENALEX, DBLP, S2, CROSSREF), frozenset({OPENALEX, DBLP, S2}))
ROUTE_PREPRINT = Route((OPENALEX, ARXIV, S2, DBLP, CROSSREF), frozenset({OPENALEX, ARXIV, S2}))
ROUTE_BIOMED = Route(
    (CROSSREF, OPENALEX, PUBMED, S2, DBLP), frozenset({CROSSREF, OPENALEX, PUBMED, S2})
)
ROUTE_OTHER = Route((CROSSREF, OPENALEX, S2, DBLP), frozenset({CROSSREF, OPENALEX, S2}))

_PREPRINT = re.compile(r"\b(arxiv|corr|preprint|biorxiv|medrxiv|ssrn|openreview)\b", re.I)
_CS = re.compile(
    r"\b(neurips|nips|icml|iclr|cvpr|iccv|eccv|aaai|ijcai|acl|emnlp|naacl|coling|eacl|tacl|"
    r"kdd|www|sigir|sigmod|vldb|icde|chi|uist|uai|aistats|colt|alt|icra|iros|rss|corl|osdi|"
    r"sosp|nsdi|ccs|usenix|ndss|sp|icse|fse|pldi|popl|stoc|focs|soda|wsdm|cikm|recsys|mlsys|"
    r"interspeech|icassp|miccai|jmlr|tmlr|tpami|ijcv|siggraph|mm|wacv|bmvc|ecml|pkdd|icdm|"
    r"sdm|lrec|ieee|acm|lncs|springer lecture notes)\b|comput|machine learning|learning "
    r"representations|neural|artificial intelligence|robot|vision|language processing|"
    r"data mining|information retrieval|software|algorithm|cryptolog|network",
    re.I,
)
_NO_DOI = re.compile(
    r"\b(neurips|nips|neural information processing|icml|international conference on machine "
    r"learning|iclr|learning representations|corl|colt|aistats|uai|jmlr|tmlr|pmlr|mlsys|"
    r"openreview|proceedings of machine learning research)\b",
    re.I,
)
_BIOMED = re.compile(
    r"medic|clinic|biol|health|cancer|oncol|cell|gene|genom|nurs|pharm|neuro|cardi|lancet|"
    r"\bjama\b|\bbmj\b|plos|pediatr|paediatr|surg|epidemiol|immun|biochem|physiol|pathol|"
    r"psychiatr|dent|vet|\bnejm\b|new england journal|infect|diabet|endocrin|obstet|gynec|"
    r"ophthalm|radiol|nutri|virol|microbio|molecul|biomed|bmc|frontiers in|hepat|gastro|"
    r"nephrol|pulmon|respir|dermatol|orthop|anesth|rehabil|public health|\bcirc\b|circulation|"
    r"blood|stroke|\bgut\b|thorax|chest",
    re.I,
)


#: Before this year the indexes hold too little for a miss to mean anything.
FIRST_COUNTED_YEAR = 1950
#: Letters of scripts other than Latin (Cyrillic, Greek, Arabic, Hebrew, Indic, Thai, CJK, Hangul):
#: the indexes hold few such titles, so a miss is no evidence there either.
_OTHER_SCRIPT = re.compile(
    "[\u0370-\u03ff\u0400-\u052f\u0590-\u06ff\u0900-\u0dff\u0e00-\u0e7f"
    "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)


def miss_counts(title: str, year: int | None) -> bool:
    """Whether a miss is evidence for a searched row: a Latin-script title, and no year before
    `FIRST_COUNTED_YEAR` (a row without a year counts)."""
    return not _OTHER_SCRIPT.search(title) and (year is None or year >= FIRST_COUNTED_YEAR)


def holds_no_journal(entry_type: str | None, venue: str | None) -> bool:
    """Whether the entry is of a kind no journal or proceedings index holds: a known type outside
    `INDEXED_TYPES` that does not leave it to the venue (a book, thesis, standard, patent …), or
    one that leaves it to the venue and names none. An entry of no known type is not (its venue
    may be a journal). The Chinese waterfall's journal bridge asks this before it looks a journal
    name up: a book has no journal, so a bridge miss would say nothing about it."""
    kind = (entry_type or "").strip().lower()
    if not kind or kind in INDEXED_TYPES:
        return False
    return kind not in VENUE_DECIDES or not (venue or "").strip()


def _is(pattern: re.Pattern[str], text: str) -> bool:
    return bool(pattern.search(text))


def route(entry_type: str | None, venue: str | None) -> Route | None:
    """The indexes to ask for one row, in order; `None` when a miss would not count.

    `entry_type` as loaded (BibTeX type or RIS `TY`, any case); `venue` the journal or
    proceedings title. Never raises.
    """
    kind = (entry_type or "").strip().lower()
    place = (venue or "").strip()
    if kind == DOCUMENT_REFERENCE:
        # a formatted reference read from a document, its kind unprinted: by its venue if it
        # names one, else every general index (preprints included)
        return ROUTE_PREPRINT if not place or _is(_PREPRINT, place) else route("article", place)
    if kind in VENUE_DECIDES or not kind:
        if _is(_PREPRINT, place):
            return ROUTE_PREPRINT
        if kind or not place:
            return None  # a misc / web entry, or an unknown type naming no venue
    elif kind not in INDEXED_TYPES:
        return None
    if _is(_PREPRINT, place):
        return ROUTE_PREPRINT
    if _is(_BIOMED, place) and not _is(_CS, place):
        return ROUTE_BIOMED
    if not place or _is(_NO_DOI, place):
        return ROUTE_CS_NO_DOI  # no venue: it may be one of them, so a Crossref "no" says little
    if _is(_CS, place):
        return ROUTE_CS
    return ROUTE_OTHER


def route_reference(ref: Mapping[str, Any]) -> Route | None:
    """The indexes to ask for one `references` row: `route` by type and venue, and for a
    `misc`/`online`/`unpublished` entry that reads as a paper (`looks_scholarly`), the route of
    an article with its venue. `None` when a miss would not count. Never raises."""
    kind = (ref.get("entry_type") or "").strip().lower()
    venue = ref.get("container_title")
    order = route(kind, venue)
    if order is None and kind in SCHOLARLY_TYPES and looks_scholarly(ref):
        return route("article", venue)
    return order
