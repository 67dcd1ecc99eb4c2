"""Title rule micro-benchmark: `title_rule` pair by pair against the column form (#23).

Usage:
  python benchmarks/titles.py [--pairs /tmp/h/title_pairs.parquet] [--repeat 5]

`--pairs` is a Parquet file of the distinct `(claimed, register)` title pairs a compare stage
hands to the title pool (columns `claimed`, `register`; the 1M-row scale run hands over 79,812).
Both forms run in this one process, alternately, `--repeat` times each, with the title caches
(`compare_titles`, `title_words`, the spelling rules) cleared before every run so that neither
finds the other's work; CPU seconds (`time.process_time`), so the ratio means something on a
shared machine. Every decision of the column form is checked against the rule's: the same
`Field`, the score equal to the bit. `old`/`new` take the pairs as lists and answer `Field`s
(`title_pool._decide`, `title_columns.decide_pairs`); `old rows`/`new rows` take the two
columns and fill the compare stage's title `FieldColumn` (the dict of distinct pairs and
`title_rule` as `v2columns._titles_with` had it, against `decide_rows`), checked equal row for
row. Prints Markdown.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from auditor.compare import forms, title_columns, title_pool, titles
from auditor.compare.v2 import Field
from auditor.compare.v2columns import FieldColumn

Pairs = tuple[list[str | None], list[str | None]]


def _cold() -> None:
    titles.compare_titles.cache_clear()
    forms.title_words.cache_clear()
    forms._american.cache_clear()


def _old(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return title_pool._decide(claimed, register)


def _new(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return title_columns.decide_pairs(claimed, register, title_pool._decide)


def _old_rows(claimed: pa.Array, register: pa.Array) -> FieldColumn:
    """The compare stage's title column as it was: distinct pairs by a dict, `title_rule`."""
    pairs = list(zip(claimed.to_pylist(), register.to_pylist(), strict=True))
    index: dict[tuple[str | None, str | None], int] = {}
    slots = [index.setdefault(pair, len(index)) for pair in pairs]
    decided = title_pool._decide([c for c, _ in index], [r for _, r in index])
    out = FieldColumn(len(pairs), Field(True, True, None, 1.0))
    out.set(list(range(len(pairs))), [decided[k] for k in slots])
    return out


def _new_rows(claimed: pa.Array, register: pa.Array) -> FieldColumn:
    """The compare stage's title column now (`v2columns._titles_with` past its copy check)."""
    got = title_columns.decide_rows(claimed, register, title_pool._decide)
    out = FieldColumn(len(claimed), Field(True, True, None, 1.0))
    out.set(got.left.tolist(), got.fields)
    d, plain = got.decisions, np.flatnonzero(got.decisions.decided)
    out.set_compared(plain, d.same[plain], d.kinds()[plain], title_columns.FINDINGS, d.score[plain])
    return out


def _column_bits(column: FieldColumn) -> tuple[object, ...]:
    names = np.array([None, *column.codes], dtype=object)[column.finding + 1]
    return (column.compared.tolist(), column.match().to_pylist(), names.tolist(),
            [s.hex() for s in column.score.tolist()])  # fmt: skip


def _timed(form: Callable[..., Any], given: tuple[Any, Any]) -> tuple[float, Any]:
    _cold()
    start = time.process_time()
    decided = form(*given)
    return time.process_time() - start, decided


def _bits(field: Field) -> tuple[object, ...]:
    score = None if field.score is None else field.score.hex()
    return (field.compared, field.match, field.finding, score)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default="/tmp/h/title_pairs.parquet")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    table = pq.read_table(args.pairs)
    pairs = (table.column("claimed").to_pylist(), table.column("register").to_pylist())
    columns = (table.column("claimed").combine_chunks(), table.column("register").combine_chunks())
    forms_of = {"old": (_old, pairs), "new": (_new, pairs)}
    forms_of |= {"old rows": (_old_rows, columns), "new rows": (_new_rows, columns)}
    times: dict[str, list[float]] = {name: [] for name in forms_of}
    answers: dict[str, Any] = {}
    for k in range(args.repeat):
        for name in sorted(forms_of, reverse=k % 2 == 1):
            form, given = forms_of[name]
            seconds, answers[name] = _timed(form, given)
            times[name].append(seconds)
    differ = sum(_bits(a) != _bits(b) for a, b in zip(answers["old"], answers["new"], strict=True))
    rows_differ = _column_bits(answers["old rows"]) != _column_bits(answers["new rows"])
    decided = title_columns.title_decisions(*columns).decided
    left = int((~decided).sum())
    load = os.getloadavg()[0]
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"load {load:.1f}, {len(pairs[0]):,} pairs, {args.repeat} runs each\n"
    )
    print("| form | min CPU s | median CPU s |\n| --- | ---: | ---: |")
    for name in forms_of:
        print(f"| {name} | {min(times[name]):.3f} | {statistics.median(times[name]):.3f} |")
    ratio = statistics.median(times["old"]) / statistics.median(times["new"])
    rows = statistics.median(times["old rows"]) / statistics.median(times["new rows"])
    print(
        f"\nmedian ratio old/new {ratio:.1f}x (pairs), {rows:.1f}x (rows); left to `title_rule`: "
        f"{left:,}; decisions that differ: {differ}; title columns equal: {not rows_differ}"
    )


if __name__ == "__main__":
    main()
