"""Title rule micro-benchmark: `title_rule` pair by pair against the column form (#23).

Usage:
  python benchmarks/titles.py [--pairs /tmp/h/title_pairs.parquet] [--repeat 5]

`--pairs` is a Parquet file of the distinct `(claimed, register)` title pairs a compare stage
hands to the title pool (columns `claimed`, `register`; the 1M-row scale run hands over 79,812).
Both forms run in this one process, alternately, `--repeat` times each, with the title caches
(`compare_titles`, `title_words`, the spelling rules) cleared before every run so that neither
finds the other's work; CPU seconds (`time.process_time`), so the ratio means something on a
shared machine. Every decision of the column form is checked against the rule's: the same
`Field`, the score equal to the bit. Prints Markdown.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import pyarrow.parquet as pq

from auditor.compare import forms, title_columns, title_pool, titles
from auditor.compare.v2 import Field

Pairs = tuple[list[str | None], list[str | None]]


def _cold() -> None:
    titles.compare_titles.cache_clear()
    forms.title_words.cache_clear()
    forms._american.cache_clear()


def _old(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return title_pool._decide(claimed, register)


def _new(claimed: Sequence[str | None], register: Sequence[str | None]) -> list[Field]:
    return title_columns.decide_pairs(claimed, register, title_pool._decide)


def _timed(form: Callable[..., list[Field]], pairs: Pairs) -> tuple[float, list[Field]]:
    _cold()
    start = time.process_time()
    decided = form(*pairs)
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
    times: dict[str, list[float]] = {"old": [], "new": []}
    answers: dict[str, list[Field]] = {}
    for k in range(args.repeat):
        order = [("old", _old), ("new", _new)] if k % 2 == 0 else [("new", _new), ("old", _old)]
        for name, form in order:
            seconds, answers[name] = _timed(form, pairs)
            times[name].append(seconds)
    differ = sum(_bits(a) != _bits(b) for a, b in zip(answers["old"], answers["new"], strict=True))
    decided = title_columns.title_decisions(
        table.column("claimed").combine_chunks(), table.column("register").combine_chunks()
    ).decided
    left = int((~decided).sum())
    load = os.getloadavg()[0]
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, "
        f"load {load:.1f}, {len(pairs[0]):,} pairs, {args.repeat} runs each\n"
    )
    print("| form | min CPU s | median CPU s |\n| --- | ---: | ---: |")
    for name in ("old", "new"):
        print(f"| {name} | {min(times[name]):.3f} | {statistics.median(times[name]):.3f} |")
    ratio = statistics.median(times["old"]) / statistics.median(times["new"])
    print(
        f"\nmedian ratio old/new {ratio:.1f}x; left to `title_rule`: {left:,}; "
        f"decisions that differ: {differ}"
    )


if __name__ == "__main__":
    main()
