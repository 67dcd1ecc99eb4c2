"""CSL-JSON loader: a JSON array of CSL items, as Zotero, citation-js, manubot and pandoc write.

Also read: one CSL item on its own (what doi.org content negotiation answers) and Zotero's API
shape `{"items": [...]}`. Each item is decoded on its own (`json.JSONDecoder.raw_decode`), so
every row knows the line its item starts on, and an item that is not valid JSON costs that item
only: it becomes a row with `parse_error`, and reading goes on at the next item that starts at
the same indentation (a compact one-line file cannot be resynchronised: the rest is one error).
The standard `json` module is the right tool here (no entities, no code); nesting deeper than
Python's recursion limit is caught and named, never a traceback.

Fields: `citation-key` else `id` (key), `type`, `DOI`, `PMID`, `title` (CSL rich-text tags such
as `<i>`, `<sup>` removed), `author` (else `editor`: `family`/`given` with particles and
suffix, or `literal`), `issued` (`date-parts`, `raw` or `literal`; else `published-print`,
`published-online`), `container-title` (else `collection-title`), `volume`, `issue`, `page`,
`ISSN`, `language`, `URL`.
Identifiers also come from `URL` (doi.org, arXiv, PubMed and publisher addresses), `note`
(Zotero's "Extra": `PMID: …`, `arXiv: …`) and an arXiv `number`; never from `abstract`.
Crossref's CSL writes `title` and `container-title` as lists: the first value is taken.

Zotero's own JSON (Better BibTeX's export, `{"config": …, "items": [{"itemType": …}]}`) is read
too: an item with `itemType` or `creators` has its Zotero names translated to CSL's first
(`creators` → `author`/`editor`, `date` → `issued`, `publicationTitle` and the other
`…Title`s → `container-title`, `pages`, `url`, `extra` → `note`, `citationKey`); its `notes`
(commentary) are never searched.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from auditor.load.ids import ids_in_text, ids_in_url
from auditor.load.interface import Loader, Problem, Rows
from auditor.load.names import clean_author_list
from auditor.load.tagged import year_in
from auditor.names import ParsedName

__all__ = ["CslJsonLoader", "looks_like_csl"]

_DECODER = json.JSONDecoder()
_WS_RE = re.compile(r"[ \t\n\r]*")
_HEAD_RE = re.compile(r"\A[\ufeff \t\r\n]*[\[{]")
_CSL_KEY_RE = re.compile(
    r'"(?:issued|container-title|citation-key|author|title|DOI|type)"\s*:', re.IGNORECASE
)
#: CSL's rich-text markup (the CSL-JSON spec's HTML-like subset), never part of a title.
_CSL_KEYS = frozenset(
    {"issued", "container-title", "citation-key", "author", "title", "DOI", "type"}
)
_MARKUP_RE = re.compile(r"</?(?:i|b|sup|sub|sc|span)(?:\s[^<>]{0,200})?>", re.IGNORECASE)
_ITEMS_RE = re.compile(r'"items"\s*:\s*\[')


def looks_like_csl(head: str) -> bool:
    """Whether `head` (the start of a file) is a JSON array or object with CSL keys in it."""
    return bool(_HEAD_RE.match(head)) and bool(_CSL_KEY_RE.search(head))


def _text(value: Any) -> str | None:
    """A CSL value as one line of text: strings, numbers, the first of a list; else `None`."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return " ".join(value.split()) or None
    if isinstance(value, list):
        return next((t for t in map(_text, value) if t), None)
    return None


def _name(person: Any) -> str | None:
    """`family, suffix, given` (particles with their part), a `literal`, or `None`."""
    if isinstance(person, str):
        return _text(person)
    if not isinstance(person, dict):
        return None
    literal = _text(person.get("literal"))
    if literal:
        return literal
    family = " ".join(
        t for t in (_text(person.get("non-dropping-particle")), _text(person.get("family"))) if t
    )
    given = " ".join(
        t for t in (_text(person.get("given")), _text(person.get("dropping-particle"))) if t
    )
    suffix = _text(person.get("suffix"))
    if not family:
        return given or None
    return ", ".join(p for p in (family, suffix, given) if p)


def _parsed(person: Any) -> dict[str, str | None] | None:
    """CSL's own structure of one person (`tables.AUTHOR_NAME`); a `literal` is one family name."""
    if not isinstance(person, dict):
        return None
    literal = _text(person.get("literal"))
    if literal:
        return ParsedName(literal).as_row()
    family = _text(person.get("family"))
    if not family:
        return None
    particles = [_text(person.get(k)) for k in ("non-dropping-particle", "dropping-particle")]
    return ParsedName(
        family,
        _text(person.get("given")),
        " ".join(p for p in particles if p) or None,
        _text(person.get("suffix")),
    ).as_row()


def _people(item: dict[str, Any]) -> tuple[list[str], list[dict[str, str | None] | None]]:
    """`(names as one string each, their CSL structure)` of the authors, else the editors."""
    for role in ("author", "editor"):
        value = item.get(role)
        people = value if isinstance(value, list) else [value] if value else []
        named = [(n, _parsed(p)) for p in people if (n := _name(p))]
        if named:
            return [n for n, _ in named], [p for _, p in named]
    return [], []


def _year(date: Any) -> tuple[int | None, bool]:
    """`(year, present)`: the year of a CSL date, and whether the date said anything at all."""
    if isinstance(date, dict):
        parts = date.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = _text(parts[0][0])
            if year:
                return year_in(year), True
        for key in ("raw", "literal", "season"):
            raw = _text(date.get(key))
            if raw:
                return year_in(raw), True
        return None, False
    raw = _text(date)
    return (year_in(raw), True) if raw else (None, False)


def _title(value: Any) -> str | None:
    text = _text(value)
    return _text(_MARKUP_RE.sub("", text)) if text and "<" in text else text


class CslJsonLoader(Loader):
    """Loads CSL-JSON (`.json`): one row per CSL item, in file order."""

    format: ClassVar[str] = "csl_json"

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """One row per item; an unreadable item or file is a row with `parse_error`."""
        rows, problems = Rows(), list[Problem]()
        for line, item, error in _items(text.lstrip("\ufeff")):
            if error is not None:
                rows.add(source_line=line, parse_error=error)
                problems.append(Problem(path, line, error, "error"))
                continue
            warnings: list[str] = []
            if not isinstance(item, dict):
                message = f"CSL item is a JSON {type(item).__name__}, not an object"
                rows.add(source_line=line, parse_error=message)
                problems.append(Problem(path, line, message, "error"))
                continue
            _row(rows, item, line, warnings)
            problems.extend(Problem(path, line, w, "warning") for w in warnings)
        return rows, problems


_ZOTERO_CONTAINERS = (
    "publicationTitle", "bookTitle", "proceedingsTitle", "encyclopediaTitle", "dictionaryTitle",
    "websiteTitle", "blogTitle", "forumTitle", "programTitle", "conferenceName",
)  # fmt: skip
_ZOTERO_SAME = ("title", "volume", "issue", "DOI", "ISSN", "language", "PMID")


def _from_zotero(item: dict[str, Any]) -> dict[str, Any]:
    """A Zotero item (`itemType`, `creators`, …) as the CSL item it stands for."""
    out: dict[str, Any] = {k: item[k] for k in _ZOTERO_SAME if k in item}
    out["type"] = item.get("itemType")
    creators = [c for c in item.get("creators") or [] if isinstance(c, dict)]
    for role in ("author", "editor"):
        people = [c for c in creators if c.get("creatorType", "author") == role]
        out[role] = [
            {"literal": c["name"]} if c.get("name") else
            {"family": c.get("lastName"), "given": c.get("firstName")}
            for c in people
        ]  # fmt: skip
    if item.get("date"):
        out["issued"] = {"raw": item["date"]}
    out["container-title"] = next((item[k] for k in _ZOTERO_CONTAINERS if item.get(k)), None)
    out["page"] = item.get("pages")
    out["URL"] = item.get("url")
    out["note"] = item.get("extra")
    out["citation-key"] = item.get("citationKey") or item.get("citekey")
    out["id"] = item.get("key")
    out["number"], out["publisher"] = item.get("archiveID"), item.get("repository")
    return out


def _found_ids(item: dict[str, Any], url: str | None) -> dict[str, str]:
    """Identifiers an item names outside its `DOI`/`PMID`: in its URL, its note, and the
    `number` of an arXiv item (id type: value, the first place winning)."""
    found: dict[str, str] = {}
    if url:
        hit = ids_in_url(url)
        if hit and (hit[0] != "doi" or "10." in hit[1]):  # a shortDOI URL is not a DOI
            found[hit[0]] = hit[1]
    for kind, value in ids_in_text(_text(item.get("note")) or "").items():
        found.setdefault(kind, value)
    number = _text(item.get("number"))
    source = " ".join(
        filter(None, map(_text, map(item.get, ("publisher", "archive", "container-title"))))
    )
    if number and "arxiv" in source.lower():
        arxiv = ids_in_text("arXiv:" + number.removeprefix("arXiv:").strip()).get("arxiv")
        if arxiv:
            found.setdefault("arxiv", arxiv)
    return found


def _shape_warnings(item: dict[str, Any], usable: bool) -> list[str]:
    """Warnings about an item not shaped like CSL: a references table's column names, or
    (`usable` false) none of the fields a check needs."""
    out = []
    table_names = [k for k in ("authors", "year", "doi", "journal", "pmid") if k in item]
    if table_names:  # a references table saved as a JSON array: CSL names differ
        names = ", ".join(map(repr, table_names))
        out.append(
            f"not CSL names: {names} ignored (CSL writes `author`, `issued`, `DOI`, "
            "`container-title`, `PMID`); save a references table as JSON Lines (.jsonl)"
        )
    if not usable:
        out.append("item has no CSL title, author, issued date or DOI")
    return out


def _row(rows: Rows, item: dict[str, Any], line: int, warnings: list[str]) -> None:
    if "itemType" in item or "creators" in item:
        item = _from_zotero(item)
    authors, parsed, et_al = [], [], False
    for name, structure in zip(*_people(item), strict=True):
        kept, marker = clean_author_list([name])  # one name at a time: the parse stays aligned
        et_al = et_al or marker
        if kept:
            authors.append(kept[0])
            parsed.append(structure)
    year, dated = None, False
    for key in ("issued", "published-print", "published-online"):
        year, dated = _year(item.get(key))
        if dated:
            break
    if dated and year is None:
        warnings.append(f"issued date {json.dumps(item.get('issued'))[:60]} holds no year")
    url = _text(item.get("URL"))
    found = _found_ids(item, url)
    title = _title(item.get("title"))
    warnings.extend(_shape_warnings(item, bool(title or authors or dated or item.get("DOI"))))
    rows.add(
        source_line=line,
        key=_text(item.get("citation-key")) or _text(item.get("id")),
        entry_type=_text(item.get("type")),
        doi=_text(item.get("DOI")) or found.get("doi"),
        pmid=_text(item.get("PMID")) or found.get("pmid"),
        arxiv=found.get("arxiv"),
        title=title,
        authors=authors,
        authors_et_al=et_al,
        author_names=parsed or None,
        year=year,
        container_title=_title(item.get("container-title"))
        or _title(item.get("container-title-short"))
        or _title(item.get("collection-title")),
        volume=_text(item.get("volume")),
        issue=_text(item.get("issue")),
        pages=_text(item.get("page")),
        issn=_text(item.get("ISSN")),
        language=_text(item.get("language")),
        url=url,
        warnings=warnings,
    )


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _items(text: str) -> list[tuple[int, Any, str | None]]:
    """`(line, item, error)` for each item of the file (see the module docstring)."""
    start = _WS_RE.match(text)
    pos = start.end() if start else 0
    if pos >= len(text):
        return []
    if text[pos] == "{":
        try:
            value, _end = _DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError) as exc:
            return [(_line_at(text, pos), None, _why(exc))]
        items = value.get("items") if isinstance(value, dict) else None
        m = _ITEMS_RE.search(text, pos) if isinstance(items, list) else None
        if m is None:
            if isinstance(value, dict) and not _CSL_KEYS & set(value):
                return [(_line_at(text, pos), None, "not CSL-JSON: an object without CSL fields")]
            return [(_line_at(text, pos), value, None)]
        pos = m.end() - 1
    if text[pos] != "[":
        return [(_line_at(text, pos), None, "not CSL-JSON: the file is not a JSON array")]
    return _array(text, pos + 1)


def _why(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "not readable JSON: nested too deep"
    return f"not valid JSON: {exc}"


def _array(text: str, pos: int) -> list[tuple[int, Any, str | None]]:
    out: list[tuple[int, Any, str | None]] = []
    line, seen = 1, 0

    def at(p: int) -> int:
        nonlocal line, seen
        line += text.count("\n", seen, p)
        seen = p
        return line

    while True:
        ws = _WS_RE.match(text, pos)
        pos = ws.end() if ws else pos
        if pos >= len(text):
            out.append((at(pos), None, "not valid JSON: the array is not closed by `]`"))
            return out
        if text[pos] == "]":
            return out
        item_line = at(pos)
        try:
            item, pos = _DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError) as exc:
            out.append((item_line, None, _why(exc)))
            resume = _resync(text, pos)
            if resume is None:
                return out
            pos = resume
            continue
        out.append((item_line, item, None))
        ws = _WS_RE.match(text, pos)
        pos = ws.end() if ws else pos
        if pos < len(text) and text[pos] == ",":
            pos += 1
        elif pos < len(text) and text[pos] != "]":
            out.append((at(pos), None, "not valid JSON: expected `,` or `]` after an item"))
            resume = _resync(text, pos)
            if resume is None:
                return out
            pos = resume


def _resync(text: str, pos: int) -> int | None:
    """Where the next item starts after a broken one at `pos`: the next line opening `{` with
    the broken item's indentation; `None` when there is none (a one-line file)."""
    line_start = text.rfind("\n", 0, pos) + 1
    indent = text[line_start:pos]
    if indent.strip(" \t"):
        indent = indent[: len(indent) - len(indent.lstrip(" \t"))]
    m = re.compile(r"\n" + re.escape(indent) + r"\{").search(text, pos + 1)
    return m.end() - 1 if m else None
