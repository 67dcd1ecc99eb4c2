"""BibTeX loader: every entry one row, broken ones included; several files are one database.

`auditor.load.bibtex_blocks` splits the text into entries, `@string` macros and failed blocks
(its own splitter: bibtexparser's was most of a load's time). This module resolves the macros
(`auditor.load.bibtex_macros`: `#` concatenation, the month macros, enclosing braces/quotes
removed), applies `crossref` inheritance and decodes LaTeX, in one pass over the fields each row
uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from auditor.load.bibtex_blocks import Entry, Failed, Macro, split_blocks
from auditor.load.bibtex_macros import MAX_VALUE, ExpansionError, Resolver, enclosed
from auditor.load.ids import arxiv_in_corr_volume, ids_in_text, ids_in_url, pmid_shape_ok
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.latex import latex_to_unicode, plain_value
from auditor.load.names import split_bibtex_authors

__all__ = ["MAX_CROSSREF_DEPTH", "MAX_VALUE", "BibtexLoader", "ExpansionError"]

_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_HEAD_RE = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()=]*)")
_USED = frozenset(
    {
        "title", "author", "editor", "journal", "journaltitle", "booktitle", "series", "url",
        "ee", "doi", "pmid", "eprint", "archiveprefix", "eprinttype", "arxiv", "arxivid",
        "note", "howpublished", "year", "date", "volume", "number", "issue", "pages", "issn",
        "language", "subtitle", "publisher", "institution", "school",
    }
)  # fmt: skip
#: The longest `crossref` chain followed (biber follows chains; BibTeX only one level).
MAX_CROSSREF_DEPTH = 8
#: Fields a `crossref` child never takes from its parent: the parent's identifiers name the
#: parent (a proceedings volume, a book), not the child.
_NOT_INHERITED = frozenset(
    {
        "crossref", "ids", "doi", "url", "ee", "pmid", "eprint", "eprinttype", "archiveprefix",
        "arxiv", "arxivid", "note", "howpublished", "annote", "annotation", "addendum",
        "comment", "biburl", "bibsource", "isbn", "key",
    }
)  # fmt: skip
_NOTE_FIELDS = ("note", "howpublished", "journal")


def _publisher(fields: dict[str, str]) -> str | None:
    """Who issued the work: `publisher`, else `institution` (a report), else `school` (a thesis)."""
    value = fields.get("publisher") or fields.get("institution") or fields.get("school")
    return latex_to_unicode(value) if value else None


def _unwrap(raw: str) -> str:
    """A raw key value such as `{proc1810}` or `"proc1810"` as a lower-case key."""
    raw = str(raw).strip()
    return (enclosed(raw) or raw).strip().lower()


def _identifiers(
    f: dict[str, str], url: str | None, warnings: list[str]
) -> tuple[str | None, str | None, str | None]:
    """`(doi, pmid, arxiv)` candidates of one entry, from the fields that carry identifiers.

    Fields first (`doi`, `pmid`, `eprint` with its prefix, `arxiv`), then addresses (`url`,
    DBLP's `ee`), CoRR's `volume = {abs/…}`, then notes (`note`, `howpublished`; `journal` for
    Google Scholar's `arXiv preprint arXiv:…`). Commentary (`annote`, `annotation`, `abstract`,
    `review`, `comment`) is never read: a DOI quoted there is someone else's paper.
    """
    doi = plain_value(f["doi"]) if f.get("doi") else None
    if doi and not doi.lstrip().startswith("10.") and "doi.org" not in doi.lower():
        hit = ids_in_url(doi)  # `doi = {http://doi.acm.org/10.1145/…}`
        doi = hit[1] if hit and hit[0] == "doi" else doi
    pmid = plain_value(f["pmid"]) if f.get("pmid") else None
    if pmid and not pmid_shape_ok(pmid):
        warnings.append(f"pmid {pmid!r} is not 1-8 digits")
    arxiv = None
    eprint = plain_value(f["eprint"]) if f.get("eprint") else None
    prefix = (f.get("archiveprefix") or f.get("eprinttype") or "").strip().lower()
    if eprint and prefix in ("pubmed", "pmid"):  # biblatex `eprinttype = {pubmed}`
        pmid = pmid or eprint
    elif eprint and (prefix == "doi" or eprint.startswith("10.")):
        doi = doi or eprint
    elif eprint and prefix in ("", "arxiv"):
        arxiv = eprint
    if not arxiv and (f.get("arxiv") or f.get("arxivid")):
        arxiv = plain_value(f.get("arxiv") or f.get("arxivid") or "")
    for address in (url, plain_value(f["ee"]) if f.get("ee") else None):
        if address and not (doi and pmid and arxiv):
            hit = ids_in_url(address)
            if hit:
                kind, value = hit
                doi = value if kind == "doi" and not doi else doi
                pmid = value if kind == "pmid" and not pmid else pmid
                arxiv = value if kind == "arxiv" and not arxiv else arxiv
    if not arxiv and f.get("volume", "").lstrip().startswith("abs/"):
        arxiv = arxiv_in_corr_volume(plain_value(f["volume"]))
    for name in _NOTE_FIELDS:
        text = f.get(name)
        if doi and pmid and arxiv:
            break
        if text and ("10." in text or "pmid" in text.lower() or "arxiv" in text.lower()):
            found = ids_in_text(plain_value(text))
            if name != "journal":
                doi = doi or found.get("doi")
                pmid = pmid or found.get("pmid")
            arxiv = arxiv or found.get("arxiv")
    return doi, pmid, arxiv


def _duplicates(
    key: str, where_by_key: dict[str, list[tuple[str, int]]], path: str, line: int
) -> list[str]:
    """The duplicate-key warning of one entry, naming at most three other places."""
    places = where_by_key[key.lower()]
    if len(places) < 2:
        return []
    others = []  # the first three other places only: 20,000 copies of a key stay linear
    for p, n in places:
        if (p, n) != (path, line):
            others.append(str(n) if p == path else f"{p}:{n}")
            if len(others) == 3:
                break
    more = len(places) - 1 - len(others)
    shown = ", ".join(others) + (f" and {more:,} more" if more > 0 else "")
    return [f"duplicate key {key!r} (also on line {shown})"]


def _year(text: str | None) -> int | None:
    if not text:
        return None
    m = _YEAR_RE.search(text)
    return int(m.group(1)) if m else None


#: A `%` line after a newline (a literal `\n` first: much faster to search for than `^` with
#: re.M); the first line of a file is checked on its own.
_COMMENT_LINE_RE = re.compile(r"\n([ \t]*%[^\n]*)")
# (`match`ed at 0; the look-behind keeps a scan inside a long run of space linear)
_FIRST_COMMENT_RE = re.compile(r"(?<![ \t])[ \t]*%[^\n]*")


def _drop_comment_lines(text: str) -> str:
    """Blank every line that starts with `%` outside a field value, keeping the line count.

    biber and JabRef read such a line as a comment, so `%@article{…}` is commented out, and so is
    a `%` line between two fields (bibtexparser would glue it to the next field's name). BibTeX
    itself has no comment character outside entries: it skips any text up to the next `@`, so
    it would still read that entry. Inside a braced value (depth > 1) the line is kept as text.
    """
    if "%" not in text:
        return text
    first = _FIRST_COMMENT_RE.match(text)
    lines = ([(0, first.end())] if first else []) + [
        m.span(1) for m in _COMMENT_LINE_RE.finditer(text)
    ]
    parts: list[str] = []
    depth, pos = 0, 0
    for start, end in lines:
        depth = max(depth + text.count("{", pos, start) - text.count("}", pos, start), 0)
        parts.append(text[pos:start])
        if depth > 1:
            parts.append(text[start:end])
            depth = max(depth + text.count("{", start, end) - text.count("}", start, end), 0)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


_Parsed = tuple[Entry | Failed, dict[str, str] | None, str | None]


def _entries(blocks: list[Entry | Macro | Failed]) -> list[_Parsed]:
    """`(block, fields or None for a failed block, duplicated field names)` of each entry."""
    out: list[_Parsed] = []
    for block in blocks:
        if type(block) is Entry:
            # a field given twice: the first one wins, as in BibTeX, and the row is flagged
            fields = {k.lower(): v for k, v in reversed(block.fields)}
            dup = ", ".join(sorted(block.duplicates)) if block.duplicates else None
            out.append((block, fields, dup))
        elif type(block) is Failed:
            out.append((block, None, None))
    return out


class BibtexLoader(Loader):
    """Loads `.bib` files; several files in one run are one database."""

    format: ClassVar[str] = "bibtex"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per `@entry` (failed and duplicate ones included), in file order."""
        return self.load_all([(text, path)])[0]

    def load_all(self, files: Sequence[tuple[str, str]]) -> list[tuple[Rows, list[Problem]]]:
        """Each file's rows, with the files read as one BibTeX database in the order given.

        As in BibTeX and biber, `@string` macros of a file are seen by the files after it, and a
        `crossref` target may sit in any file; a key used twice anywhere is a duplicate.
        """
        parsed = [(path, split_blocks(_drop_comment_lines(text))) for text, path in files]
        by_file = [(path, blocks, _entries(blocks)) for path, blocks in parsed]
        fields_by_key: dict[str, dict[str, str]] = {}
        where_by_key: dict[str, list[tuple[str, int]]] = {}
        for path, _blocks, entries in by_file:
            for block, fields, _dup in entries:
                if fields is not None:
                    key = block.key.lower()  # type: ignore[union-attr]
                    fields_by_key.setdefault(key, fields)
                    where_by_key.setdefault(key, []).append((path, block.line))
        resolver = Resolver()
        results = []
        for path, blocks, entries in by_file:
            for b in blocks:
                if type(b) is Macro:
                    resolver.define(b.name, b.value, f"line {b.line}")
            resolver.undefined = set()
            results.append(self._file(path, entries, resolver, fields_by_key, where_by_key))
        return results

    def _file(
        self,
        path: str,
        entries: list[_Parsed],
        resolver: Resolver,
        fields_by_key: dict[str, dict[str, str]],
        where_by_key: dict[str, list[tuple[str, int]]],
    ) -> tuple[Rows, list[Problem]]:
        rows, problems = Rows(), list[Problem]()
        value = resolver.value
        for block, fields, dup in entries:
            line = block.line
            if fields is None or type(block) is not Entry:
                self._failed(rows, problems, path, block)  # type: ignore[arg-type]
                continue
            warnings = _duplicates(block.key, where_by_key, path, line)
            if dup:
                warnings.append(f"field given more than once: {dup}")
            if "crossref" in fields:
                fields = self._inherit(fields, fields_by_key, warnings)
            # only the fields a row uses are resolved and decoded (abstracts, files, keywords
            # are skipped): most of the per-entry cost saved on real exports
            try:
                used = {k: value(v) for k, v in fields.items() if k in _USED}
            except ExpansionError as exc:
                message = f"entry {block.key!r}: {exc}"
                rows.add(
                    source_line=line,
                    key=block.key,
                    entry_type=block.entry_type,
                    parse_error=message,
                )
                problems.append(Problem(path, line, message, "error", "macro expansion"))
                continue
            self._entry(rows, block, used, line, warnings)
            if warnings:
                problems.extend(Problem(path, line, w, "warning") for w in warnings)
        if resolver.undefined:
            names = ", ".join(sorted(resolver.undefined)[:10])
            problems.append(Problem(path, None, f"undefined @string macros: {names}", "warning"))
        return rows, problems

    @staticmethod
    def _inherit(
        fields: dict[str, str], by_key: dict[str, dict[str, str]], warnings: list[str]
    ) -> dict[str, str]:
        """BibTeX `crossref`: missing fields come from the parent (its title as our container),
        except the parent's identifiers and notes (`_NOT_INHERITED`)."""
        merged, seen = dict(fields), set[str]()
        parent_key = _unwrap(fields.get("crossref", ""))
        while parent_key and parent_key not in seen:
            if len(seen) == MAX_CROSSREF_DEPTH:
                warnings.append(f"crossref chain longer than {MAX_CROSSREF_DEPTH}: not followed")
                break
            seen.add(parent_key)
            parent = by_key.get(parent_key)
            if parent is None:
                warnings.append(f"crossref to a missing entry {parent_key!r}")
                break
            for k, v in parent.items():
                if k == "title":
                    merged.setdefault("booktitle", v)
                elif k == "subtitle":  # biber's inheritance: the parent's is `booksubtitle`
                    merged.setdefault("booksubtitle", v)
                elif k not in _NOT_INHERITED:
                    merged.setdefault(k, v)
            parent_key = _unwrap(parent.get("crossref", ""))
        return merged

    @staticmethod
    def _failed(rows: Rows, problems: list[Problem], path: str, block: Failed) -> None:
        head = _HEAD_RE.match(block.raw.lstrip())
        message = f"unparseable entry: {block.reason.strip()}"
        line = block.line
        rows.add(
            source_line=line,
            key=(head.group(2) or None) if head else None,
            entry_type=head.group(1).lower() if head else None,
            parse_error=message,
        )
        problems.append(Problem(path, line, message, "error"))

    @staticmethod
    def _entry(rows: Rows, block: Entry, f: dict[str, str], line: int, warnings: list[str]) -> None:
        names = split_bibtex_authors(f.get("author") or f.get("editor") or "")
        if names.comma_names is not None:
            warnings.append(
                f"author_list_commas: the author field separates names with commas; read as "
                f"{len(names.comma_names)} names under auditor/v2, as BibTeX reads it under v1"
            )
        title = latex_to_unicode(f["title"]) if "title" in f else None
        written = None
        if title and f.get("subtitle"):
            # biblatex prints `title`, `\subtitlepunct`, `subtitle`: the work's whole title
            written, title = title, f"{title}: {latex_to_unicode(f['subtitle'])}"
        container = (
            f.get("journal") or f.get("journaltitle") or f.get("booktitle") or f.get("series")
        )
        url = plain_value(f["url"]) if "url" in f else None
        doi, pmid, arxiv = _identifiers(f, url, warnings)
        year_text = f.get("year") or f.get("date")
        year = _year(year_text)
        if year_text and year is None:
            warnings.append(f"year {year_text!r} is not a year")
        rows.add(
            source_line=line,
            key=block.key,
            entry_type=block.entry_type,
            doi=doi,
            pmid=pmid,
            arxiv=arxiv,
            title=title,
            authors=names.authors,
            authors_et_al=names.et_al,
            author_names=names.parsed or None,
            year=year,
            container_title=latex_to_unicode(container) if container else None,
            volume=plain_value(f["volume"]) if "volume" in f else None,
            issue=plain_value(f.get("number") or f.get("issue") or "") or None,
            pages=latex_to_unicode(f["pages"]).replace("–", "-") if "pages" in f else None,
            issn=plain_value(f["issn"]) if "issn" in f else None,
            language=latex_to_unicode(f["language"]) if "language" in f else None,
            url=url,
            warnings=warnings,
            title_as_written=written,
            howpublished=latex_to_unicode(f["howpublished"]) if "howpublished" in f else None,
            note=latex_to_unicode(f["note"]) if "note" in f else None,
            publisher=_publisher(f),
        )
