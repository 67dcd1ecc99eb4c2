"""Which references the body of a document cites: numbered markers and author-year citations.

`citations(body)` reads the text before the references section: `[3]`, `[1, 4-6]`, `[2–3]`,
`[3]–[7]` (numbered styles), `(Smith, 2020)`, `(Smith and Lee 2020a; Chen et al., 2019)`,
`Smith et al. (2020)` (author-year), and the markers of Nature, AMA and Vancouver bodies: a
superscript `before1,2` (`Line.marks`, read from a PDF's layout or a Word/ODF run by
`superscripts`, or written `before¹˒²`, `ways^(2–4)`) and a bare number in parentheses
`shown (3)`, `(2–5)`; Nature's `ref. 23` and `refs 3–5` in the running text.
`mark_cited(rows, body, path)` then gives each row the place of its first citation
(`cited_at`, `paper.pdf p. 3` or `refs.docx ¶12`) or, when the body cites by that scheme but
never this reference, the warning `not cited in the text`. A body
that cites nothing in a scheme (a bare reference list) claims nothing: no row is marked.

Claiming a reference uncited accuses its author of padding, so numbered markers claim it only
when they are plainly the body's citations: bracketed ones name at least `_BRACKETED` of the
numbered references, or all of them together (superscripts, `(3)`) at least `_COVERED`. An
affiliation mark (`Smith¹`), an exponent, an interval `[0, 1]` or a list item `(1)` read as a
marker then only marks a reference cited, and a body whose real markers were missed (set in a
way not read) claims nothing. `(3)` after `Eq.`, `Fig.`,
`Table`, `Section`, … and one closing a line with a formula (an equation's number) is no
marker; a year `(2019)` has four digits and none has more than three. Likewise an author-year
reference is claimed uncited only when the body never names its first author (by the parsed
author or the string's first word): `As Zhou argued in 2018` or a citation set in a way not
read leaves it unclaimed. A citation may run on into the next line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from auditor.load.documents.lines import Line
from auditor.load.documents.superscripts import written_marks
from auditor.load.interface import ENTRY_COLUMNS, Rows

__all__ = ["NOT_CITED", "mark_cited"]

#: The warning of a reference the body never cites (when it cites others by the same scheme).
NOT_CITED = "not cited in the text"

_NUMBERED_RE = re.compile(r"\[(\d{1,4}(?:\s*[-–,;]\s*\d{1,4}){0,30})\]")
# IEEE sets a run of references as `[3]–[7]`, which TeX may break after the dash
_BRACKET_RANGE_RE = re.compile(r"\[(\d{1,4})\]\s*[-–]\s*\[(\d{1,4})\]")
# Nature's own words for a citation in the running text: `ref. 23`, `refs 3–5`, `Refs. 2, 7 and 9`
_NAMED_RE = re.compile(
    r"\b[Rr]ef(?:erence)?s?\.?\s+(\d{1,4}(?:\s*(?:[-–,;]|and)\s*\d{1,4})*)(?!\s*[.,]?\d)"
)
_BARE_RE = re.compile(r"(?<![\w(])\((\d{1,3}(?:\s*[-–,;]\s*\d{1,3}){0,30})\)(?![\w(])")
# a bare `(3)` after these words numbers an equation, a figure, a part of the text (only
# words that nothing else precedes: a citation missed here could be claimed uncited)
_NOT_CITING_RE = re.compile(
    r"(?:\b(?:eqs?|equations?|figs?|figures?|tables?|tab|sections?|secs?|chapters?|ch|"
    r"appendix|steps?|pages?|pp?|lines?|theorems?|lemmas?|propositions?|corollary|"
    r"definitions?|algorithms?)\.?|[=<>≤≥≈])\s*(?:\(\d{1,3}\)\s*(?:,|and|or|to|[-–])\s*)*$",
    re.IGNORECASE,
)
_FORMULA_RE = re.compile(r"[=<>≤≥≈∑∫±×·^]")
#: The weaker numbered markers claim a reference uncited only when they name this share of them
#: (a paper cites nearly all it lists; markers read only in part name far fewer).
_COVERED = 0.8
#: Bracketed numbers claim it when they name this share (a stray interval `[0, 1]` names one).
_BRACKETED = 0.5
_PAREN_RE = re.compile(r"\(([^()]{3,400})\)")
# A surname starts at a word's first capital and runs to the word's end (what follows it is a
# space or a comma, never a word character), so a start that fails fails at every later capital
# of the same word. The word's lower-case head is passed over possessively, and a word whose
# name fails is taken whole by the last alternative (no group 1): trying each capital of a long
# word in turn would cost the square of the word.
_SURNAME = r"(?:(?![A-Z\u00c0-\u024f])[\w'’\-])*+([A-Z\u00c0-\u024f][\w'’\-\u00c0-\u024f]++)"
_CO_AUTHOR = r"(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’\-]+)?"
_WORD = r"|[\w'’\-\u00c0-\u024f]++"
_AUTHOR_YEAR_RE = re.compile(_SURNAME + _CO_AUTHOR + r",?\s+((?:1[5-9]|20)\d\d[a-z]?)\b" + _WORD)
_NARRATIVE_RE = re.compile(_SURNAME + _CO_AUTHOR + r"\s+\(((?:1[5-9]|20)\d\d[a-z]?)\)" + _WORD)
# (a space run is taken only from its start: tried inside a long run it costs the run's square;
# a match's last `\s*` takes a whole run, so the next one starts at a separator, not in a run)
_LIST_SEP_RE = re.compile(r"(?:(?<!\s)\s*)?[,;]\s*")
_RANGE_SEP_RE = re.compile(r"(?:(?<!\s)\s*)?[-–—]\s*")
# a year stands alone: `0208066` (an arXiv id) holds none
_YEAR_RE = re.compile(r"(?<![\d/.])((?:1[5-9]|20)\d\d[a-z]?)(?!\d)")
_WORD_RE = re.compile(r"[^\W\d_]+")
# (`match`ed at a string's start; read from a run's start only, a scan stays linear too)
_FIRST_WORD_RE = re.compile(r"(?<!\W)\W*+(?:\d{1,4}[.)\]]?\s*)?([^\W\d_][\w'’\-]*)")


def _numbers(marker: str) -> list[str]:
    out: list[str] = []
    for part in _LIST_SEP_RE.split(marker):
        ends = _RANGE_SEP_RE.split(part)
        if len(ends) == 2 and ends[0].isdigit() and ends[1].isdigit():
            a, b = int(ends[0]), int(ends[1])
            out.extend(str(n) for n in range(a, min(b, a + 200) + 1))
        elif part.isdigit():
            out.append(part)
    return out


def _where(path: str, line: Line) -> str:
    return f"{path} p. {line.page}" if line.page is not None else f"{path}:{line.number}"


@dataclass
class Citations:
    """What a body cites, each key lowercased, with the place it is first cited."""

    numbers: dict[str, str] = field(default_factory=dict)
    """Every numbered marker: `[n]`, superscript and `(n)` alike."""
    bracketed: set[str] = field(default_factory=set)
    """The numbers cited in brackets, which little but a citation is set in (an interval
    `[0, 1]` is)."""
    pairs: dict[tuple[str, str], str] = field(default_factory=dict)
    """`(surname, year)` of each author-year citation."""
    doubted: set[str] = field(default_factory=set)
    """Numbers raised where no marker stands (`10⁵`, a footnote's mark): never claimed
    uncited, as they may be markers read wrong."""
    words: set[str] = field(default_factory=set)
    """Every word of the body, lowercased: a surname among them may be cited in a way the
    author-year patterns do not read, so its reference is never claimed uncited."""

    def cite(self, numbers: list[str], where: str) -> None:
        """Note `numbers` cited at `where` unless they were cited before."""
        for n in numbers:
            self.numbers.setdefault(n, where)


def citations(body: Sequence[Line], path: str) -> Citations:
    """The citations of `body` (the lines before the references section of file `path`)."""
    out = Citations()
    for i, line in enumerate(body):
        where = _where(path, line)
        # a citation may run on into the next line (`(25,` / `26)`, `Chung and Morris` /
        # `(1978)`): each line is read with the head of the next, keeping what starts in it
        ahead = body[i + 1].text[:80] if i + 1 < len(body) else ""
        joined, end = f"{line.text} {ahead}", len(line.text)
        for m in _NUMBERED_RE.finditer(joined):
            if m.start() < end:
                out.bracketed.update(_numbers(m.group(1)))
                out.cite(_numbers(m.group(1)), where)
        for m in _BRACKET_RANGE_RE.finditer(joined):
            if m.start() < end:
                out.bracketed.update(_numbers(f"{m.group(1)}-{m.group(2)}"))
                out.cite(_numbers(f"{m.group(1)}-{m.group(2)}"), where)
        for m in _NAMED_RE.finditer(joined):
            if m.start() < end:
                out.cite(_numbers(m.group(1).replace("and", ",")), where)
        for marker in (*line.marks, *written_marks(line.text), *_bare(joined, end)):
            if marker.startswith("?"):
                out.doubted.update(_numbers(marker[1:]))
            else:
                out.cite(_numbers(marker), where)
        out.words.update(_WORD_RE.findall(line.text.lower()))
        for m in _PAREN_RE.finditer(joined):
            for a in _AUTHOR_YEAR_RE.finditer(m.group(1)):
                if a.group(1) and m.start(1) + a.start() < end:
                    out.pairs.setdefault((a.group(1).lower(), a.group(2)), where)
        for a in _NARRATIVE_RE.finditer(joined):
            if a.group(1) and a.start() < end:
                out.pairs.setdefault((a.group(1).lower(), a.group(2)), where)
    return out


def _bare(text: str, end: int) -> list[str]:
    """The bare `(3)`, `(1,2)`, `(2–5)` markers starting before `end` in `text` (a line and
    the head of the next: see the module docstring)."""
    out = []
    for m in _BARE_RE.finditer(text):
        if m.start() >= end or _NOT_CITING_RE.search(text[: m.start()]):
            continue
        closes_line = m.end() <= end and not text[m.end() : end].strip(" .")
        if closes_line and _FORMULA_RE.search(text[: m.start()]):
            continue  # an equation's number
        out.append(m.group(1))
    return out


def _mentioned(name: str, words: set[str]) -> bool:
    """Whether a word of `name` (two letters or more: `Wu`, `Li`) is among `words`."""
    return any(w in words for w in _WORD_RE.findall(name) if len(w) > 1)


def _first_word(text: str) -> str:
    """The first word of a reference string after its label, lowercased (`""` if none)."""
    m = _FIRST_WORD_RE.match(text)
    return m.group(1).lower() if m else ""


def _first_surname(authors: object) -> str:
    if not isinstance(authors, list) or not authors:
        return ""
    first = str(authors[0])
    family = first.split(",", 1)[0] if "," in first else (first.split() or [""])[-1]
    return family.strip().lower()


def mark_cited(rows: Rows, body: Sequence[Line], path: str) -> None:
    """Fill `cited_at` or add `NOT_CITED` to each row in place (see the module docstring)."""
    found = citations(body, path)
    numbers, pairs = found.numbers, found.pairs
    if not numbers and not pairs:
        return
    at = {c: ENTRY_COLUMNS.index(c) for c in ("source_label", "authors", "cited_at", "warnings")}
    text_at = ENTRY_COLUMNS.index("reference_text")
    labels = [str(row[at["source_label"]] or "") for row in rows.rows]
    numbered = [label for label in labels if label.isdigit()]
    named = sum(1 for label in numbered if label in numbers)
    in_brackets = sum(1 for label in numbered if label in found.bracketed)
    claims = (
        in_brackets >= _BRACKETED * len(numbered) or named >= _COVERED * len(numbered)
    ) and named > 0
    out = []
    for row in rows.rows:
        values = list(row)
        label = str(values[at["source_label"]] or "")
        where: str | None = None
        scheme = False
        if label.isdigit() and numbers:
            scheme, where = claims and label not in found.doubted, numbers.get(label)
        elif pairs:
            text = str(values[text_at] or "")
            year = _YEAR_RE.search(label) or _YEAR_RE.search(text)
            # the parsed first author, and the string's first word: a misread author field
            # (`Stahl B.: deepSIP: …`) still starts with the surname
            names = [n for n in (_first_surname(values[at["authors"]]), _first_word(text)) if n]
            if year and names:
                cited = [pairs[(n, year.group(1))] for n in names if (n, year.group(1)) in pairs]
                where = cited[0] if cited else None
                scheme = not any(_mentioned(n, found.words) for n in names)
        if where is not None:
            values[at["cited_at"]] = where
        elif scheme:
            values[at["warnings"]] = [*(values[at["warnings"]] or []), NOT_CITED]
        out.append(tuple(values))
    rows.rows = out
