"""Read the part of a reference string after its title: venue, volume, issue, pages, kind.

`venue_fields(venue)` takes `In Proc. X, 12(3):45-67, 2020` apart into the container title,
volume, issue and pages; `entry_type(venue, fields, ids)` says what kind of work the part's
shape claims (`inproceedings` after `In …`, `article` with a volume or pages, `book` with a
publisher, `online` for a bare URL, `misc` for a preprint), else `reference`.
"""

from __future__ import annotations

import re

from auditor.load.documents.identifiers import Identifiers

__all__ = ["entry_type", "venue_fields"]

_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_SPACES_RE = re.compile(r"\s+")
_IN_RE = re.compile(r"^(?:In:?|in:?)\s+", re.UNICODE)
_ED_RE = re.compile(r"^(?:[^.]{0,200}?\(eds?\.?\),?|[^.]{0,200}?\beds?\.,)\s*", re.I)
_VOL_ISSUE_PAGES_RE = re.compile(
    r"(?P<v>\d{1,5})\s*\((?P<i>[\w\s/–-]{1,12})\)\s*(?:[:,]\s*(?:pp?\.\s*)?(?P<p>[\w]+(?:\s*[-–—]+\s*\w+)?))?"
)
_VOL_PAGES_RE = re.compile(r"(?P<v>\d{1,5})\s*:\s*(?P<p>\w+(?:\s*[-–—]+\s*\w+)?)")
_VOL_RE = re.compile(r"\b(?:vol(?:ume)?\.?)\s*(?P<v>\d{1,5})", re.I)
_NO_RE = re.compile(r"\b(?:no\.|number|issue)\s*(?P<i>\d{1,5})", re.I)
_PAGES_RE = re.compile(r"\b(?:pp\.?|p\.|pages?)\s*(?P<p>\w+(?:\s*[-–—]+\s*\w+)?)", re.I)
_APA_VOL_PAGES_RE = re.compile(r",\s*(?P<v>\d{1,5}),\s*(?P<p>\d+\s*[-–—]\s*\d+)")


def venue_fields(venue: str) -> dict[str, str | None]:
    """Container title, volume, issue and pages read off the part after the title."""
    v = _IN_RE.sub("", venue.strip())
    v = _ED_RE.sub("", v) if re.search(r"\beds?\b", v[:220], re.I) else v
    volume = issue = pages = None
    m = _VOL_ISSUE_PAGES_RE.search(v)
    if m:
        volume, issue, pages = m.group("v"), m.group("i").strip(), m.group("p")
    elif m2 := _VOL_PAGES_RE.search(v):
        volume, pages = m2.group("v"), m2.group("p")
    elif m3 := _APA_VOL_PAGES_RE.search(v):
        volume, pages = m3.group("v"), m3.group("p")
    volume = volume or ((mv := _VOL_RE.search(v)) and mv.group("v")) or None
    issue = issue or ((mi := _NO_RE.search(v)) and mi.group("i")) or None
    pages = pages or ((mp := _PAGES_RE.search(v)) and mp.group("p")) or None
    return {
        "container_title": _container(v),
        "volume": volume,
        "issue": issue,
        "pages": _SPACES_RE.sub("", pages).replace("—", "-").replace("–", "-") if pages else None,
    }


# (space before the match is taken only from where its run starts: tried inside a long run that
# leads to no match, it costs the square of the run; a match inside a run is found at its start)
_CONTAINER_END_RE = re.compile(
    rf"(?:,|\.|;)\s*(?:{_YEAR}|vol\b|volume\b|pp?\.|pages?\b|no\.|\d)|(?<!\s)\s+\d{{1,5}}\s*[(:]|"
    rf"(?<!\s)\s*\(\s*{_YEAR}|,\s*[A-Z][a-z]+\s+{_YEAR}",
    re.I,
)
_YEAR_END_RE = re.compile(rf"(?:[,.]|(?<!\s))\s*{_YEAR}[a-z]?\s*\.?$")


def _container(v: str) -> str | None:
    """The venue's name: up to the first year, volume, pages or number that follows it."""
    if not v:
        return None
    m = _CONTAINER_END_RE.search(v)
    name = v[: m.start()] if m else v
    name = _YEAR_END_RE.sub("", name).strip(" .,;:")
    if not name or name.isdigit() or len(name) > 300:
        return None
    return name


_PUBLISHER_RE = re.compile(
    r"\b(?:press|publish\w*|verlag|editions?|university|thesis|dissertation)\b", re.I
)
_PREPRINT_RE = re.compile(r"\b(?:arxiv|preprint|biorxiv|medrxiv|ssrn|corr)\b", re.I)


def entry_type(venue: str, fields: dict[str, str | None], ids: Identifiers) -> str:
    if _PREPRINT_RE.search(venue) or (ids.arxiv and not fields["container_title"]):
        return "misc"
    if _IN_RE.match(venue.strip()):
        return "inproceedings"
    if fields["volume"] or fields["pages"] or fields["issue"]:
        return "article"
    if _PUBLISHER_RE.search(venue):
        return "book"
    if ids.url and not ids.doi and not fields["container_title"]:
        return "online"
    return "reference"
