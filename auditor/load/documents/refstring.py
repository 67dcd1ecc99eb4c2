"""Read one formatted reference string into fields: the one reader for PDF, Word, text and GROBID.

`parse(text)` never raises. It recognises the common style families by their punctuation, not
by any list of venues:

- numbered (IEEE, ACM, Vancouver/ICMJE, natbib `plainnat`/`unsrtnat`): a leading `[n]`, `n.`
  or `(n)` label, then `Authors. Title. Venue …, year.` (IEEE quotes its titles);
- author-year (APA, Chicago, Harvard, `apalike`): `Authors (2021). Title. Venue.` or
  `Authors. 2021. "Title." Venue.`, optionally after a `[Label, 2021]` label;
- GB/T 7714: `Authors. Title[J]. Journal, 2020, 12(3): 45-67.` (`[J]`, `[C]`, `[M]`, …).

A field the string does not let us read is `None` ("not claimed"), never a guess: the criteria
compare only what was claimed. `sure` is False when the authors/title boundary was not marked by
a year, quotes or a type tag, so the search stage may settle the row against the whole string.
"""

from __future__ import annotations

import re
import unicodedata

from auditor.load.documents.confidence import rule_confidence
from auditor.load.documents.identifiers import find_identifiers
from auditor.load.documents.merge import with_model
from auditor.load.documents.parsed import ParsedReference
from auditor.load.documents.people import PARTICLE as _PARTICLE
from auditor.load.documents.people import split_authors
from auditor.load.documents.venue_part import entry_type, venue_fields

__all__ = ["ParsedReference", "parse", "string_query", "strip_label"]


_LABEL_RE = re.compile(
    r"^\s*(?:\[(?P<b>[^\]]{1,80})\]|\((?P<p>\d{1,4})\)|(?P<n>\d{1,4})\.(?=\s)|(?P<s>\d{1,4})(?=\s*\S))\s*"
)
_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_YEAR_RE = re.compile(rf"(?<![\d/.])({_YEAR})[a-z]?(?![\d])")
# `Authors (2021). Title` / `Authors (2021) Title` / `Authors (2021, March 3). Title`
# (space before the match is taken only from where its run starts: tried inside a long run that
# leads to no match, it costs the square of the run; a match inside a run is found at its start)
_PAREN_YEAR_RE = re.compile(rf"(?<!\s)\s*\((?P<y>{_YEAR})[a-z]?(?:,[^)]{{0,30}})?\)\s*[.,:]?\s*")
# `Authors. 2021. Title` / `Authors, 2021. Title`
_BARE_YEAR_RE = re.compile(rf"[.,]\s+(?P<y>{_YEAR})[a-z]?\.\s+")
# ACM's `Authors. [n. d.]. Title.`: no date, where the year would stand after the names
_ACM_N_D_RE = re.compile(r"\.\s+\[n\.\s?d\.\]\.\s+")
_N_D_RE = re.compile(r"(?<!\s)\s*\((?:n\.\s?d\.|in press|forthcoming)\)\s*[.,]?\s*", re.I)
# a quote closes with its own mark: `’` closes only `‘`, and not as an apostrophe (`President’s`
# inside “…” is no end of the title)
# (a quote holds no second opening of its own mark: tried from each of a run of them, the
# quote would read 600 characters ahead from every one)
_QUOTED_RE = re.compile(
    r"[“\"](?P<t>[^”\"“]{4,600}?)[,.]?[”\"]|‘(?P<s>[^”\"‘]{4,600}?)[,.]?’(?!\w)"
)
_GBT_TAG_RE = re.compile(r"\[(?:J|C|M|D|R|P|S|N|A|Z|G|EB/OL|J/OL|M/OL|C/OL|DB/OL|CP/OL)\]")
# a title ends at `.`, `?` or `!` (a run: `Divergences..`) before a capital, a digit, a quote,
# a camel-cased name (`arXiv`, `bioRxiv`, `eLife`) or the end
_TITLE_END_RE = re.compile(
    r"(?<=[^\s.?!])[.?!]+(?=\s+(?:[\"“(\[A-Z0-9\u00c0-\u024f]|[a-z]+[A-Z])|\s*$)"
)
# `…synthesis, in: CVPR` (elsarticle), `…approach. in NeurIPS` (Nature): the venue begins
# (after `?` or `!` only a lower-case `in`: `Power up? In defence of …` goes on as a subtitle)
_IN_VENUE_RE = re.compile(r"(?:(?<=\S)[,.]\s+[Ii]n|(?<=\w)[?!]\s+in):?\s+(?=[A-Z0-9])")
_VENUE_START_RE = re.compile(
    r"^(?:In\b|Proc|Journal|J\.|Trans|Advances|arXiv|bioRxiv|medRxiv|Preprint|Nature|Science)"
)
_SPACES_RE = re.compile(r"\s+")
# A URL broken at a line end after one of its dots (`…Challenges. pdf`, `https://github. com/…`):
# joined again when what follows is a file or host ending (the URL starts after a space only, so
# a run of `http://` is scanned once)
_URL_BREAK_RE = re.compile(
    r"(?<!\S)(https?://\S*\.)\s(?=(?:pdf|html?|php|aspx?|xml|com|org|net|edu|gov|io)\b)"
)
# What a title may not end with: an edition (`(2nd ed.)`, `(1. Aufl.)`) or a bracket left open
# where the title was cut inside it (`Understanding Cryptography (1`)
_TITLE_TAIL_RE = re.compile(
    r"(?<!\s)\s*\((?:\d+(?:st|nd|rd|th)?\.?\s?(?:ed|edn|edition|Aufl|Auflage)\.?\)?|[^()]*)$", re.I
)
# a venue printed straight after the title (`… rank Workshop on Learning to Rank for IR`)
_VENUE_CUE_RE = re.compile(
    r"(?<=[a-z0-9)])\s+(?=(?:Proceedings\s+of|(?:\d{1,3}(?:st|nd|rd|th)\s+)?"
    r"(?:(?:International|Annual|ACM|IEEE)\s+)*(?:Workshop|Conference|Symposium)\s+on)\s)"
)


# HTML entities pasted in from web pages and rendered as text (`d&apos;Amore`, `&Amp;`)
_ENTITY_RE = re.compile(r"&(amp|apos|quot|lt|gt|nbsp|#\d{1,6}|#x[0-9a-f]{1,5});", re.I)
_ENTITIES = {"amp": "&", "apos": "'", "quot": '"', "lt": "<", "gt": ">", "nbsp": " "}


# TeX accent commands left in the text by a `.bib` printed without TeX (`\v{Z}itnik`, `\vZitnik`,
# `{\'e}`): left as they are, `\vZitnik` reads as a name of its own and splits the authors
_TEX_MARKS = {"`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304"}
_TEX_MARKS |= {".": "\u0307", '"': "\u0308", "u": "\u0306", "v": "\u030c", "H": "\u030b"}
_TEX_MARKS |= {"c": "\u0327", "k": "\u0328"}
_TEX_ACCENT_RE = re.compile(
    r"\{?\\(?:(?P<s>[`'^~=.\"])|(?P<w>[uvHck])(?=[\s{]?[A-Za-z]))\s?"
    r"(?:\{\\?(?P<b>[A-Za-z])\}|\\?(?P<l>[A-Za-z]))\}?"
)


def _tex_accent(m: re.Match[str]) -> str:
    letter = m.group("b") or m.group("l")
    mark = _TEX_MARKS[m.group("s") or m.group("w")]
    return unicodedata.normalize("NFC", letter + mark)


def _entity(m: re.Match[str]) -> str:
    name = m.group(1).lower()
    if name.startswith("#"):
        try:
            code = int(name[2:], 16) if name[1:2] == "x" else int(name[1:])
            return chr(code) if 32 <= code < 0x110000 else m.group(0)
        except ValueError:
            return m.group(0)
    return _ENTITIES[name]


def strip_label(text: str) -> tuple[str | None, str]:
    """`(label, rest)`: a leading `[n]`, `[Name, 2021]`, `(n)`, `n.` or bare `n` taken off."""
    m = _LABEL_RE.match(text)
    if not m:
        return None, text
    label = m.group("b") or m.group("p") or m.group("n") or m.group("s")
    if m.group("b") and _GBT_TAG_RE.fullmatch(f"[{label}]"):
        return None, text
    return label.strip(), text[m.end() :]


def string_query(text: str) -> str:
    """A reference string as a search query: without its label and identifiers, at most 600
    characters (a longer string is not one reference)."""
    _, rest = strip_label(" ".join(text.split()))
    _, rest = find_identifiers(rest)
    return rest.strip(" .")[:600]


def parse(text: str, model: bool = True) -> ParsedReference:
    """The fields of the reference `text` (see the module docstring); never raises. With
    `model`, the fields the rules cannot be sure of are the model's (`merge.with_model`)."""
    flat = _URL_BREAK_RE.sub(r"\1", _SPACES_RE.sub(" ", text).strip())
    # entities decoded in one pass: `&amp;apos;` was printed as `&apos;` and stays so
    label, rest = strip_label(_TEX_ACCENT_RE.sub(_tex_accent, _ENTITY_RE.sub(_entity, flat)))
    ids, rest = find_identifiers(rest)
    rest = rest.strip(" ,;")
    for reader in (_gbt, _quoted, _initials_first, _author_year, _plain):
        got = reader(rest)
        if got is not None:
            style, authors_part, title, venue_part, year, sure = got
            break
    authors, et_al = split_authors(authors_part)
    fields = venue_fields(venue_part)
    year_marked = year is not None
    if year is None:
        year = _last_year(venue_part)
    if label and style == "author_year" and year is None:
        year = _last_year(label)
    title, dated = _title_and_date(_clean_title(title))
    year = year if year is not None else dated
    sure = sure and bool(authors) and bool(title)
    ref = ParsedReference(
        text=flat,
        label=label,
        title=title,
        authors=authors,
        et_al=et_al,
        year=year,
        ids=ids,
        entry_type=entry_type(venue_part, fields, ids),
        style="numbered" if style == "plain" and label and label.isdigit() else style,
        sure=sure,
        confidence=rule_confidence(style, sure, title, authors, year, year_marked, fields),
        **fields,
    )
    return with_model(ref, rest) if model else ref


_Read = tuple[str, str, str | None, str, int | None, bool]


def _gbt(rest: str) -> _Read | None:
    """GB/T 7714: the title ends at its type tag; the authors end at the first `. ` before it."""
    m = _GBT_TAG_RE.search(rest)
    if not m:
        return None
    head = rest[: m.start()]
    cut = _first_stop(head)
    if cut is None:
        return None
    authors, title = head[:cut], head[cut:].lstrip(". ")
    venue = rest[m.end() :].lstrip(" .")
    return "gbt7714", authors, title, venue, None, True


def _quoted(rest: str) -> _Read | None:
    """A quoted title (IEEE, Chicago, Harvard, MLA): authors before it, venue after."""
    m = _QUOTED_RE.search(rest)
    if not m or m.start() == 0:
        return None
    head = rest[: m.start()].rstrip()
    year = None
    y = _PAREN_YEAR_RE.search(head) or _BARE_YEAR_RE.search(head + " ")
    if y:
        year, head = int(y.group("y")), head[: y.start()]
    authors = head.rstrip(" ,.:")
    venue = rest[m.end() :].lstrip(" ,.")
    return "quoted", authors, m.group("t") or m.group("s"), venue, year, bool(authors)


def _initials_first(rest: str) -> _Read | None:
    """`A. Name and B. Name, Title, Venue, year.` (SIAM): initials-first names, then a comma
    (read before the author-year shape: SIAM's `12 (2020)` is a volume's year)."""
    names = _INITIALS_LIST_RE.match(rest[:_NAMES_SCAN])
    if not names:
        return None
    title, venue = _comma_title(rest[names.end() :])
    return "plain", names.group("names"), title, venue, None, title is not None


def _author_year(rest: str) -> _Read | None:
    """`Authors (2021). Title. Venue` or `Authors. 2021. Title. Venue` (the year after authors)."""
    m = _PAREN_YEAR_RE.search(rest) or _N_D_RE.search(rest)
    bare = _BARE_YEAR_RE.search(rest) or _ACM_N_D_RE.search(rest)
    if bare and (not m or bare.start() < m.start()):
        m = bare
    if not m or m.start() == 0 or not _looks_like_authors(rest[: m.start()]):
        return None
    body = rest[m.end() :]
    if not body.strip(" .,;"):
        return None  # `… In NeurIPS (2021).`: the year closes the string (ACM), read as plain
    year = int(m.group("y")) if "y" in m.groupdict() and m.group("y") else None
    title, venue = _title_and_venue(body)
    return "author_year", rest[: m.start()], title, venue, year, True


def _plain(rest: str) -> _Read:
    """`Authors. Title. Venue, year.`: sentences cut at stops that are not after an initial."""
    cut = _first_stop(rest)
    if cut is None:
        return "plain", "", None, rest, None, False
    title, venue = _title_and_venue(rest[cut:].lstrip(". "))
    return "plain", rest[:cut], title, venue, None, True


_NAMES_SCAN = 1000  # an author list is never longer; bounds the name pattern's work
# (an initial may be accented: `É. Moulines`, `İ. İ. Ceylan`)
_CAP = "A-Z\u00c0-\u00de\u0100-\u017f"
_INITIALS_NAME = (
    rf"[{_CAP}][a-z]?\.(?:[\s-]*[{_CAP}][a-z]?\.)*\s+(?:{_PARTICLE}\s+)*"
    r"[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*"
)
# SIAM prints a name it cannot abbreviate in full (`İsmail İlkan Ceylan`); after `and` it is
# still the list's last name, where a title cannot stand
_FULL_NAME = (
    r"[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*"
    r"(?:\s+[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*){1,3}"
)
# the list ends at a comma that no further name or `and` follows
_INITIALS_LIST_RE = re.compile(
    rf"^(?P<names>{_INITIALS_NAME}(?:(?:,\s+(?:and\s+)?|\s+and\s+){_INITIALS_NAME})*"
    rf"(?:,?\s+and\s+{_FULL_NAME})?"
    r"(?:,?\s+et\.?\s?al\.?)?),\s+"  # `…, M. Reynolds, et al., Flamingo: …`
    rf"(?!and\s|et\.?\s?al\b|others\b)(?!{_INITIALS_NAME}(?:,|\s+and\b|\.))"
    # nor a full name (`H. Aziz, Ágnes Cseh, …`): the list goes on in another form
    r"(?![A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*\s+[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*"
    r"(?:,|\s+and\b))(?=\S)"
)
_COMMA_RE = re.compile(r",\s+")
_ABBREVIATED_RE = re.compile(r"^(?:[A-Z][A-Za-z]*\s+){0,2}[A-Z][a-z]{0,6}\.(?:\s|$)")


def _comma_title(body: str) -> tuple[str | None, str]:
    """SIAM's `Title, in Venue, year` or `Title, Journal, 12 (2020), pp. 1–9`: the title runs
    to `, in`, or to the first comma before a part that opens like a venue or holds a number."""
    venue_at = _IN_VENUE_RE.search(body)
    if venue_at:
        return body[: venue_at.start()].strip() or None, body[venue_at.start() :].lstrip(" ,.")
    parts = _COMMA_RE.split(body)
    for k in range(1, len(parts)):
        part = parts[k]
        if _VENUE_START_RE.match(part) or _ABBREVIATED_RE.match(part) or re.search(r"\d", part):
            return ", ".join(parts[:k]).strip() or None, ", ".join(parts[k:])
    return _title_and_venue(body)


def _title_and_venue(body: str) -> tuple[str | None, str]:
    """The title and what follows it; a `?` or `!` ends the title unless a subtitle follows
    (four words or more, no digit, not opening like a venue: `Power up! Robust graphs.`)."""
    venue_at = _IN_VENUE_RE.search(body)
    ends = [
        (m.start(), m.end(), body[m.start()])
        for m in _TITLE_END_RE.finditer(body)
        if venue_at is None or m.start() < venue_at.start()
    ]
    if venue_at:
        ends.append((venue_at.start(), venue_at.start(), "in"))
    cue = _VENUE_CUE_RE.search(body)
    if cue and (not ends or ends[0][0] > cue.start()):
        # `Learning to rank Workshop on …, 2009`: no full stop before the venue; a cue whose
        # stretch to the next stop holds no comma or digit is a title's own words
        stretch = body[cue.start() : ends[0][0] if ends else len(body)]
        if re.search(r"[,\d]", stretch):
            return body[: cue.start()].strip(" ,") or None, body[cue.start() :].strip()
    for i, (start, end, mark) in enumerate(ends):
        if mark in "?!" and i + 1 < len(ends):
            following = body[end : ends[i + 1][0]].strip()
            subtitle = len(following.split()) >= 4 and not re.search(r"\d", following)
            if subtitle and not _VENUE_START_RE.match(following):
                continue
        if mark == "in":  # `…approach. in NeurIPS`, `…or not? in ICML`: the venue begins
            cut = start + 1 if body[start] in "?!" else start
            return body[:cut].strip() or None, body[start:].lstrip(" ,.?!")
        return body[: end if mark in "?!" else start].strip() or None, body[end:].strip()
    return (body.strip() or None), ""


_INITIAL_END_RE = re.compile(r"(?:^|[\s.,\-‐])(?:[A-Z]{1,3}|[A-Z][a-z]|Jr|Sr)$")
_NAME_NEXT_RE = re.compile(
    rf"^(?:(?:&|and)\s+)?(?:[A-Z]\.|(?:{_PARTICLE}\s)*(?:[a-z]{{1,2}}['’])?"
    r"[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*(?:,|\s+and\b|\s*&|\.\s|\.$|\s+[A-Z]\.|"
    r"(?:\s+[A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]*){1,2}(?:,|\.\s|\.$)))"
)
_STOP_RE = re.compile(r"\.\s+(?=\S)")
_ET_AL_NEXT_RE = re.compile(r"^et\.?\s?al\b")
_PARTICLES_NEXT_RE = re.compile(rf"^(?:{_PARTICLE}\s+){{0,2}}{_PARTICLE}\.(?:\s|$)")
_INITIAL_NEXT_RE = re.compile(r"^[A-Z\u00c0-\u00de\u0100-\u017f][a-z]?\.(?:[\s-]|$)")
# `& Family, I. I` (APA, Nature, Harvard): the name after the ampersand is the list's last
_AMPERSAND_DONE_RE = re.compile(
    r"&\s+[\w'’\-\u00c0-\u024f]+(?:\s+[\w'’\-\u00c0-\u024f]+){0,2},"
    r"(?:\s*[A-Z\u00c0-\u00de\u0100-\u017f][a-z]?\.?-?){1,4}$"
)
_VANCOUVER_LIST_RE = re.compile(
    r"(?:^|,\s*)[\w'’\-\u00c0-\u024f]{2,}\s+[A-Z]{1,3},\s*\S[^,]*\s[A-Z]{1,3}$"
)


def _first_stop(text: str) -> int | None:
    """Where an author list ends: the first `. ` not after an initial that a name follows."""
    for m in _STOP_RE.finditer(text):
        before, after = text[: m.start()], text[m.end() :]
        # `Jacob D. Abernethy`: a middle initial; but in a Vancouver list (`Wang J, Dai B.`)
        # initials end each name, so their full stop ends the list
        if _ET_AL_NEXT_RE.match(after) or _PARTICLES_NEXT_RE.match(after):
            # `Wang, J. et al. Title` (Nature), `Schaar, M. van der. Title` (a particle set
            # after the initials): both still belong to the names
            continue
        if _AMPERSAND_DONE_RE.search(before) and not _INITIAL_NEXT_RE.match(after):
            return m.start()  # `… & Schmid, U. Beneficial and harmful …`: the last name is done
        vancouver = _VANCOUVER_LIST_RE.search(before)
        if _INITIAL_END_RE.search(before) and _NAME_NEXT_RE.match(after) and not vancouver:
            continue
        if not before.strip():
            continue
        return m.start()
    return None


_AUTHORISH_RE = re.compile(r"^[\w\s.,;&'’\-‐…\u00c0-\u024f]+$")


def _looks_like_authors(part: str) -> bool:
    """A plausible author list: name characters only, not longer than a long list would be."""
    stripped = part.strip(" .,")
    return bool(stripped) and len(stripped) < 2000 and bool(_AUTHORISH_RE.match(stripped))


def _clean_title(title: str | None) -> str | None:
    if not title:
        return None
    t = title.strip().strip('“”"‘’ ').rstrip(",;:").strip()
    if "(" in t:
        t = _TITLE_TAIL_RE.sub("", t).strip() or t
    return t or None


# Vancouver for a web page or a report (PLOS, NLM): `Title; 2014. Available from: URL`
_TITLE_DATE_RE = re.compile(r"^(.*\S)\s*;\s*((?:1[5-9]|20)\d\d)[a-z]?$")


def _title_and_date(title: str | None) -> tuple[str | None, int | None]:
    """`title` without a trailing `; 2014`, and that year (`None` when there is none)."""
    m = _TITLE_DATE_RE.match(title or "")
    return (m.group(1), int(m.group(2))) if m else (title, None)


# Pages and issues: a range (`1911–1924`), a number after a colon (`25(9):1911`), an issue right
# after its volume (`368(1614)`); their numbers look like years (Vancouver's
# `2016;25(9):1911–1924.` ends in 1924, `2013;368(1614):20120314.` holds 1614).
# (possessive digits from a run's start: inside a long run of digits each start would rescan it)
_PAGES_RE = re.compile(r"(?::\s?)?(?<!\d)\d++\s?[–—-]\s?\d++|:\s?\d++|\d\(\d++\)")


def _last_year(text: str | None) -> int | None:
    """The last year of `text` outside its page numbers (any year when only pages hold one)."""
    years = _YEAR_RE.findall(_PAGES_RE.sub(" ", text or "")) or _YEAR_RE.findall(text or "")
    return int(years[-1]) if years else None
