"""The classify stage: infer, normalize and choose each row's identifier; decide early row states.

Implements the `input_contract` of reference-resolution/v1 (`spec/reference-check-service.json`):

- type inference when no type is given: all digits → `pmid`; `^10\\.\\d{4,9}/\\S+` → `doi`; arXiv
  `YYMM.NNNN(N)` with month 01-12 and optional `vN`, or old style `archive(.XX)/YYMMNNN` → `arxiv`;
- normalization: DOI prefixes (`https://doi.org/`, `http://dx.doi.org/`, `doi:`) stripped and the
  DOI lowercased; `arXiv:` stripped and `vN` dropped (the register's current version is the
  referent; `id_raw` keeps the version for display); PMID digits kept as given;
- an explicit type contradicting the id's form → `INVALID`/`type_contradiction`; an unsupported
  type → `NOT COVERED`/`unsupported_type`; an id of no covered form → `NOT COVERED`/
  `unrecognized_id`; no id at all → `NOT COVERED`/`no_identifier`; a closed leg →
  `NOT COVERED`/`leg_closed`; no title → `INVALID`/`missing_title`.

A row a manuscript cites by identifier alone (`@doi:…`, `@pmid:…` with no bibliography entry;
the load stage makes it with `source_format` `manuscript`, `auditor.load.cited`) has no title.
Under auditor/v2 it is audited by its identifier (decision `cited_by_identifier`): its title is
not required, so it is looked up, or NOT COVERED for a type no register covers. Under
reference-resolution/v1 the title is required of every row, and it is `INVALID`/`missing_title`.

Choosing the primary identifier when an entry carries several: a DOI first (the version of record,
and the DOI system can always be asked), then a PMID, then an arXiv id; a candidate whose leg is
closed is skipped in favour of the next open one, and only when every candidate's leg is closed
is the row `leg_closed`. A DOI under arXiv's prefix (`10.48550/arXiv.X`) is the arXiv id `X`.

Precedence of states: `parse_error` > `type_contradiction` > `missing_title` (all `INVALID`) >
`unsupported_type` > `leg_closed` > `unrecognized_id` > `no_identifier` (`NOT COVERED`).
`classify` reads only columns it writes idempotently, so running it again (say with closed legs)
gives the same table as running it once with those legs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

import pyarrow as pa

from auditor.errors import Reason
from auditor.lists_to_arrow import to_array
from auditor.tables import CRITERIA_V2, DEFAULT_CRITERIA, IdType, RowState, Verdict

__all__ = ["MANUSCRIPT_FORMAT", "PRIORITY", "classify", "infer_type", "normalize_identifier"]

#: The `source_format` of a row the manuscript itself gives (a cited key no bibliography holds,
#: or a citation by identifier alone).
MANUSCRIPT_FORMAT = "manuscript"

#: Candidate order for the primary identifier (see the module docstring).
PRIORITY: tuple[str, ...] = (IdType.DOI.value, IdType.PMID.value, IdType.ARXIV.value)

_DOI_PREFIX_RE = re.compile(
    r"^(?:(?:https?://)?(?:dx\.|www\.)?doi\.org/|doi:\s*|info:doi/|urn:doi:)", re.IGNORECASE
)
_ARXIV_PREFIX_RE = re.compile(
    r"^(?:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:\s*)", re.IGNORECASE
)
_PMID_PREFIX_RE = re.compile(
    r"^(?:(?:https?://)?(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov/|ncbi\.nlm\.nih\.gov/pubmed/)"
    r"|pmid:?\s*)",
    re.IGNORECASE,
)
#: A control character (ESC, NUL from a pasted terminal line) is never part of a DOI: such an
#: id has no covered form, so no register is asked about it and it cannot come back absent.
_DOI_RE = re.compile(r"^10\.\d{4,9}/[^\s\x00-\x1f\x7f]+$")
_PMID_RE = re.compile(r"^\d+$")
_ARXIV_NEW_RE = re.compile(r"^(\d{2}(?:0[1-9]|1[0-2])\.\d{4,5})(v\d+)?$")
_ARXIV_OLD_RE = re.compile(
    r"^([A-Za-z][A-Za-z-]*(?:\.[A-Za-z]{2})?/\d{2}(?:0[1-9]|1[0-2])\d{3})(v\d+)?$"
)
_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_DOI, _PMID, _ARXIV = IdType.DOI.value, IdType.PMID.value, IdType.ARXIV.value
_NO_ID, _UNSUPPORTED = Reason.NO_IDENTIFIER.value, Reason.UNSUPPORTED_TYPE.value
_UNRECOGNIZED, _CONTRADICTION = Reason.UNRECOGNIZED_ID.value, Reason.TYPE_CONTRADICTION.value
_TYPE_ALIASES = {
    "doi": "doi",
    "pmid": "pmid",
    "pubmed": "pmid",
    "arxiv": "arxiv",
    "eprint": "arxiv",
}


def _strip(raw: str) -> str:
    s = raw.strip().strip("<>").strip()
    for prefix in (_DOI_PREFIX_RE, _ARXIV_PREFIX_RE, _PMID_PREFIX_RE):
        m = prefix.match(s)
        if m:
            s = s[m.end() :].strip()
            if prefix is _DOI_PREFIX_RE and "%" in s:
                s = unquote(s)  # doi.org URLs percent-encode reserved characters
            if prefix is not _DOI_PREFIX_RE:
                s = s.rstrip("/")
                if s.lower().endswith(".pdf"):
                    s = s[:-4]
            break
    return s


def infer_type(raw: str) -> tuple[str | None, str | None]:
    """`(id_type, normalized id)` by form alone, or `(None, None)` when no covered form matches."""
    s = _strip(raw)
    if _PMID_RE.match(s):
        return _PMID, s
    if _DOI_RE.match(s):
        m = _ARXIV_DOI_RE.match(s)
        if m:
            arxiv = infer_type(m.group(1))
            if arxiv[0] == _ARXIV:
                return arxiv
        return _DOI, s.lower()
    m = _ARXIV_NEW_RE.match(s) or _ARXIV_OLD_RE.match(s)
    if m:
        return _ARXIV, m.group(1)
    return None, None


@lru_cache(maxsize=1 << 17)
def normalize_identifier(
    raw: str, declared: str | None = None
) -> tuple[str | None, str | None, str | None]:
    """Normalize `raw` (optionally of the `declared` type) to `(id_type, identifier, reason)`.

    On success `reason` is `None`; otherwise `id_type`/`identifier` are `None` and `reason` is
    `no_identifier` (blank), `unsupported_type` (isbn, issn, url, …), `type_contradiction`
    (the form is another covered type) or `unrecognized_id`. Never raises; idempotent:
    `normalize_identifier(identifier, id_type)` gives back the same triple.
    """
    if not isinstance(raw, str) or not raw.strip():
        return None, None, _NO_ID
    want: str | None = None
    if declared is not None and declared.strip():
        want = _TYPE_ALIASES.get(declared.strip().lower())
        if want is None:
            return None, None, _UNSUPPORTED
    id_type, ident = infer_type(raw)
    if id_type is None:
        return None, None, _UNRECOGNIZED
    # an arXiv DOI declared as a DOI is consistent: the DOI names the arXiv record
    arxiv_doi = want == _DOI and id_type == _ARXIV and "10." in raw
    if want is not None and want != id_type and not arxiv_doi:
        return None, None, _CONTRADICTION
    return id_type, ident, None


def _column(table: pa.Table, name: str) -> list[object]:
    values: list[object] = table.column(name).to_pylist()
    return values


def _decide(
    row: tuple[object, ...], closed: frozenset[str], by_identifier: bool = False
) -> tuple[str | None, str | None, str | None, str | None, dict[str, str | None], str | None]:
    """One row → (id_type, identifier, row_state, row_reason, doi/pmid/arxiv columns, id_raw);
    `by_identifier`: the row is audited by its identifier alone (no title required)."""
    parse_error, title, id_raw, declared, *typed = row
    found: dict[str, str | None] = dict.fromkeys(PRIORITY)
    raws: dict[str, str] = {}  # as written, for display (keeps the arXiv version)
    junk: dict[str, str] = {}  # values that did not normalize: kept, so a re-run sees them
    bad: list[str] = []
    for col, value in zip(PRIORITY, typed, strict=True):
        if not isinstance(value, str) or not value.strip():
            continue
        t, ident, reason = normalize_identifier(value, col)
        if t is None:
            junk[col] = value.strip()
            bad.append(reason or _UNRECOGNIZED)
        elif found[t] is None:
            found[t], raws[t] = ident, value.strip()
    generic_reason: str | None = None
    given = id_raw.strip() if isinstance(id_raw, str) else ""
    if given:
        wanted = declared if isinstance(declared, str) else None
        t, ident, generic_reason = normalize_identifier(given, wanted)
        if t is not None and found[t] is None:
            found[t], raws[t] = ident, given
    valid = [t for t in PRIORITY if found[t]]
    chosen = next((t for t in valid if t not in closed), None)
    id_type = chosen or (valid[0] if valid else None)
    ident = found[id_type] if id_type else None
    shown: str | None = given or None
    # `id_raw` shows the chosen identifier as written; an id the user typed explicitly (with
    # `declared_type`) stays as it is, since the type belongs to it and it may explain the reason
    explicit = isinstance(declared, str) and bool(declared.strip())
    stale = not given or normalize_identifier(given)[:2] != (id_type, ident)
    if id_type and stale and not explicit:
        shown = raws.get(id_type, ident)
    # auditor/v2 §cited_by_identifier: a citation by identifier claims no title; none required
    titled = by_identifier or (isinstance(title, str) and bool(title.strip()))
    state, reason = _state(parse_error, titled, generic_reason, bad, bool(valid), chosen)
    columns = {t: found[t] or junk.get(t) for t in PRIORITY}
    return id_type, ident, state, reason, columns, shown


def _state(
    parse_error: object,
    titled: bool,
    generic_reason: str | None,
    bad: list[str],
    valid: bool,
    chosen: str | None,
) -> tuple[str | None, str | None]:
    if chosen is not None and generic_reason is None and not parse_error and titled:
        return None, None  # the common case: an identifier to look up, and a title
    invalid, not_covered = RowState.INVALID.value, Verdict.NOT_COVERED.value
    if isinstance(parse_error, str) and parse_error:
        return invalid, Reason.PARSE_ERROR.value
    if generic_reason == _CONTRADICTION or (not valid and _CONTRADICTION in bad):
        return invalid, _CONTRADICTION
    if not titled:
        return invalid, Reason.MISSING_TITLE.value
    if generic_reason == _UNSUPPORTED and not valid:
        return not_covered, _UNSUPPORTED
    if valid and chosen is None:
        return not_covered, Reason.LEG_CLOSED.value
    if valid:
        return None, None
    if bad or generic_reason == _UNRECOGNIZED:
        return not_covered, _UNRECOGNIZED
    return not_covered, _NO_ID


#: Row reasons set by the load stage itself, which classification keeps.
_LOADER_REASONS = frozenset({Reason.MISSING_ENTRY.value})


def classify(
    table: pa.Table,
    *,
    closed_legs: frozenset[str] = frozenset(),
    criteria: str = DEFAULT_CRITERIA,
) -> pa.Table:
    """Fill id_type, identifier, doi, pmid, arxiv, id_raw, row_state and row_reason of `table`.

    `table` has the `references` schema; `closed_legs` names legs (`doi`, `pmid`, `arxiv`) that
    are switched off; `criteria` decides whether a row a manuscript cites by identifier alone
    needs a title (v1: yes; v2: no, see the module docstring). Pure and idempotent; returns a
    new table of the same schema.

    The common row (one bare DOI or PMID in its own column, nothing else to weigh) is decided
    by Arrow kernels over the whole column; every other row goes through `_decide`, one by one.
    Both give the same answer for the common row (`tests/test_classify.py` checks it).
    """
    closed = frozenset(leg.lower() for leg in closed_legs)
    by_id = criteria == CRITERIA_V2
    if table.num_rows < COLUMN_PATH_ROWS:
        return _write(table, _decide_rows(table, closed, by_id))
    # pyarrow.compute is imported here, not above: 0.03 s a smaller `auditor load` need not pay
    import pyarrow.compute as pc

    fast = _fast_rows(table, closed)
    columns = _fast_columns(table, fast)
    slow = pc.invert(fast)
    slow_at = pc.indices_nonzero(slow)
    if len(slow_at):
        decided = _decide_rows(table.take(slow_at), closed, by_id)
        for name, values in decided.items():
            replacement = to_array(values, pa.string())
            columns[name] = pc.replace_with_mask(columns[name], slow, replacement)
    return _write(table, columns)


def _write(table: pa.Table, columns: dict[str, Any]) -> pa.Table:
    """`table` with `columns` (arrays, or lists of strings) in place of its own."""
    for name, values in columns.items():
        if isinstance(values, list):
            values = to_array(values, pa.string())
        i = table.schema.get_field_index(name)
        table = table.set_column(i, table.schema.field(i), values)
    return table


#: From this many rows the common row is decided over whole columns. Below it the per-row path
#: is faster than the fixed cost of the column path (pyarrow's scalar conversion imports pandas,
#: 0.3-0.8 s, which `auditor load` of one bibliography otherwise never pays).
COLUMN_PATH_ROWS = 20_000


#: A DOI in its canonical form that `normalize_identifier` keeps as it is (lowercased): ASCII,
#: no space, no `<>` to strip, no prefix, not under arXiv's prefix (those go through `_decide`).
_FAST_DOI = r"^10\.[0-9]{4,9}/[!-;=?-~]+$"
_FAST_PMID = r"^[0-9]{1,8}$"


def _blank(column: pa.ChunkedArray) -> pa.ChunkedArray:
    import pyarrow.compute as pc

    return pc.fill_null(pc.equal(pc.utf8_trim_whitespace(column), ""), True)


def _fast_rows(table: pa.Table, closed: frozenset[str]) -> pa.BooleanArray:
    """Rows whose only identifier is a bare DOI (or PMID) in its own column, with a title."""
    import pyarrow.compute as pc

    col = table.column
    plain = pc.and_(
        pc.and_(pc.is_null(col("parse_error")), _blank(col("declared_type"))), _blank(col("arxiv"))
    )
    plain = pc.and_(plain, pc.fill_null(pc.match_substring_regex(col("title"), "[!-~]"), False))
    loader = pa.array(sorted(_LOADER_REASONS), pa.string())
    plain = pc.and_(plain, pc.invert(pc.is_in(col("row_reason"), loader)))
    doi = pc.and_(
        pc.fill_null(pc.match_substring_regex(col("doi"), _FAST_DOI), False),
        pc.invert(pc.fill_null(pc.starts_with(col("doi"), "10.48550/"), False)),
    )
    pmid = pc.fill_null(pc.match_substring_regex(col("pmid"), _FAST_PMID), False)
    # `id_raw` may already name the same identifier (a second run of classify wrote it there).
    raw = col("id_raw")
    no_raw = _blank(raw)
    same_doi = pc.fill_null(
        pc.and_(
            pc.match_substring_regex(raw, _FAST_DOI),
            pc.equal(pc.utf8_lower(raw), pc.utf8_lower(col("doi"))),
        ),
        False,
    )
    same_pmid = pc.fill_null(pc.equal(raw, col("pmid")), False)
    doi = pc.and_(doi, pc.or_(no_raw, same_doi))
    pmid = pc.and_(pmid, pc.or_(no_raw, same_pmid))
    either = pc.or_(
        pc.and_(doi, _blank(col("pmid"))) if _DOI not in closed else pa.scalar(False),
        pc.and_(pmid, _blank(col("doi"))) if _PMID not in closed else pa.scalar(False),
    )
    fast = pc.fill_null(pc.and_(plain, either), False)
    return fast.combine_chunks() if isinstance(fast, pa.ChunkedArray) else fast


def _fast_columns(table: pa.Table, fast: pa.BooleanArray) -> dict[str, pa.Array]:
    """The classify columns as the fast rows have them (other rows: placeholders)."""
    import pyarrow.compute as pc

    none = pa.scalar(None, pa.string())
    dois = table.column("doi").combine_chunks()
    is_doi = pc.and_(fast, pc.fill_null(pc.match_substring_regex(dois, _FAST_DOI), False))
    is_pmid = pc.and_(fast, pc.invert(is_doi))
    doi = pc.utf8_lower(dois)
    pmid = table.column("pmid").combine_chunks().cast(pa.string())
    given = table.column("id_raw").combine_chunks()
    raw = pc.if_else(_blank(given), pc.if_else(is_doi, dois, pmid), given)
    return {
        "id_type": pc.if_else(is_doi, "doi", pc.if_else(is_pmid, "pmid", none)),
        "identifier": pc.if_else(is_doi, doi, pc.if_else(is_pmid, pmid, none)),
        "row_state": pa.nulls(len(fast), pa.string()),
        "row_reason": pa.nulls(len(fast), pa.string()),
        "doi": pc.if_else(is_doi, doi, none),
        "pmid": pc.if_else(is_pmid, pmid, none),
        "arxiv": pa.nulls(len(fast), pa.string()),
        "id_raw": pc.if_else(fast, raw, none),
    }


def _decide_rows(
    table: pa.Table, closed: frozenset[str], by_id: bool = True
) -> dict[str, list[object]]:
    """The classify columns of every row of `table`, decided one by one; `by_id`: a row the
    manuscript cites by identifier alone is audited by it (auditor/v2)."""
    names = ("parse_error", "title", "id_raw", "declared_type", "doi", "pmid", "arxiv")
    cols = [_column(table, n) for n in names]
    out: dict[str, list[object]] = {
        k: [] for k in ("id_type", "identifier", "row_state", "row_reason", "doi", "pmid", "arxiv")
    }
    out["id_raw"] = []
    decided = _column(table, "row_reason")
    formats = _column(table, "source_format")
    for row, before, fmt in zip(zip(*cols, strict=True), decided, formats, strict=True):
        cited_by_id = by_id and fmt == MANUSCRIPT_FORMAT and before not in _LOADER_REASONS
        id_type, ident, state, reason, found, shown = _decide(row, closed, cited_by_id)
        if before in _LOADER_REASONS:  # a row the loader made (a cited key with no entry)
            state, reason = RowState.INVALID.value, before
        out["id_type"].append(id_type)
        out["identifier"].append(ident)
        out["row_state"].append(state)
        out["row_reason"].append(reason)
        out["id_raw"].append(shown)
        for k in ("doi", "pmid", "arxiv"):
            out[k].append(found[k])
    return out
