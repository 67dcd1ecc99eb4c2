"""Updates to a cited work (retractions, corrections, …) read from register records already fetched.

No request is made here: each function reads the parsed, untrusted body a register module already
holds and returns `UPDATE` dicts (`tables.UPDATE`): `type`, `relation`, `date`, `doi`, `pmid`,
`source`. A field of the wrong shape is skipped, never raised on. A `new_version` (or any entry
that is not a retraction-grade notice) pointing at the record itself says nothing about the work
and is dropped; a retraction or withdrawal naming the record's own DOI is kept, because some
publishers withdraw an article under its own DOI.

Sources:

- Crossref `updated-by` (the record was updated; `source` is `publisher` or `retraction-watch`),
  `update-to` (the record *is* the notice of another work) and `relation` where it carries the
  same update types (`asserted-by: object` read as `updated-by`, `subject` as `update-to`).
- PubMed esummary `pubtype` (`Retracted Publication`, `Retraction of Publication`,
  `Published Erratum`) and `references` (`reftype` `Retraction in`, `Erratum in`,
  `Expression of concern in`, … with the notice's `pmid`).
- DataCite `relatedIdentifiers` (`IsObsoletedBy`, `IsPreviousVersionOf`, `IsNewVersionOf`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from auditor.tables import UpdateRelation

__all__ = [
    "CORRECTION_TYPES",
    "CONCERN_TYPES",
    "RETRACTION_TYPES",
    "crossref_updates",
    "datacite_updates",
    "pubmed_updates",
]

#: Update types that withdraw the work: a P0 checklist item.
RETRACTION_TYPES: frozenset[str] = frozenset({"retraction", "withdrawal", "removal"})
#: Update types that put the work in doubt without withdrawing it: P1.
CONCERN_TYPES: frozenset[str] = frozenset({"expression_of_concern", "partial_retraction"})
#: Update types that amend the work: P3, informational.
CORRECTION_TYPES: frozenset[str] = frozenset(
    {"correction", "corrigendum", "erratum", "addendum", "clarification", "obsoleted"}
)
#: Types kept in the list for context only (no checklist item).
_CONTEXT_TYPES: frozenset[str] = frozenset({"new_version", "new_edition"})
_KNOWN = RETRACTION_TYPES | CONCERN_TYPES | CORRECTION_TYPES | _CONTEXT_TYPES

_UPDATED_BY = str(UpdateRelation.UPDATED_BY)
_UPDATE_TO = str(UpdateRelation.UPDATE_TO)

#: At most this many updates are read from one record (bodies are untrusted).
MAX_UPDATES = 50


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _type(value: object) -> str | None:
    """A Crossref update type, lower-cased with `-`/space as `_`; `None` when unknown."""
    text = _text(value)
    if text is None:
        return None
    kind = re.sub(r"[\s-]+", "_", text.lower())
    return kind if kind in _KNOWN else None


def _crossref_date(value: object) -> str | None:
    """ISO date (`2012-05-08`, `2012-05`, `2012`) of a Crossref date object, else `None`."""
    if not isinstance(value, Mapping):
        return None
    stamp = _text(value.get("date-time"))
    if stamp and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", stamp[:10]):
        return stamp[:10]
    parts = value.get("date-parts")
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list):
        return None
    nums = [p for p in parts[0][:3] if isinstance(p, int) and not isinstance(p, bool)]
    if not nums or len(nums) != len(parts[0][:3]):
        return None
    return "-".join([f"{nums[0]:04d}", *(f"{n:02d}" for n in nums[1:])])


def _doi(value: object) -> str | None:
    text = _text(value)
    return text.lower() if text and text.startswith("10.") else None


def _entry(
    kind: str,
    relation: str,
    *,
    date: str | None = None,
    doi: str | None = None,
    pmid: str | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    return {
        "type": kind,
        "relation": relation,
        "date": date,
        "doi": doi,
        "pmid": pmid,
        "source": source,
    }


def _keep(entries: Iterable[dict[str, Any]], own_doi: str | None) -> list[dict[str, Any]]:
    """Drop duplicates and entries pointing at the record itself that say nothing about it."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    own = own_doi.lower() if own_doi else None
    for entry in entries:
        if len(out) >= MAX_UPDATES:
            break
        self_pointing = own is not None and entry["doi"] == own
        if self_pointing and (
            entry["relation"] == _UPDATE_TO or entry["type"] not in RETRACTION_TYPES
        ):
            # A record that "updates itself" with a new version, or whose update-to names
            # itself (the retracted article, not a notice), reports nothing new here.
            continue
        key = (entry["type"], entry["relation"], entry["doi"], entry["pmid"])
        if key in seen:
            continue
        seen.add(key)
        out.append(entry)
    return out


def _crossref_list(items: object, relation: str) -> Iterable[dict[str, Any]]:
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        kind = _type(item.get("type"))
        if kind is None:
            continue
        yield _entry(
            kind,
            relation,
            date=_crossref_date(item.get("updated")),
            doi=_doi(item.get("DOI")),
            source=_text(item.get("source")) or "crossref",
        )


def _crossref_relation(relation: object) -> Iterable[dict[str, Any]]:
    if not isinstance(relation, Mapping):
        return
    for name, items in relation.items():
        kind = _type(name)
        if kind is None:
            continue
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, Mapping) or _text(item.get("id-type")) != "doi":
                continue
            asserted = _text(item.get("asserted-by"))
            direction = _UPDATE_TO if asserted == "subject" else _UPDATED_BY
            yield _entry(kind, direction, doi=_doi(item.get("id")), source="crossref-relation")


def crossref_updates(message: Mapping[str, Any], own_doi: str | None) -> list[dict[str, Any]]:
    """Updates of a Crossref `/works` message: `updated-by`, `update-to`, then `relation`."""
    entries = [
        *_crossref_list(message.get("updated-by"), _UPDATED_BY),
        *_crossref_list(message.get("update-to"), _UPDATE_TO),
    ]
    known = {(e["type"], e["doi"]) for e in entries}
    entries += [
        e for e in _crossref_relation(message.get("relation")) if (e["type"], e["doi"]) not in known
    ]
    return _keep(entries, own_doi)


#: PubMed publication types that say what the record itself is or went through.
_PUBTYPES: dict[str, tuple[str, str]] = {
    "retracted publication": ("retraction", _UPDATED_BY),
    "retraction of publication": ("retraction", _UPDATE_TO),
    "published erratum": ("erratum", _UPDATE_TO),
    "expression of concern": ("expression_of_concern", _UPDATE_TO),
}
#: esummary `references[].reftype` (MEDLINE CommentsCorrections) → (type, relation).
_REFTYPES: dict[str, tuple[str, str]] = {
    "retraction in": ("retraction", _UPDATED_BY),
    "retraction of": ("retraction", _UPDATE_TO),
    "partial retraction in": ("partial_retraction", _UPDATED_BY),
    "partial retraction of": ("partial_retraction", _UPDATE_TO),
    "erratum in": ("erratum", _UPDATED_BY),
    "erratum for": ("erratum", _UPDATE_TO),
    "expression of concern in": ("expression_of_concern", _UPDATED_BY),
    "expression of concern for": ("expression_of_concern", _UPDATE_TO),
}
_YEAR_IN_SOURCE = re.compile(r"(?<![0-9])(1[89][0-9]{2}|20[0-9]{2})(?![0-9])")


def _pmid(value: object) -> str | None:
    text = (
        str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    )
    return text if text.isascii() and text.isdigit() else None


def pubmed_updates(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Updates of one esummary document: `references` naming a notice, then bare `pubtype`s.

    A `pubtype` of `Retracted Publication` with no `Retraction in` reference still gives an
    entry (notice unknown). The date is the year of the notice's `refsource` when it names one.
    """
    entries: list[dict[str, Any]] = []
    refs = summary.get("references")
    for ref in refs if isinstance(refs, list) else []:
        if not isinstance(ref, Mapping):
            continue
        reftype = _text(ref.get("reftype"))
        mapped = _REFTYPES.get(reftype.lower()) if reftype else None
        if mapped is None:
            continue
        year = _YEAR_IN_SOURCE.search(_text(ref.get("refsource")) or "")
        entries.append(
            _entry(
                mapped[0],
                mapped[1],
                date=year.group(1) if year else None,
                pmid=_pmid(ref.get("pmid")),
                source="pubmed",
            )
        )
    pubtypes = summary.get("pubtype")
    for pubtype in pubtypes if isinstance(pubtypes, list) else []:
        text = _text(pubtype)
        mapped = _PUBTYPES.get(text.lower()) if text else None
        if mapped is None or any((e["type"], e["relation"]) == mapped for e in entries):
            continue
        entries.append(_entry(mapped[0], mapped[1], source="pubmed"))
    return _keep(entries, None)


#: DataCite `relationType` → (type, relation). `IsVersionOf`/`HasVersion` (Zenodo concept DOIs on
#: every record) say nothing about the work and are not read.
_DATACITE_RELATIONS: dict[str, tuple[str, str]] = {
    "isobsoletedby": ("obsoleted", _UPDATED_BY),
    "ispreviousversionof": ("new_version", _UPDATED_BY),
    "isnewversionof": ("new_version", _UPDATE_TO),
}


def datacite_updates(attributes: Mapping[str, Any], own_doi: str | None) -> list[dict[str, Any]]:
    """Updates from DataCite `relatedIdentifiers` whose other side is a DOI."""
    entries: list[dict[str, Any]] = []
    related = attributes.get("relatedIdentifiers")
    for item in related if isinstance(related, list) else []:
        if not isinstance(item, Mapping):
            continue
        relation = _text(item.get("relationType"))
        mapped = _DATACITE_RELATIONS.get(relation.lower()) if relation else None
        if mapped is None or (_text(item.get("relatedIdentifierType")) or "").upper() != "DOI":
            continue
        doi = _doi(_strip_resolver(_text(item.get("relatedIdentifier"))))
        entries.append(_entry(mapped[0], mapped[1], doi=doi, source="datacite"))
    return _keep(entries, own_doi)


def _strip_resolver(value: str | None) -> str | None:
    """`https://doi.org/10.x/y` → `10.x/y` (DataCite stores either form)."""
    if value is None:
        return None
    return re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", value, flags=re.IGNORECASE)
