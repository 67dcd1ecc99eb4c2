"""auditor/v2's field rules over whole columns: vectorized equality first, the rules on the rest.

Most rows of a real bibliography copy the register: their normalized titles are equal, their
surname sequences are the register's, their year is the register's. Those are settled by the
column kernels of v1 (`normalize_distinct`, the surname-sequence check, integer equality) with no
per-row work; only the remaining rows go through the rules of `auditor.compare.v2`, and each
distinct input (a title pair, a venue pair, an author list pair) is decided once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare import v2
from auditor.compare.columns import han_mask, normalize_distinct
from auditor.compare.criteria import same_surname_sequences
from auditor.compare.v2 import Field

__all__ = ["FIELD_ORDER", "V2Fields", "v2_fields"]

#: The order in which a row's findings are listed (its reason is the first).
FIELD_ORDER = ("title", "authors", "venue", "year", "arxiv")

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class V2Fields:
    """Per-row decisions of the found rows, aligned with the input columns."""

    fields: dict[str, list[Field]]

    def match(self, name: str) -> pa.Array:
        return pa.array([f.match for f in self.fields[name]], pa.bool_())

    def findings(self) -> list[list[str]]:
        rows = zip(*(self.fields[n] for n in FIELD_ORDER), strict=True)
        return [[str(f.finding) for f in row if f.finding] for row in rows]


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


def _titles(claimed: pa.Array, register: pa.Array) -> list[Field]:
    n = len(claimed)
    codes, values = normalize_distinct(pa.concat_arrays([claimed, register]))
    nonempty = pc.not_equal(values, "").to_numpy(zero_copy_only=False)
    same = (codes[:n] == codes[n:]) & nonempty[codes[:n]]
    # Two Han titles compare by their exact Chinese-aware form, which normalizing may hide.
    same &= ~(han_mask(claimed) & han_mask(register))
    out: list[Field] = [Field(True, True, None, 1.0)] * n
    rest = np.flatnonzero(~same)
    pairs = list(zip(_pylist(claimed, rest), _pylist(register, rest), strict=True))
    decided = _distinct(pairs, lambda p: v2.title_rule(*p))
    for i, f in zip(rest.tolist(), decided, strict=True):
        out[i] = f
    return out


def _authors(claimed: pa.Array, et_al: pa.Array, register: pa.Array) -> list[Field]:
    n = len(claimed)
    plain = same_surname_sequences(claimed, register)
    plain &= ~pc.fill_null(et_al, False).to_numpy(zero_copy_only=False)
    plain &= pc.fill_null(pc.list_value_length(claimed), 0).to_numpy(zero_copy_only=False) > 0
    out: list[Field] = [Field(True, True)] * n
    rest = np.flatnonzero(~plain)
    keys = [
        (tuple(c or ()), bool(e), tuple(r or ()))
        for c, e, r in zip(
            _pylist(claimed, rest), _pylist(et_al, rest), _pylist(register, rest), strict=True
        )
    ]
    decided = _distinct(keys, lambda k: v2.authors_rule(list(k[0]), k[1], list(k[2])))
    for i, f in zip(rest.tolist(), decided, strict=True):
        out[i] = f
    return out


def _years(
    claimed: pa.Array,
    register: pa.Array,
    register_years: pa.Array,
    arxiv: np.ndarray,
    current_year: int,
) -> list[Field]:
    n = len(claimed)
    c = pc.fill_null(claimed, -1).to_numpy(zero_copy_only=False)
    r = pc.fill_null(register, -2).to_numpy(zero_copy_only=False)
    absent = ~pc.is_valid(claimed).to_numpy(zero_copy_only=False)
    plain = (c == r) & (c <= current_year)
    out: list[Field] = [Field(True, True)] * n
    for i in np.flatnonzero(absent).tolist():
        out[i] = Field(False, None)
    rest = np.flatnonzero(~plain & ~absent)
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
    for i, f in zip(rest.tolist(), decided, strict=True):
        out[i] = f
    return out


def _venues(
    claimed: pa.Array, register: pa.Array, preprint: np.ndarray, by_title: np.ndarray
) -> list[Field]:
    n = len(claimed)
    out: list[Field] = [Field(False, None)] * n
    rest = np.flatnonzero(pc.is_valid(claimed).to_numpy(zero_copy_only=False))
    keys = list(
        zip(
            _pylist(claimed, rest),
            _pylist(register, rest),
            preprint[rest].tolist(),
            by_title[rest].tolist(),
            strict=True,
        )
    )
    decided = _distinct(
        keys,
        lambda k: v2.venue_rule(k[0], k[1], register_is_preprint=k[2], by_title=k[3]),
    )
    for i, f in zip(rest.tolist(), decided, strict=True):
        out[i] = f
    return out


def _arxiv(cited: pa.Array, version: pa.Array, is_arxiv: np.ndarray) -> list[Field]:
    n = len(cited)
    out: list[Field] = [Field(False, None)] * n
    rest = np.flatnonzero(is_arxiv & pc.is_valid(version).to_numpy(zero_copy_only=False))
    for i, c, v in zip(rest.tolist(), _pylist(cited, rest), _pylist(version, rest), strict=True):
        out[i] = v2.arxiv_version_rule(c, v)
    return out


def _preprint(register: pa.Array, work_type: pa.Array, venue: pa.Array) -> np.ndarray:
    arxiv = pc.fill_null(pc.equal(register, "arxiv"), False).to_numpy(zero_copy_only=False)
    kind = pc.fill_null(
        pc.is_in(pc.utf8_lower(work_type), value_set=pa.array(["posted-content", "preprint"])),
        False,
    ).to_numpy(zero_copy_only=False)
    out = arxiv | kind
    rest = np.flatnonzero(~out & pc.is_valid(venue).to_numpy(zero_copy_only=False))
    for i, v in zip(rest.tolist(), _pylist(venue, rest), strict=True):
        out[i] = v2.is_preprint_record(None, None, v)
    result: np.ndarray = out
    return result


def v2_fields(columns: dict[str, pa.Array], current_year: int | None = None) -> V2Fields:
    """The v2 decisions of aligned columns of found rows.

    `columns` holds: title_claimed, title_register (markup removed), authors_claimed,
    authors_et_al, surnames_register, year_claimed, year_register, years_register,
    venue_claimed, venue_register, register, work_type, id_type, id_raw, version.
    """
    year = current_year if current_year is not None else datetime.now(UTC).year
    c = columns
    register = pc.fill_null(c["register"], "")
    is_arxiv = pc.equal(register, "arxiv").to_numpy(zero_copy_only=False)
    by_title = pc.fill_null(pc.equal(c["id_type"], v2.SEARCH_ID_TYPE), False).to_numpy(
        zero_copy_only=False
    )
    preprint = _preprint(register, c["work_type"], c["venue_register"])
    return V2Fields(
        {
            "title": _titles(c["title_claimed"], c["title_register"]),
            "authors": _authors(c["authors_claimed"], c["authors_et_al"], c["surnames_register"]),
            "venue": _venues(c["venue_claimed"], c["venue_register"], preprint, by_title),
            "year": _years(
                c["year_claimed"], c["year_register"], c["years_register"], is_arxiv, year
            ),
            "arxiv": _arxiv(c["id_raw"], c["version"], is_arxiv & ~by_title),
        }
    )
