"""auditor/v2's field rules over whole columns: vectorized equality first, the rules on the rest.

Most rows of a real bibliography copy the register: their normalized titles are equal, their
surname sequences are the register's, their year is the register's. Those are settled by the
column kernels of v1 (`normalize_distinct`, the surname-sequence check, integer equality) with no
per-row work; only the remaining rows go through the rules of `auditor.compare.v2`, and each
distinct input (a title pair, a venue pair, an author list pair) is decided once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare import title_columns, title_pool, v2
from auditor.compare.criteria import same_surname_sequences
from auditor.compare.text_columns import han_mask, normalize_distinct
from auditor.compare.v2 import Field

__all__ = ["FIELD_ORDER", "V2Fields", "v2_fields"]

#: The order in which a row's findings are listed (its reason is the first).
FIELD_ORDER = ("title", "authors", "venue", "year", "arxiv")

K = TypeVar("K", bound=Hashable)


class FieldColumn:
    """One field's decisions for every row: a default for all, the rules' answers for some.

    A row's finding is a code into this column's own `codes` (numbered in order of first use;
    -1: none), not a Python list, until the one `ListArray` of the findings is built. Each column
    numbers its own, so the two threads of `v2_fields` share nothing."""

    def __init__(self, n: int, default: Field) -> None:
        self.codes: dict[str, int] = {}
        self.matched = np.full(n, bool(default.match), dtype=bool)
        self.compared = np.full(n, default.match is not None, dtype=bool)
        self.finding = np.full(n, self._code(default.finding), dtype=np.int64)
        self.score = np.full(n, np.nan if default.score is None else default.score)

    def set(self, rows: list[int], decided: list[Field]) -> None:
        """Row `rows[k]` was decided `decided[k]`."""
        if not rows:
            return
        at = np.array(rows, dtype=np.int64)
        self.matched[at] = [bool(f.match) for f in decided]
        self.compared[at] = [f.match is not None for f in decided]
        self.finding[at] = [self._code(f.finding) for f in decided]
        self.score[at] = [np.nan if f.score is None else f.score for f in decided]

    def set_compared(
        self,
        rows: np.ndarray,
        matched: np.ndarray,
        kinds: np.ndarray,
        findings: tuple[str | None, ...],
        score: np.ndarray,
    ) -> None:
        """Rows `rows` were compared: `matched`, finding `findings[kinds[k]]`, `score`."""
        codes = np.array([self._code(f) for f in findings], dtype=np.int64)
        self.compared[rows] = True
        self.matched[rows] = matched
        self.finding[rows] = codes[kinds]
        self.score[rows] = score

    def _code(self, finding: str | None) -> int:
        if finding is None:
            return -1
        return self.codes.setdefault(str(finding), len(self.codes))

    def match(self) -> pa.Array:
        return pa.array(self.matched, mask=~self.compared, type=pa.bool_())

    def scores(self) -> pa.Array:
        return pa.array(self.score, mask=np.isnan(self.score), type=pa.float64())


@dataclass(frozen=True)
class V2Fields:
    """Per-row decisions of the found rows, aligned with the input columns."""

    fields: dict[str, FieldColumn]

    def match(self, name: str) -> pa.Array:
        return self.fields[name].match()

    def _codes(self) -> tuple[np.ndarray, pa.Array]:
        """Rows × fields finding codes, in `FIELD_ORDER` (-1: no finding), and the names they
        index: each field's own codes, shifted past the fields before it."""
        columns: list[np.ndarray] = []
        names: list[str] = []
        shift = 0
        for name in FIELD_ORDER:
            column = self.fields[name]
            columns.append(np.where(column.finding >= 0, column.finding + shift, -1))
            names.extend(column.codes)
            shift += len(column.codes)
        return np.stack(columns, axis=1), pa.array(names, pa.string())

    def findings(self) -> pa.ListArray:
        """Each row's findings as reason codes, in `FIELD_ORDER`."""
        codes, names = self._codes()
        present = codes >= 0
        offsets = np.zeros(len(codes) + 1, dtype=np.int32)
        np.cumsum(present.sum(axis=1), out=offsets[1:])
        # Row-major order keeps each row's findings together and in field order.
        values = names.take(pa.array(codes[present], pa.int64()))
        return pa.ListArray.from_arrays(pa.array(offsets), values)

    def first_finding(self) -> tuple[np.ndarray, pa.Array]:
        """`(differs, reason)`: rows with any finding, and the first finding (null if none)."""
        codes, names = self._codes()
        present = codes >= 0
        differs: np.ndarray = np.asarray(present.any(axis=1))
        first = codes[np.arange(len(codes)), np.argmax(present, axis=1)]
        picked = pa.array(np.maximum(first, 0), mask=~differs, type=pa.int64())
        return differs, names.take(picked) if len(names) else pa.nulls(len(codes), pa.string())


def _distinct(keys: list[K], rule: Callable[[K], Field]) -> list[Field]:
    memo: dict[K, Field] = {}
    out = []
    for key in keys:
        got = memo.get(key)
        if got is None:
            got = memo[key] = rule(key)
        out.append(got)
    return out


def _pylist(column: pa.Array, rows: np.ndarray) -> list[Any]:
    if rows.size == 0:
        return []
    values: list[Any] = pc.take(column, pa.array(rows, pa.int64())).to_pylist()
    return values


def _nonempty_same(claimed: pa.Array, register: pa.Array | None) -> np.ndarray:
    """Per row: the two titles normalize alike and not to nothing (`register=None`: `claimed`
    is compared with itself)."""
    k = len(claimed)
    if k == 0:
        return np.zeros(0, dtype=bool)
    both = claimed if register is None else pa.concat_arrays([claimed, register])
    codes, values = normalize_distinct(both)
    nonempty = pc.not_equal(values, "").to_numpy(zero_copy_only=False)
    same: np.ndarray = nonempty[codes[:k]]
    if register is not None:
        same &= codes[:k] == codes[k:]
    return same


def _titles(claimed: pa.Array, register: pa.Array, rows: np.ndarray, workers: bool) -> FieldColumn:
    # Started first, so that their start-up overlaps the column checks below. Only when asked
    # (`title_workers`): a Dask partition or a service request must not start cores-1 more.
    wanted = workers and len(claimed) >= title_pool.MIN_ROWS
    with title_pool.TitlePool(None if wanted else 0) as pool:
        return _titles_with(claimed, register, rows, pool)


def _titles_with(
    claimed: pa.Array, register: pa.Array, rows: np.ndarray, pool: title_pool.TitlePool
) -> FieldColumn:
    n = len(claimed)
    # An exact copy of the register's title (most rows of a large run) needs no comparing, only
    # the check that it is not empty once normalized: equal strings normalize alike.
    copied = pc.fill_null(pc.equal(claimed, register), False).to_numpy(zero_copy_only=False)
    # A string holding an ASCII letter or digit keeps it through NFKD, lowercasing and the
    # deletion of what is not a word character: it is not empty once normalized.
    alnum = pc.fill_null(pc.match_substring_regex(claimed, "[A-Za-z0-9]"), False)
    plain = copied & alnum.to_numpy(zero_copy_only=False)
    copies, other = np.flatnonzero(copied & ~plain & rows), np.flatnonzero(~copied & rows)
    same = plain.copy()
    same[copies] = _nonempty_same(_rows(claimed, copies), None)
    same[other] = _nonempty_same(_rows(claimed, other), _rows(register, other))
    # Two Han titles compare by their exact Chinese-aware form, which normalizing may hide.
    same &= ~(han_mask(claimed) & han_mask(register))
    same &= ~_beyond_normalizing(claimed, register, copied)
    out = FieldColumn(n, Field(True, True, None, 1.0))
    rest = np.flatnonzero(~same & rows)
    # Each distinct pair once: the plain ones (most) over whole columns, the others by the rule
    # (in the pool's workers when there are enough).
    got = title_columns.decide_rows(_rows(claimed, rest), _rows(register, rest), pool.decide)
    out.set(rest[got.left].tolist(), got.fields)
    d, here = got.decisions, np.flatnonzero(got.decisions.decided)
    out.set_compared(
        rest[here], d.same[here], d.kinds()[here], title_columns.FINDINGS, d.score[here]
    )
    return out


#: What `forms.title_words` drops beyond normalizing (TeX commands, markup and entities, a
#: notice label): it can empty a title (`\\0`, `RETRACTED:`) or change its words, so a row
#: holding any of it in either title is left to the rule.
_BEYOND_NORMALIZING = r"[<&\\$]|(?i:retract|withdrawn|concern)"


def _beyond_normalizing(claimed: pa.Array, register: pa.Array, copied: np.ndarray) -> np.ndarray:
    """Per row: either title holds `_BEYOND_NORMALIZING` (a copy's register title is its
    claimed one: only the others' are scanned)."""
    found = pc.fill_null(pc.match_substring_regex(claimed, _BEYOND_NORMALIZING), False)
    out: np.ndarray = found.to_numpy(zero_copy_only=False).copy()
    other = np.flatnonzero(~copied)
    if other.size:
        theirs = pc.match_substring_regex(_rows(register, other), _BEYOND_NORMALIZING)
        out[other] |= pc.fill_null(theirs, False).to_numpy(zero_copy_only=False)
    return out


def _rows(column: pa.Array, rows: np.ndarray) -> pa.Array:
    picked: pa.Array = pc.take(column, pa.array(rows, pa.int64()))
    return picked


def _authors(
    claimed: pa.Array, et_al: pa.Array, register: pa.Array, rows: np.ndarray
) -> FieldColumn:
    n = len(claimed)
    plain = same_surname_sequences(claimed, register)
    plain &= ~pc.fill_null(et_al, False).to_numpy(zero_copy_only=False)
    plain &= pc.fill_null(pc.list_value_length(claimed), 0).to_numpy(zero_copy_only=False) > 0
    out = FieldColumn(n, Field(True, True))
    rest = np.flatnonzero(~plain & rows)
    keys = [
        (tuple(c or ()), bool(e), tuple(r or ()))
        for c, e, r in zip(
            _pylist(claimed, rest), _pylist(et_al, rest), _pylist(register, rest), strict=True
        )
    ]
    decided = _distinct(keys, lambda k: v2.authors_rule(list(k[0]), k[1], list(k[2])))
    out.set(rest.tolist(), decided)
    return out


def _years(
    claimed: pa.Array,
    register: pa.Array,
    register_years: pa.Array,
    arxiv: np.ndarray,
    current_year: int,
    rows: np.ndarray,
) -> FieldColumn:
    n = len(claimed)
    c = pc.fill_null(claimed, -1).to_numpy(zero_copy_only=False)
    r = pc.fill_null(register, -2).to_numpy(zero_copy_only=False)
    absent = ~pc.is_valid(claimed).to_numpy(zero_copy_only=False)
    plain = (c == r) & (c <= current_year)
    out = FieldColumn(n, Field(True, True))
    out.compared[absent] = False
    out.matched[absent] = False
    rest = np.flatnonzero(~plain & ~absent & rows)
    keys = [
        (cy, ry, tuple(ys or ()), bool(a))
        for cy, ry, ys, a in zip(
            _pylist(claimed, rest),
            _pylist(register, rest),
            _pylist(register_years, rest),
            arxiv[rest].tolist(),
            strict=True,
        )
    ]
    decided = _distinct(keys, lambda k: v2.year_rule(k[0], (k[1], *k[2]), current_year, arxiv=k[3]))
    out.set(rest.tolist(), decided)
    return out


def _venues(
    claimed: pa.Array,
    register: pa.Array,
    preprint: np.ndarray,
    by_title: np.ndarray,
    journal_ref: np.ndarray,
    rows: np.ndarray,
) -> FieldColumn:
    n = len(claimed)
    out = FieldColumn(n, Field(False, None))
    rest = np.flatnonzero(pc.is_valid(claimed).to_numpy(zero_copy_only=False) & rows)
    keys = list(
        zip(
            _pylist(claimed, rest),
            _pylist(register, rest),
            preprint[rest].tolist(),
            by_title[rest].tolist(),
            journal_ref[rest].tolist(),
            strict=True,
        )
    )
    decided = _distinct(
        keys,
        lambda k: (
            v2.journal_ref_rule(k[0], k[1])
            if k[4]
            else v2.venue_rule(k[0], k[1], register_is_preprint=k[2], by_title=k[3])
        ),
    )
    out.set(rest.tolist(), decided)
    return out


def _arxiv(
    cited: pa.Array, version: pa.Array, is_arxiv: np.ndarray, rows: np.ndarray
) -> FieldColumn:
    out = FieldColumn(len(cited), Field(False, None))
    valid = pc.is_valid(version).to_numpy(zero_copy_only=False)
    rest = np.flatnonzero(is_arxiv & valid & rows)
    pairs = zip(_pylist(cited, rest), _pylist(version, rest), strict=True)
    out.set(rest.tolist(), [v2.arxiv_version_rule(c, v) for c, v in pairs])
    return out


def _preprint(register: pa.Array, work_type: pa.Array, venue: pa.Array) -> np.ndarray:
    arxiv = pc.fill_null(pc.equal(register, "arxiv"), False).to_numpy(zero_copy_only=False)
    kind = pc.fill_null(
        pc.is_in(pc.utf8_lower(work_type), value_set=pa.array(["posted-content", "preprint"])),
        False,
    ).to_numpy(zero_copy_only=False)
    # A venue is a preprint server or not whatever the row: decided once per distinct venue.
    encoded = pc.dictionary_encode(venue)
    venues = encoded.dictionary.to_pylist()
    by_venue = np.array([v2.is_preprint_record(None, None, v) for v in venues] + [False])
    index = pc.fill_null(encoded.indices, len(venues)).to_numpy(zero_copy_only=False)
    result: np.ndarray = arxiv | kind | by_venue[index]
    return result


def v2_fields(
    columns: dict[str, pa.Array],
    current_year: int | None = None,
    rows: np.ndarray | None = None,
    title_workers: bool = False,
) -> V2Fields:
    """The v2 decisions of aligned columns, for the rows `rows` marks (all when `None`); the
    other rows get each field's default and mean nothing. `title_workers`: a column of
    `title_pool.MIN_ROWS` or more decides its titles in worker processes too.

    `columns` holds: title_claimed, title_register (markup removed), authors_claimed,
    authors_et_al, surnames_register, year_claimed, year_register, years_register,
    venue_claimed, venue_register, register, work_type, by_title (whether the record was
    found by a title search: booleans), id_raw, version.
    """
    year = current_year if current_year is not None else datetime.now(UTC).year
    c = columns
    if rows is None:
        rows = np.ones(len(c["title_claimed"]), dtype=bool)
    register = pc.fill_null(c["register"], "")
    is_arxiv = pc.equal(register, "arxiv").to_numpy(zero_copy_only=False)
    by_title = np.asarray(c["by_title"], dtype=bool)
    preprint = _preprint(register, c["work_type"], c["venue_register"])
    # The author columns are mostly Arrow kernels, which release the GIL, and the titles mostly
    # Python rules: in two threads they overlap.
    with ThreadPoolExecutor(max_workers=1) as pool:
        authors = pool.submit(
            _authors, c["authors_claimed"], c["authors_et_al"], c["surnames_register"], rows
        )
        titles = _titles(c["title_claimed"], c["title_register"], rows, title_workers)
        authors_decided = authors.result()
    return V2Fields(
        {
            "title": titles,
            "authors": authors_decided,
            "venue": _venues(
                c["venue_claimed"],
                c["venue_register"],
                preprint,
                by_title,
                is_arxiv & ~by_title,
                rows,
            ),
            "year": _years(
                c["year_claimed"], c["year_register"], c["years_register"], is_arxiv, year, rows
            ),
            "arxiv": _arxiv(c["id_raw"], c["version"], is_arxiv & ~by_title, rows),
        }
    )
