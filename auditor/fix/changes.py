"""What an audit makes certain enough to correct, field by field, and what only gets a comment.

A field is rewritten only from the register record the audit relied on, and only when that record
is the cited work beyond doubt: it was found (by identifier, or by a title search the criteria
call a confident match) and the titles match. Then, on an entry the audit found a fault in, a
year, an author list (names or order), a venue, volume or pages that differ are corrected. An
entry with no finding is left byte for byte as written: filling in a missing venue, volume,
pages or DOI (and a preprint's published DOI) is completion, not correction, and only done when
asked (`complete`). A work the register records as retracted (withdrawn, removed) gets a
note. An author list is never rewritten with a name in another script than the entry wrote in
its place (a register's `张伟` for `Zhang, Wei`, or the reverse): the list stays and a note says
why. A record with another title (a chimeric entry), a DOES-NOT-RESOLVE, a NOT FOUND, an UNCHECKED
or an INVALID row is never rewritten: it gets a note for the person instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor.names import cited_surname
from auditor.vocabulary import RecordStatus, RowState, UpdateRelation, Verdict

if TYPE_CHECKING:
    import pyarrow as pa

    from auditor.result import AuditResult

__all__ = ["FIELDS", "Change", "Note", "Plan", "plan_fixes"]

#: Logical fields a fix may touch, as `--only` names them.
FIELDS: tuple[str, ...] = ("year", "author", "venue", "volume", "pages", "doi", "eprint")

#: Update types that take a work back (`auditor.registers.updates.RETRACTION_TYPES`; not imported
#: from there, which would load pyarrow with this module), and how a note words each.
_PAST = {"retraction": "retracted", "withdrawal": "withdrawn", "removal": "removed"}
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.", re.IGNORECASE)


@dataclass(frozen=True)
class Change:
    """One field of one entry to set to `value` (`old` is the claimed value, `None` when absent)."""

    row_id: int
    source_path: str
    source_line: int | None
    key: str | None
    field: str
    """One of `FIELDS`."""
    value: str | list[str]
    """Unicode text; for `author`, the names as `Family, Given`."""
    old: str | list[str] | None
    why: str
    """For a person: which register said so."""


@dataclass(frozen=True)
class Note:
    """A finding on an entry that is not rewritten, written as a comment above it."""

    row_id: int
    source_path: str
    source_line: int | None
    key: str | None
    text: str


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...]
    notes: tuple[Note, ...]


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def plan_fixes(
    result: AuditResult,
    *,
    only: Iterable[str] = (),
    upgrade_preprints: bool = True,
    complete: bool = False,
) -> Plan:
    """The changes and notes for every row of `result`, in input order.

    `complete`: also fill in fields the entry lacks (and, with `upgrade_preprints`, a preprint's
    published DOI); without it only values present and wrong on a row with a finding change.
    """
    wanted = frozenset(only) or frozenset(FIELDS)
    records = {(r["id_type"], r["identifier"]): r for r in _rows(result.records)}
    references = {r["row_id"]: r for r in _rows(result.references)}
    changes: list[Change] = []
    notes: list[Note] = []
    for verdict in _rows(result.verdicts):
        ref = references.get(verdict["row_id"])
        if ref is None:
            continue
        record = records.get((verdict.get("id_type"), verdict.get("identifier")))
        where = (verdict["row_id"], ref["source_path"], ref.get("source_line"), ref.get("key"))
        note = _note_for(ref, verdict, record)
        if note is not None:
            notes.append(Note(*where, note))
            continue
        if record is None:
            continue
        for name, value, old in _field_changes(ref, verdict, record, upgrade_preprints):
            if not complete and not _corrects(verdict, old):
                continue
            if name == "author" and name in wanted and _other_script(old, value):
                notes.append(Note(*where, _script_note(value, verdict, record)))
                continue
            if name in wanted:
                register = verdict.get("register") or record.get("register") or "the register"
                why = f"{register} record for {verdict.get('identifier')}"
                changes.append(Change(*where, name, value, old, why))
    return Plan(tuple(changes), tuple(notes))


def _corrects(verdict: dict[str, Any], old: Any) -> bool:
    """Whether a change replaces a value that is there and wrong, on a row with a finding (what
    `fix` does without `complete`)."""
    has_finding = bool(verdict.get("findings")) or verdict["verdict"] == Verdict.DIFFERS
    return has_finding and old is not None and old != "" and old != []


def _retracted(verdict: dict[str, Any], record: dict[str, Any] | None) -> str | None:
    """A note for a work the register says was retracted, withdrawn or removed."""
    for update in verdict.get("updates") or []:
        kind = (update or {}).get("type")
        if kind in _PAST and update.get("relation") == UpdateRelation.UPDATED_BY:
            register = verdict.get("register") or (record or {}).get("register") or "register"
            notice = update.get("doi") or update.get("pmid")
            detail = ", ".join(
                x for x in (update.get("date"), f"notice {notice}" if notice else None) if x
            )
            shown = f" ({detail})" if detail else ""
            return (
                f"{_PAST.get(kind, kind).upper()}: the {register} record for "
                f"{verdict.get('identifier')} says this work was {_PAST.get(kind, kind)}"
                f"{shown}; not rewritten"
            )
    return None


def _note_for(
    ref: dict[str, Any], verdict: dict[str, Any], record: dict[str, Any] | None
) -> str | None:
    """Why this row is not rewritten, or `None` when it may be."""
    state = verdict["verdict"]
    reason = verdict.get("reason") or ""
    if state == Verdict.DOES_NOT_RESOLVE:
        return f"DOES-NOT-RESOLVE: the register has no record for {verdict.get('identifier')}"
    if state == RowState.NOT_FOUND:
        return "NOT FOUND: no index asked holds a work matching this reference; not rewritten"
    if state == RowState.UNCHECKED:
        return f"UNCHECKED ({reason or 'no reason given'}): could not be checked; not rewritten"
    if state == RowState.INVALID:
        return f"INVALID ({reason or 'no reason given'}): not read as written; not rewritten"
    if state not in (Verdict.MATCHES, Verdict.DIFFERS):
        return None  # NOT COVERED: nothing to say beyond the report
    if record is None or record.get("status") != RecordStatus.FOUND:
        return None
    if verdict.get("title_match") is False:
        shown = (record.get("title") or "")[:120]
        return (
            f"RESOLVES-BUT-DIFFERS: the record for {verdict.get('identifier')} has another "
            f"title ({shown!r}); the identifier may point at another work; not rewritten"
        )
    if _strangers(ref, record, verdict):
        return (
            f"RESOLVES-BUT-DIFFERS: none of the cited authors is among the authors of the record "
            f"for {verdict.get('identifier')}; the entry may cite another work of this title; "
            "not rewritten"
        )
    return _retracted(verdict, record)  # the cited work itself (not another one) was retracted


def _norm_pages(pages: str | None) -> str:
    return re.sub(r"\s*[-\u2010-\u2015]+\s*", "-", pages or "").strip().lower()


def _field_changes(
    ref: dict[str, Any], verdict: dict[str, Any], record: dict[str, Any], upgrade: bool
) -> list[tuple[str, Any, Any]]:
    if verdict.get("title_match") is not True or record.get("status") != RecordStatus.FOUND:
        return []
    out: list[tuple[str, Any, Any]] = []
    year = record.get("year")
    if verdict.get("year_match") is False and year:
        out.append(("year", str(year), ref.get("year") and str(ref["year"])))
    names = _author_names(record)
    if names and (verdict.get("authors_match") is False or _order_differs(ref, record)):
        out.append(("author", names, ref.get("authors")))
    venue = record.get("container_title")
    is_preprint = record.get("register") == "arxiv"
    if venue and not is_preprint and not ref.get("container_title"):
        out.append(("venue", venue, None))
    elif venue and not is_preprint and verdict.get("venue_match") is False:
        out.append(("venue", venue, ref.get("container_title")))
    for name in ("volume", "pages"):
        theirs, ours = record.get(name), ref.get(name)
        if not theirs or is_preprint:
            continue
        same = _norm_pages(theirs) == _norm_pages(ours) if name == "pages" else theirs == ours
        if not same:
            out.append((name, theirs, ours))
    out.extend(_identifier_changes(ref, verdict, record, upgrade))
    return out


def _identifier_changes(
    ref: dict[str, Any], verdict: dict[str, Any], record: dict[str, Any], upgrade: bool
) -> list[tuple[str, Any, Any]]:
    out: list[tuple[str, Any, Any]] = []
    doi = verdict.get("identifier") if verdict.get("id_type") == "doi" else record.get("doi")
    if record.get("register") == "arxiv" and not upgrade:
        doi = None
    claimed = ref.get("doi")
    if doi and not _ARXIV_DOI.match(doi) and not claimed:
        out.append(("doi", doi, None))
    if record.get("register") == "arxiv" and ref.get("arxiv") and upgrade and doi and not claimed:
        out.append(("eprint", ref["arxiv"], None))  # keep the preprint beside its published DOI
    return out


def _author_names(record: dict[str, Any]) -> list[str]:
    """The record's authors as BibTeX `Family, Given` names (the surname rule of the register)."""
    full = record.get("authors") or []
    surnames = record.get("surnames") or []
    if not full or len(full) != len(surnames):
        return []
    names = []
    for name, surname in zip(full, surnames, strict=True):
        if not surname or not name:
            return []
        if name.endswith(surname) and name != surname:
            names.append(f"{surname}, {name[: -len(surname)].strip()}")
        elif name.startswith(surname + " "):  # PubMed's `Smith JA`
            names.append(f"{surname}, {name[len(surname) :].strip()}")
        else:
            names.append(name)
    return names


def _scripts(name: str) -> frozenset[str]:
    """The scripts a name is written in, Latin left out when another is there: `昂温, S.` (a
    Western name transliterated into Han, with Latin initials) is a Han name."""
    found = set()
    for ch in name:
        if ch.isalpha():
            word = unicodedata.name(ch, "").split(" ", 1)[0]
            found.add("HAN" if word == "CJK" else word)
    return frozenset(found - {"LATIN"} or found)


def _same_script(a: str, b: str) -> bool:
    sa, sb = _scripts(a), _scripts(b)
    return not sa or not sb or sa == sb


def _other_script(old: Any, new: Any) -> bool:
    """Whether the register's list would put a name where the entry wrote one in another script
    (romanized `Zhang, Wei` for `张伟`, or the reverse). There is no transliteration oracle, so
    which cited author a register name stands for is unknown across scripts: lists of one length
    are compared place by place, lists of different lengths must be in one script throughout."""
    cited = [str(a) for a in old or []]
    theirs = [str(a) for a in new or []]
    if not cited:
        return False
    if len(cited) == len(theirs):
        return not all(_same_script(a, b) for a, b in zip(cited, theirs, strict=True))
    every = {_scripts(n) for n in cited + theirs} - {frozenset()}
    return len(every) > 1


def _script_note(new: Any, verdict: dict[str, Any], record: dict[str, Any]) -> str:
    register = verdict.get("register") or record.get("register") or "the register"
    shown = "; ".join(str(n) for n in new or [])[:160]
    return (
        f"authors left as written: the {register} record for {verdict.get('identifier')} "
        f"writes names in another script than the entry ({shown}); compare them by hand"
    )


def _order_differs(ref: dict[str, Any], record: dict[str, Any]) -> bool:
    """Same surnames as the register, in another order (v1 reads only the first author)."""
    claimed = [_surname(a) for a in ref.get("authors") or []]
    theirs = [_fold(s) for s in record.get("surnames") or []]
    return bool(claimed) and sorted(claimed) == sorted(theirs) and claimed != theirs


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().strip()


def _surname(name: str) -> str:
    """The surname of a name as cited (`auditor.names.cited_surname`), folded."""
    return _fold(cited_surname(name) or "")


def _strangers(ref: dict[str, Any], record: dict[str, Any], verdict: dict[str, Any]) -> bool:
    """No cited surname is among the record's: then the same title may be another work (a
    generic title such as "Deep learning"), and nothing about the entry is certain. A
    placeholder author list (`John Doe`) is not evidence either way."""
    claimed = {_surname(a) for a in ref.get("authors") or []} - {""}
    theirs = {_fold(s) for s in record.get("surnames") or []}
    if not claimed or not theirs or "authors_placeholder" in (verdict.get("findings") or []):
        return False
    words = {w for s in theirs for w in s.replace("-", " ").split()}
    return not any(c in theirs or c in words for c in claimed)
