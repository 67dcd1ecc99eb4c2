"""Search answers in the source tiers: snapshots, the cache, as rows of the `RECORDS` table.

A search answer is kept like a record, so `auditor cache export-snapshot` carries it and an
offline run replays it. Each candidate is one row with `id_type` `title_search`, `register` the
index, and `identifier` `<query key>#<rank>#<candidate id type>:<candidate id>`; an answer that
found nothing is one `not_found` row `<query key>#0#`. In the cache each row sits under
`<query key>#<rank>`, read back rank by rank. The query key is the normalized title, first-author
surname and year (`normalize_text`), so it holds neither `#` nor `|`. Failures to look are
never kept (the cache refuses them), so a re-run asks again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from auditor.registers.interface import RecordRow, SearchAnswer, TitleQuery
from auditor.registers.records import now_iso
from auditor.tables import RECORDS, RecordStatus
from auditor.text import normalize_text
from auditor.transport.cache import RecordCache

#: `id_type` of a search-answer row (never an identifier type of a reference).
SEARCH_ID_TYPE = "title_search"
#: Candidates kept per answer (the registers ask for five).
MAX_KEPT = 10


def query_key(query: TitleQuery) -> str:
    """The normalized key of a query: title, surname and year, `|`-separated."""
    parts = (normalize_text(query.title), normalize_text(query.surname), str(query.year or ""))
    return "|".join(parts)


def to_rows(register: str, key: str, answer: SearchAnswer) -> list[RecordRow]:
    """The `RECORDS` rows that keep `answer` (empty for a failure to look)."""
    if answer.reason is not None:
        return []
    if not answer.candidates:
        return [
            {
                "register": register,
                "id_type": SEARCH_ID_TYPE,
                "identifier": f"{key}#0#",
                "status": str(RecordStatus.NOT_FOUND),
                "retrieved_at": now_iso(),
            }
        ]
    rows: list[RecordRow] = []
    for rank, cand in enumerate(answer.candidates[:MAX_KEPT]):
        kept = {k: v for k, v in cand.items() if k in RECORDS.names}
        own = f"{cand.get('id_type') or ''}:{cand.get('identifier') or ''}"
        kept.update(register=register, id_type=SEARCH_ID_TYPE, identifier=f"{key}#{rank}#{own}")
        rows.append(kept)
    return rows


def _candidate(row: dict[str, Any]) -> tuple[str, int, RecordRow] | None:
    """(query key, rank, candidate with its own id) of a kept row, or None if not one."""
    key, sep, rest = str(row.get("identifier") or "").partition("#")
    rank_text, sep2, own = rest.partition("#")
    if not sep or not sep2 or not rank_text.isdigit():
        return None
    id_type, _, identifier = own.partition(":")
    return key, int(rank_text), {**row, "id_type": id_type or None, "identifier": identifier}


def from_rows(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str], SearchAnswer]:
    """Answers by `(register, query key)` from kept rows (a snapshot's, or the cache's)."""
    found: dict[tuple[str, str], dict[int, RecordRow]] = {}
    empty: set[tuple[str, str]] = set()
    for row in rows:
        if row.get("id_type") != SEARCH_ID_TYPE:
            continue
        parsed = _candidate(row)
        if parsed is None:
            continue
        key, rank, cand = parsed
        where = (str(row.get("register")), key)
        if row.get("status") == RecordStatus.NOT_FOUND:
            empty.add(where)
        elif row.get("status") == RecordStatus.FOUND:
            found.setdefault(where, {})[rank] = cand
    out = {w: SearchAnswer() for w in empty}
    for where, ranked in found.items():
        out[where] = SearchAnswer(candidates=tuple(ranked[r] for r in sorted(ranked)))
    return out


def cached(cache: RecordCache, register: str, version: str, key: str) -> SearchAnswer | None:
    """The cached answer, or None when the cache does not hold it (or holds a broken one)."""
    rows: list[dict[str, Any]] = []
    for rank in range(MAX_KEPT):
        got = cache.get(register, version, f"{key}#{rank}")
        if got is None:
            break
        rows.append(got)
        if got.get("status") == RecordStatus.NOT_FOUND:
            break
    answers = from_rows(rows)
    return answers.get((register, key))


def keep(cache: RecordCache, register: str, version: str, key: str, answer: SearchAnswer) -> None:
    """Store a definitive answer in the cache (a failure to look is not stored)."""
    for rank, row in enumerate(to_rows(register, key, answer)):
        cache.put(register, version, f"{key}#{rank}", row)
