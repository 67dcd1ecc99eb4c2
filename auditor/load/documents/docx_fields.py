"""Reference-manager records inside a Word file: exact structured records, never parsed text.

- Zotero: `ADDIN ZOTERO_ITEM CSL_CITATION {json}`; Mendeley: `ADDIN CSL_CITATION {json}`. The
  CSL-JSON of `citationItems[].itemData` is read by the CSL-JSON loader, each item once, keyed
  by its item URI (`uris[0]`, else `uri`, else its `id`), in order of first citation.
- EndNote: `ADDIN EN.CITE <EndNote>…</EndNote>` (or base64 in the field data of
  `ADDIN EN.CITE.DATA`): its `<record>`s are read by the EndNote XML loader, each once by its
  `rec-number`.
- Word's own citations: `CITATION tag` fields name the `b:Source`s of the `customXml` part
  (`b:Tag`, `b:SourceType`, `b:Title`, `b:Author/b:NameList/b:Person`, `b:Year`,
  `b:JournalName`/`b:ConferenceName`/`b:BookTitle`, `b:Volume`, `b:Issue`, `b:Pages`,
  `b:DOI`, `b:URL`); without any `CITATION` field every source is read.

`read_fields` returns the rows and their problems, or `None` when the file holds no such field
(then the bibliography paragraphs are read as text). Never raises on a broken field: it becomes
a problem naming the paragraph.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any
from xml.etree.ElementTree import Element

from auditor.load.csl_json import CslJsonLoader
from auditor.load.documents.docx_xml import DocxParts
from auditor.load.endnote_xml import EndnoteXmlLoader
from auditor.load.interface import Problem, Rows

__all__ = ["read_fields"]

_CSL_RE = re.compile(r"^ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION\b", re.IGNORECASE)
_EN_RE = re.compile(r"^ADDIN\s+EN\.CITE(?P<data>\.DATA)?\b", re.IGNORECASE)
_WORD_RE = re.compile(r'^CITATION\s+"?(?P<tag>[^\s"\\]+)', re.IGNORECASE)
_RECORD_RE = re.compile(r"<record\b.*?</record\s*>", re.DOTALL)
_B = "{http://schemas.openxmlformats.org/officeDocument/2006/bibliography}"
_DECODER = json.JSONDecoder()


def read_fields(parts: DocxParts, path: str) -> tuple[Rows, list[Problem], list[int]] | None:
    """`(rows, problems, paragraph of each row's first citation)` or `None` (no fields)."""
    csl: dict[str, tuple[dict[str, Any], int]] = {}
    endnote: dict[str, tuple[str, int]] = {}
    tags: dict[str, int] = {}
    problems: list[Problem] = []
    for number, instr, data in parts.instructions:
        if _CSL_RE.match(instr):
            _csl_items(instr, number, path, csl, problems)
        elif m := _EN_RE.match(instr):
            xml = _en_data(data) if m.group("data") else instr
            for rec in _RECORD_RE.findall(xml or ""):
                key = _rec_number(rec) or f"record-{len(endnote) + 1}"
                endnote.setdefault(key, (rec, number))
        elif m := _WORD_RE.match(instr):
            tags.setdefault(m.group("tag"), number)
    if csl:
        return _from_csl(csl, path, problems)
    if endnote:
        return _from_endnote(endnote, path, problems)
    if parts.sources and (tags or not parts.instructions):
        return _from_sources(parts.sources, tags, path, problems)
    return None


def _csl_items(
    instr: str,
    number: int,
    path: str,
    csl: dict[str, tuple[dict[str, Any], int]],
    problems: list[Problem],
) -> None:
    start = instr.find("{")
    try:
        value, _ = _DECODER.raw_decode(instr, start) if start >= 0 else (None, 0)
    except (ValueError, RecursionError):
        value = None
    items = value.get("citationItems") if isinstance(value, dict) else None
    if not isinstance(items, list):
        problems.append(
            Problem(path, number, f"paragraph {number}: citation field is not CSL-JSON")
        )
        return
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("itemData"), dict):
            continue
        uris = item.get("uris")
        uri = uris[0] if isinstance(uris, list) and uris else item.get("uri")
        key = str(uri or item.get("id") or item["itemData"].get("id") or f"item-{len(csl) + 1}")
        csl.setdefault(key, (item["itemData"], number))


def _from_csl(
    csl: dict[str, tuple[dict[str, Any], int]], path: str, problems: list[Problem]
) -> tuple[Rows, list[Problem], list[int]]:
    items = []
    for key, (data, _) in csl.items():
        item = {k: v for k, v in data.items() if k not in ("id", "citation-key")}
        items.append({"id": key, **item})
    rows, more = CslJsonLoader().load(json.dumps(items, ensure_ascii=False, indent=1), path)
    return rows, [*problems, *more], [n for _, n in csl.values()]


def _en_data(data: str) -> str | None:
    try:
        return base64.b64decode(data, validate=False).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return None


def _rec_number(record: str) -> str | None:
    m = re.search(r"<rec-number>\s*(\d+)\s*</rec-number>", record)
    return m.group(1) if m else None


def _from_endnote(
    endnote: dict[str, tuple[str, int]], path: str, problems: list[Problem]
) -> tuple[Rows, list[Problem], list[int]]:
    xml = "<xml><records>" + "".join(r for r, _ in endnote.values()) + "</records></xml>"
    rows, more = EndnoteXmlLoader().load(xml, path)
    return rows, [*problems, *more], [n for _, n in endnote.values()]


def _b(el: Element, *names: str) -> str | None:
    for name in names:
        found = el.find(f"{_B}{name}")
        if found is not None and (found.text or "").strip():
            return " ".join((found.text or "").split())
    return None


def _from_sources(
    roots: list[Element], tags: dict[str, int], path: str, problems: list[Problem]
) -> tuple[Rows, list[Problem], list[int]]:
    rows = Rows()
    lines: list[int] = []
    for root in roots:
        for source in root.iter(f"{_B}Source"):
            tag = _b(source, "Tag")
            if tags and tag not in tags:
                continue
            people = [
                ", ".join(
                    filter(
                        None,
                        (_b(p, "Last"), " ".join(filter(None, (_b(p, "First"), _b(p, "Middle"))))),
                    )
                )
                for p in source.iter(f"{_B}Person")
            ]
            year = _b(source, "Year")
            rows.add(
                source_line=tags.get(tag or "", 0) or None,
                key=tag,
                entry_type=_b(source, "SourceType"),
                doi=_b(source, "DOI"),
                title=_b(source, "Title"),
                authors=[p for p in people if p],
                year=int(year) if year and year.isdigit() else None,
                container_title=_b(
                    source, "JournalName", "ConferenceName", "BookTitle", "PeriodicalTitle"
                ),
                volume=_b(source, "Volume"),
                issue=_b(source, "Issue"),
                pages=_b(source, "Pages"),
                url=_b(source, "URL"),
            )
            lines.append(tags.get(tag or "", 0))
    return rows, problems, lines
