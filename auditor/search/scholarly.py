"""Whether a `@misc`, `@online` or `@unpublished` entry is a scholarly work, decided by content.

Language models, Google Scholar and arXiv exports write `@misc` for papers and preprints, so
the entry type alone says little. An entry of those types is taken for a paper, and title
searched like an article, when (criteria v2 `title_search.scholarly_misc`):

- its title has at least `MIN_TITLE_WORDS` words (a model, library or product is named in one
  to three: `PyTorch`, `GPT-4`, `LLaMA 2`) and does not name a program or release (`… R
  package version 1.2`), and
- it names a person as an author (a name with a comma or two words, not an organisation such as
  `OpenAI` or `{World Health Organization}`), or it gives a year, and
- nothing in `howpublished`, `url` or `note` points to a web page, software, a data set or a
  standard: a URL is only scholarly on a host that serves papers (arXiv, doi.org, OpenReview,
  the ACL Anthology, PMLR, NeurIPS, CVF, ACM, IEEE, PubMed …); a `howpublished` must name a
  paper's venue (a preprint server, proceedings, a journal); a `note` must not speak of access
  dates, versions, software, code, data, standards or web pages; neither may say the work is
  not published yet (`in preparation`, `submitted`, `under review`, `to appear`, `manuscript`):
  no index is expected to hold it; and a `publisher` (or
  `institution`, `school`) without a journal or booktitle must be a preprint server (Zotero
  writes `publisher = {arXiv}`): a publisher of books, reports or theses issues works the
  article indexes do not hold.

Anything else stays NOT COVERED `not_indexed_type`: a false NOT FOUND on a real web page or
program costs more than a missed fabricated paper.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["MIN_TITLE_WORDS", "SCHOLARLY_TYPES", "looks_scholarly"]

#: Entry types decided by content (lower-cased BibTeX / biblatex types).
SCHOLARLY_TYPES: frozenset[str] = frozenset({"misc", "online", "unpublished", "preprint"})
#: Fewer title words than this read as the name of a thing, not the title of a paper.
MIN_TITLE_WORDS = 4

_SCHOLARLY_HOSTS = re.compile(
    r"^(?:[a-z0-9-]+\.)*(?:arxiv\.org|doi\.org|dx\.doi\.org|openreview\.net|aclanthology\.org|"
    r"aclweb\.org|proceedings\.mlr\.press|jmlr\.org|papers\.nips\.cc|proceedings\.neurips\.cc|"
    r"neurips\.cc|openaccess\.thecvf\.com|dl\.acm\.org|ieeexplore\.ieee\.org|"
    r"link\.springer\.com|sciencedirect\.com|ncbi\.nlm\.nih\.gov|pubmed\.gov|biorxiv\.org|"
    r"medrxiv\.org|biohackrxiv\.org|chemrxiv\.org|researchsquare\.com|ssrn\.com|ojs\.aaai\.org|aaai\.org|ijcai\.org|semanticscholar\.org|"
    r"nature\.com|science\.org|pnas\.org|plos\.org|wiley\.com|tandfonline\.com|"
    r"isca-speech\.org|iclr\.cc|icml\.cc|mlr\.press|europepmc\.org|hal\.science|"
    r"researchgate\.net)$"
)
_URL = re.compile(r"(?:https?://|www\.)([^/\s}]+)", re.I)
_SCHEME = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)
#: A title that names a program or a release: `PSICQUIC … R package version 1.28.0`.
_SOFTWARE_TITLE = re.compile(
    r"\b(?:R|Python|Julia|MATLAB|Bioconductor|Stata|CRAN|npm|Java) (?:package|library|module)\b|"
    r"\bversion \d|\bv\d+\.\d",
    re.I,
)
_VENUE_WORDS = re.compile(
    r"\b(arxiv|corr|preprint|biorxiv|medrxiv|ssrn|openreview|proceedings|proc\.|conference|"
    r"journal|workshop|symposium|transactions)\b",
    re.I,
)
_PREPRINT_SERVER = re.compile(
    r"\b(arxiv|biorxiv|medrxiv|chemrxiv|ssrn|openreview|preprints?)\b", re.I
)
_NOT_PAPER_WORDS = re.compile(
    r"\b(accessed|retrieved|visited|last checked|online|available (?:at|from|online)|website|"
    r"web ?page|web ?site|blog|software|code|github|gitlab|package|library|toolkit|version|"
    r"release|v\d|data ?set|data|corpus|benchmark suite|model card|hugging ?face|standard|"
    r"iso|iec|ieee std|rfc|w3c|specification|patent|video|youtube|podcast|tweet|twitter|"
    r"press release|news|wikipedia|manual|documentation|slides|talk|lecture|keynote|"
    r"personal communication|technical report|tech\. rep\.|white ?paper)\b",
    re.I,
)
#: A work not (yet) published: no index is expected to hold it, so a miss would prove nothing.
_UNPUBLISHED = re.compile(
    r"\b(in preparation|in prep\.|submitted|under (?:review|submission)|in review|forthcoming|"
    r"to appear|in press|accepted|manuscript|unpublished|working paper|draft)\b",
    re.I,
)
_ORGANISATION = re.compile(
    r"\b(team|inc|corp|corporation|company|ltd|llc|gmbh|foundation|organi[sz]ation|"
    r"association|society|institute|consortium|council|committee|agency|ministry|"
    r"department|office|project|group|lab|laboratory|university|openai|google|deepmind|"
    r"meta|microsoft|anthropic|nvidia|apple|amazon|ibm|contributors|developers|community)\b",
    re.I,
)


def _field(ref: Mapping[str, Any], name: str) -> str:
    value = ref.get(name)
    return value.strip() if isinstance(value, str) else ""


def _url_is_scholarly(url: str, text: str) -> bool:
    """Whether the `url` field (with or without its scheme) and every URL in `text` are on a
    host that serves papers (`True` when there is none)."""
    hosts = [m.group(1) for m in _URL.finditer(text)]
    if url:
        hosts.append(_SCHEME.sub("", url).split("/", 1)[0])
    return all(_SCHOLARLY_HOSTS.match(h.lower().removeprefix("www.").split(":")[0]) for h in hosts)


def _names_a_person(authors: Sequence[str] | None) -> bool:
    for name in authors or ():
        text = (name or "").strip()
        if not text or _ORGANISATION.search(text):
            continue
        if "," in text or len(text.split()) >= 2:
            return True
    return False


def looks_scholarly(ref: Mapping[str, Any]) -> bool:
    """Whether a reference of a `SCHOLARLY_TYPES` type reads as a paper (see module docstring).

    `ref` is a `references` row (`title`, `authors`, `year`, `howpublished`, `url`, `note`).
    Never raises.
    """
    title = _field(ref, "title")
    if len(title.split()) < MIN_TITLE_WORDS or _SOFTWARE_TITLE.search(title):
        return False
    if not (_names_a_person(ref.get("authors")) or ref.get("year")):
        return False
    url, howpublished, note = _field(ref, "url"), _field(ref, "howpublished"), _field(ref, "note")
    if not _url_is_scholarly(url, f"{howpublished} {note}"):
        return False
    if howpublished and (not _VENUE_WORDS.search(howpublished) or _without_urls(howpublished)):
        return False
    publisher = _field(ref, "publisher")
    if publisher and not _field(ref, "container_title") and not _PREPRINT_SERVER.search(publisher):
        return False  # a book, report or thesis (`publisher = {MIT Press}`) is no article
    if _UNPUBLISHED.search(f"{howpublished} {note}"):
        return False
    return not (note and _NOT_PAPER_WORDS.search(_URL.sub(" ", note)))


def _without_urls(howpublished: str) -> bool:
    """Whether `howpublished`, its URLs aside, speaks of something other than a paper."""
    return bool(_NOT_PAPER_WORDS.search(_URL.sub(" ", howpublished)))
