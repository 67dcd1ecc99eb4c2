"""Citavi's records inside a Word file: the reference each citation carries, read exactly.

Citavi's Word add-in wraps every citation in a content control (`CitaviPlaceholder#<uuid>`)
around the field `ADDIN CitaviPlaceholder<base64>` (older: `ADDIN CITAVI.PLACEHOLDER {uuid}
<data>`). The data is Citavi's own JSON, written by Json.NET (`$id`/`$ref` share repeated
objects): `Entries[]`, each with its `Reference` (`Id`, `ReferenceType`, `Title`, `Subtitle`,
`Authors[]` (`FirstName`, `MiddleName`, `LastName`), `Editors[]`, `Year`, `Periodical.Name`,
`ParentReference` (the book of a contribution), `Volume`, `Number`, `PageRange` (a JSON object or
Citavi's XML fragment whose last `<os>` is the range as written), `Doi`, `PubMedId`,
`OnlineAddress`) and `BibliographyEntry` (`/bibonly`: printed in the bibliography, not cited).

`citavi_rows` gives one row per reference (first citation wins), the paragraph of that
citation, and a problem naming the paragraph for a payload it cannot read.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from auditor.load.ids import ids_in_text
from auditor.load.interface import Problem, Rows
from auditor.load.names import clean_author_list, family_given_names
from auditor.load.tagged import year_in

__all__ = ["citavi_rows"]

_PREFIX_RE = re.compile(
    r"^ADDIN\s+CITAVI(?:PLACEHOLDER|\.PLACEHOLDER)\s*(?:\{?[0-9a-f-]{36}\}?)?\s*", re.IGNORECASE
)
_OS_RE = re.compile(r"<os>([^<]*)</os>")
_MAX_DEPTH = 64


def citavi_rows(
    fields: list[tuple[str, int]], path: str
) -> tuple[Rows, list[Problem], list[int | None]]:
    """`(rows, problems, paragraph of each row's first citation)` of Citavi's fields; `None` for
    a reference printed in the bibliography only."""
    rows, problems = Rows(), []
    cited: list[int | None] = []
    seen: dict[str, int] = {}
    for instr, number in fields:
        payload = _payload(instr)
        entries = payload.get("Entries") if isinstance(payload, dict) else None
        if not isinstance(entries, list):
            problems.append(Problem(path, number, f"paragraph {number}: Citavi field unreadable"))
            continue
        ids: dict[str, Any] = {}
        _collect(payload, ids, 0)
        for entry in entries:
            entry = _deref(entry, ids)
            ref = _deref(entry.get("Reference"), ids) if isinstance(entry, dict) else None
            if not isinstance(ref, dict):
                continue
            key = str(ref.get("Id") or entry.get("ReferenceId") or f"citavi-{len(seen) + 1}")
            bib_only = str(entry.get("BibliographyEntry") or "").lower() == "/bibonly"
            if key in seen:
                if not bib_only and cited[seen[key]] is None:
                    cited[seen[key]] = number
                continue
            seen[key] = len(cited)
            cited.append(None if bib_only else number)
            _row(rows, ref, key, ids)
    return rows, problems, cited


def _payload(instr: str) -> Any:
    rest = _PREFIX_RE.sub("", instr, count=1)
    compact = "".join(rest.split())
    try:
        text = base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True).decode("utf-8")
        return json.loads(text)
    except (binascii.Error, ValueError, RecursionError):
        pass
    start = rest.find("{")
    try:
        return json.JSONDecoder().raw_decode(rest, start)[0] if start >= 0 else None
    except (ValueError, RecursionError):
        return None


def _collect(value: Any, ids: dict[str, Any], depth: int) -> None:
    """Every object with a Json.NET `$id`, so a `{"$ref": id}` can be read as that object."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        if isinstance(value.get("$id"), str):
            ids.setdefault(value["$id"], value)
        for v in value.values():
            _collect(v, ids, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _collect(v, ids, depth + 1)


def _deref(value: Any, ids: dict[str, Any]) -> Any:
    if isinstance(value, dict) and set(value) == {"$ref"}:
        return ids.get(str(value["$ref"]))
    return value


def _text(value: Any) -> str | None:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        text = " ".join(str(value).split())
        return text or None
    return None


def _person(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    last = _text(value.get("LastName"))
    given = " ".join(filter(None, (_text(value.get(k)) for k in ("FirstName", "MiddleName"))))
    if last and given:
        return f"{last}, {given}"
    return last or given or None


def _people(ref: dict[str, Any], ids: dict[str, Any]) -> list[str]:
    for name in ("Authors", "Editors", "Organizations"):
        people = ref.get(name)
        if isinstance(people, list):
            found = [p for v in people if (p := _person(_deref(v, ids)))]
            if found:
                return found
    return []


def _pages(value: Any) -> str | None:
    if isinstance(value, dict):
        return _text(value.get("OriginalString"))
    if isinstance(value, str) and "<os>" in value:
        found = _OS_RE.findall(value)
        return _text(found[-1]) if found else None
    return _text(value)


def _row(rows: Rows, ref: dict[str, Any], key: str, ids: dict[str, Any]) -> None:
    title = _text(ref.get("Title"))
    subtitle = _text(ref.get("Subtitle"))
    if title and subtitle:
        title = f"{title}: {subtitle}"
    parent = _deref(ref.get("ParentReference"), ids)
    periodical = _deref(ref.get("Periodical"), ids)
    venue = (_text(periodical.get("Name")) if isinstance(periodical, dict) else None) or (
        _text(parent.get("Title")) if isinstance(parent, dict) else None
    )
    authors, et_al = clean_author_list(_people(ref, ids))
    year_text = _text(ref.get("Year")) or _text(ref.get("YearResolved"))
    if year_text is None and isinstance(parent, dict):
        year_text = _text(parent.get("Year"))
    doi = ids_in_text(_text(ref.get("Doi")) or "").get("doi")
    url = _text(ref.get("OnlineAddress"))
    rows.add(
        key=key,
        entry_type=_text(ref.get("ReferenceType")),
        doi=doi,
        pmid=_text(ref.get("PubMedId")),
        title=title,
        authors=authors,
        author_names=family_given_names(authors),
        authors_et_al=et_al,
        year=year_in(year_text),
        container_title=venue,
        volume=_text(ref.get("Volume")),
        issue=_text(ref.get("Number")),
        pages=_pages(ref.get("PageRange")),
        url=url if url and url.lower().startswith(("http://", "https://")) else None,
        warnings=[],
    )
