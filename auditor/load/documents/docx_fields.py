"""Reference-manager records inside a Word file: exact structured records, never parsed text.

- Zotero: `ADDIN ZOTERO_ITEM CSL_CITATION {json}`; Mendeley Desktop: `ADDIN CSL_CITATION {json}`;
  Mendeley Cite: a content control tagged `MENDELEY_CITATION_v3_<base64 json>`. The CSL-JSON of
  `citationItems[].itemData` is read by the CSL-JSON loader, each item once, keyed by its item
  URI (`uris[0]`, else `uri`, else its `id`), in order of first citation.
- EndNote: `ADDIN EN.CITE <EndNote>…</EndNote>` (or base64 in the field data of
  `ADDIN EN.CITE.DATA`): the cited records travel inside the fields (EndNote's "traveling
  library"); each `<record>` is read by the EndNote XML loader, once by its `rec-number`.
- Citavi: a content control around `ADDIN CitaviPlaceholder<base64 json>` (`docx_citavi`).
- Word's own citations: `CITATION tag` fields name the `b:Source`s of the `customXml` part
  (`b:Tag`, `b:SourceType`, `b:Title`, `b:Author/b:NameList/b:Person`, `b:Year`,
  `b:JournalName`/`b:ConferenceName`/`b:BookTitle`, `b:Volume`, `b:Issue`, `b:Pages`,
  `b:DOI`, `b:URL`); without any `CITATION` field every source is read.

Records of several managers in one file are all kept. The manager's printed bibliography is
found too: the result of `ADDIN ZOTERO_BIBL … CSL_BIBLIOGRAPHY`, `ADDIN Mendeley Bibliography`,
`ADDIN EN.REFLIST`, `ADDIN CITAVI BIBLIOGRAPHY`, Word's `BIBLIOGRAPHY`, or a control tagged
`MENDELEY_BIBLIOGRAPHY`/`CitaviBibliography`; Zotero's bibliography field also lists the items
printed without a citation (`{"uncited": [[uri, …], …], "omitted": …, "custom": …}`), which
hold no record: their printed entries are read as text by `docx`.

`read_fields` returns `Fields`, or `None` when the file holds no such field (then the
bibliography paragraphs are read as text). Never raises on a broken field: it becomes a problem
naming the paragraph.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from auditor.load.csl_json import CslJsonLoader
from auditor.load.documents.docx_citavi import citavi_rows
from auditor.load.documents.docx_xml import DocxParts
from auditor.load.endnote_xml import EndnoteXmlLoader
from auditor.load.interface import Problem, Rows

__all__ = ["NOT_CITED_HERE", "Fields", "read_fields"]

#: `Fields.cited` of a record its manager prints in the bibliography only (Citavi `/bibonly`).
NOT_CITED_HERE = -1

_CSL_RE = re.compile(r"^ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION\b", re.IGNORECASE)
_EN_RE = re.compile(r"^ADDIN\s+EN\.CITE(?P<data>\.DATA)?\b", re.IGNORECASE)
_CITAVI_RE = re.compile(r"^ADDIN\s+CITAVI(?:PLACEHOLDER|\.PLACEHOLDER\b)", re.IGNORECASE)
_WORD_RE = re.compile(r'^CITATION\s+"?(?P<tag>[^\s"\\]+)', re.IGNORECASE)
_BIB_RE = re.compile(
    r"^(?:ADDIN\s+(?:ZOTERO_BIBL|Mendeley\s+Bibliography|EN\.REFLIST|CITAVI[ .]BIBLIOGRAPHY)\b"
    r"|BIBLIOGRAPHY\b)",
    re.IGNORECASE,
)
_BIB_TAG_RE = re.compile(r"^(?:MENDELEY_BIBLIOGRAPHY|CitaviBibliography)", re.IGNORECASE)
_MENDELEY_TAG = "MENDELEY_CITATION_v3_"
_RECORD_RE = re.compile(r"<record\b.*?</record\s*>", re.DOTALL)
_B = "{http://schemas.openxmlformats.org/officeDocument/2006/bibliography}"
_DECODER = json.JSONDecoder()


@dataclass
class Fields:
    """What a reference manager left in a Word file."""

    rows: Rows
    problems: list[Problem]
    cited: list[int]
    """Per row, the paragraph of its first citation; 0 when unknown, `NOT_CITED_HERE` when its
    manager prints it without a citation."""
    bibliography: tuple[int, int] | None = None
    """First and last paragraph of the bibliography the manager printed, when a field holds it."""
    uncited: list[str] = field(default_factory=list)
    """Zotero's uncited items (their first URI): printed in the bibliography, cited nowhere."""


def read_fields(parts: DocxParts, path: str) -> Fields | None:
    """The manager's records and bibliography, or `None` when the file holds no record."""
    csl: dict[str, tuple[dict[str, Any], int]] = {}
    endnote: dict[str, tuple[str, int]] = {}
    tags: dict[str, int] = {}
    citavi: list[tuple[str, int]] = []
    problems: list[Problem] = []
    bibliography: tuple[int, int] | None = None
    uncited: list[str] = []
    for index, (number, instr, data) in enumerate(parts.instructions):
        if _CSL_RE.match(instr):
            _csl_items(instr, number, path, csl, problems)
        elif m := _EN_RE.match(instr):
            xml = _en_data(data) if m.group("data") else instr
            for rec in _RECORD_RE.findall(xml or ""):
                key = _rec_number(rec) or f"record-{len(endnote) + 1}"
                endnote.setdefault(key, (rec, number))
        elif _CITAVI_RE.match(instr):
            citavi.append((instr, number))
        elif m := _WORD_RE.match(instr):
            tags.setdefault(m.group("tag"), number)
        elif _BIB_RE.match(instr):
            bibliography = bibliography or parts.results.get(index)
            uncited.extend(_uncited(instr, number, path, problems))
    for tag, first, last in parts.controls:
        if tag.startswith(_MENDELEY_TAG):
            payload = _b64(tag[len(_MENDELEY_TAG) :])
            _csl_items(payload or "", first, path, csl, problems)
        elif _BIB_TAG_RE.match(tag):
            bibliography = bibliography or (first, last)
    found: list[tuple[Rows, list[Problem], list[int]]] = []
    if csl:
        found.append(_from_csl(csl, path))
    if endnote:
        found.append(_from_endnote(endnote, path))
    if citavi:
        c_rows, c_problems, c_cited = citavi_rows(citavi, path)
        found.append((c_rows, c_problems, [NOT_CITED_HERE if n is None else n for n in c_cited]))
    if parts.sources and (tags or not parts.instructions):
        found.append(_from_sources(parts.sources, tags, path))
    if not found:
        return None
    rows, cited = Rows(), []
    for more_rows, more_problems, lines in found:
        rows.rows.extend(more_rows.rows)
        problems.extend(more_problems)
        cited.extend(lines)
    return Fields(rows, problems, cited, bibliography, uncited)


def _uncited(instr: str, number: int, path: str, problems: list[Problem]) -> list[str]:
    """The first URI of each item Zotero's bibliography field lists as `uncited`."""
    start = instr.find("{")
    if start < 0:
        return []
    try:
        value, _ = _DECODER.raw_decode(instr, start)
    except (ValueError, RecursionError):
        problems.append(
            Problem(path, number, f"paragraph {number}: bibliography field data is not JSON")
        )
        return []
    items = value.get("uncited") if isinstance(value, dict) else None
    out = []
    for uris in items if isinstance(items, list) else []:
        uri = uris[0] if isinstance(uris, list) and uris else uris
        if isinstance(uri, str) and uri:
            out.append(uri)
    return out


def _b64(text: str) -> str | None:
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=False).decode(
            "utf-8", "replace"
        )
    except (binascii.Error, ValueError):
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
    csl: dict[str, tuple[dict[str, Any], int]], path: str
) -> tuple[Rows, list[Problem], list[int]]:
    items = []
    for key, (data, _) in csl.items():
        item = {k: v for k, v in data.items() if k not in ("id", "citation-key")}
        items.append({"id": key, **item})
    rows, more = CslJsonLoader().load(json.dumps(items, ensure_ascii=False, indent=1), path)
    return rows, more, [n for _, n in csl.values()]


def _en_data(data: str) -> str | None:
    return _b64("".join(data.split()))


def _rec_number(record: str) -> str | None:
    m = re.search(r"<rec-number>\s*(\d+)\s*</rec-number>", record)
    return m.group(1) if m else None


def _from_endnote(
    endnote: dict[str, tuple[str, int]], path: str
) -> tuple[Rows, list[Problem], list[int]]:
    xml = "<xml><records>" + "".join(r for r, _ in endnote.values()) + "</records></xml>"
    rows, more = EndnoteXmlLoader().load(xml, path)
    return rows, more, [n for _, n in endnote.values()]


def _b(el: Element, *names: str) -> str | None:
    for name in names:
        found = el.find(f"{_B}{name}")
        if found is not None and (found.text or "").strip():
            return " ".join((found.text or "").split())
    return None


def _from_sources(
    roots: list[Element], tags: dict[str, int], path: str
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
    return rows, [], lines
