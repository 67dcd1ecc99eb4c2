"""Word edits over many pairs at once: whether two titles' words are a near miss apart.

`titles.word_distance` counts the word edits between two titles with rapidfuzz, one pair at a
time. Over a column of pairs whose words are integer codes (equal codes, equal words), the same
question, at most `NEAR_MISS_MAX_WORDS` edits or not, is answered by Levenshtein's table
computed for all pairs at once, one NumPy operation per cell of the band around its diagonal
(a path that leaves the band has more edits than the bound, so the cells outside it never
decide the answer); the rare long titles go to rapidfuzz on their codes.
"""

from __future__ import annotations

import numpy as np
from rapidfuzz.distance import Levenshtein

from auditor.compare.titles import NEAR_MISS_MAX_WORDS

__all__ = ["near_misses"]


def _padded(offsets: np.ndarray, codes: np.ndarray, which: np.ndarray, width: int) -> np.ndarray:
    """The first `width` codes from the start of each string `which[k]`, one column per
    position. Past a string's end they are the next strings' codes: the band never reads them
    where they count (a cell past either end cannot lead to the cell read for the answer)."""
    at = offsets[which][None, :] + np.arange(width)[:, None]
    padded: np.ndarray = codes[np.minimum(at, codes.size - 1)]
    return padded


def _band(offsets: np.ndarray, codes: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether strings `a[k]` and `b[k]` (at most `NEAR_MISS_MAX_WORDS` words apart in length)
    are at most that many word edits apart: Levenshtein's table, vectorized over the pairs,
    only its cells within that many of the diagonal, each capped at one more."""
    k = NEAR_MISS_MAX_WORDS
    cap = k + 1
    la, lb = np.diff(offsets)[a], np.diff(offsets)[b]
    rows = int(la.max(initial=0))
    codes_a, codes_b = _padded(offsets, codes, a, rows), _padded(offsets, codes, b, rows + k)
    # prev[d] is the cell of row i - 1, column i - 1 + d - k (row 0: j edits from nothing).
    prev = np.full((2 * k + 1, a.size), cap, dtype=np.int16)
    for d in range(k, 2 * k + 1):
        prev[d] = d - k
    answer = np.full(a.size, cap, dtype=np.int16)
    for i in range(1, rows + 1):
        cur = np.full_like(prev, cap)
        for d in range(2 * k + 1):
            j = i + d - k
            if j < 0:
                continue
            if j == 0:
                cur[d] = min(i, cap)
                continue
            cell = prev[d] + (codes_a[i - 1] != codes_b[j - 1])
            if d + 1 <= 2 * k:
                np.minimum(cell, prev[d + 1] + 1, out=cell)
            if d >= 1:
                np.minimum(cell, cur[d - 1] + 1, out=cell)
            np.minimum(cell, cap, out=cur[d])
        done = np.flatnonzero(la == i)
        answer[done] = cur[(lb - la + k)[done], done]
        prev = cur
    near: np.ndarray = answer <= k
    return near


def near_misses(offsets: np.ndarray, codes: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether sequences `a[k]` and `b[k]` (sequence `i` is `codes[offsets[i]:offsets[i + 1]]`,
    none empty) are at most `NEAR_MISS_MAX_WORDS` edits apart, as `word_distance` counts."""
    lengths = np.diff(offsets)
    la, lb = lengths[a], lengths[b]
    near: np.ndarray = np.abs(la - lb) <= NEAR_MISS_MAX_WORDS
    # By length, so that the short titles (most) are not padded to the longest one's length.
    for low, high in ((0, 12), (12, 24), (24, 48), (48, 96)):
        rows = np.flatnonzero(near & (la > low) & (la <= high))
        near[rows] = _band(offsets, codes, a[rows], b[rows])
    # Longer titles, rare, by rapidfuzz on the codes (equal codes, equal words).
    long = np.flatnonzero(near & (la > 96)).tolist()
    words, starts = (codes.tolist(), offsets.tolist()) if long else ([], [])
    cutoff = NEAR_MISS_MAX_WORDS
    for row in long:
        i, j = int(a[row]), int(b[row])
        seq_a, seq_b = words[starts[i] : starts[i + 1]], words[starts[j] : starts[j + 1]]
        near[row] = Levenshtein.distance(seq_a, seq_b, score_cutoff=cutoff) <= cutoff
    return near
