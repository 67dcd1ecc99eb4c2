"""`near_misses` answers what `word_distance` answers: at most two word edits apart or not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.compare import word_edits
from auditor.compare.titles import NEAR_MISS_MAX_WORDS, word_distance
from auditor.compare.word_edits import near_misses
from tests.properties import examples

Sequences = list[list[int]]


def _flat(sequences: Sequences) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(sequences) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sequences], out=offsets[1:])
    return offsets, np.array([c for s in sequences for c in s], dtype=np.int64)


def _check(sequences: Sequences, a: list[int], b: list[int]) -> list[int]:
    """The pairs where `near_misses` and `word_distance` disagree."""
    offsets, codes = _flat(sequences)
    got = near_misses(offsets, codes, np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))
    words = [tuple(str(c) for c in s) for s in sequences]
    want = [
        word_distance(words[i], words[j], cap=3) <= NEAR_MISS_MAX_WORDS
        for i, j in zip(a, b, strict=True)
    ]
    return [k for k, (g, w) in enumerate(zip(got.tolist(), want, strict=True)) if g != w]


_SEQUENCES = st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=30), min_size=2, max_size=25)


@settings(max_examples=examples(500), deadline=None)
@given(_SEQUENCES, st.data())
def test_random_sequences_of_few_codes(sequences: Sequences, data: st.DataObject) -> None:
    index = st.integers(0, len(sequences) - 1)
    pairs = data.draw(st.lists(st.tuples(index, index), min_size=1, max_size=40))
    assert _check(sequences, [i for i, _ in pairs], [j for _, j in pairs]) == []


def test_every_length_band_and_the_long_titles() -> None:
    rng = np.random.default_rng(3)
    sequences: Sequences = []
    for length in (1, 2, 3, 11, 12, 13, 24, 25, 48, 49, 96, 97, 130):
        base = rng.integers(0, 4, length).tolist()
        for edits in range(4):
            changed = list(base)
            for _ in range(edits):
                at = int(rng.integers(0, len(changed) + 1))
                kind = int(rng.integers(0, 3))
                if kind == 0 or not changed:
                    changed.insert(at, 9)
                elif kind == 1:
                    del changed[at % len(changed)]
                else:
                    changed[at % len(changed)] = 8
            sequences += [base, changed or [7]]
    a = list(range(0, len(sequences), 2))
    assert _check(sequences, a, [i + 1 for i in a]) == []
    assert _check(sequences, a[1:], a[:-1]) == []


def test_the_check_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(word_edits, "NEAR_MISS_MAX_WORDS", 1)
    assert _check([[1, 2, 3], [1, 9, 8]], [0], [1]) == [0]
