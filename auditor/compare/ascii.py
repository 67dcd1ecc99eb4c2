"""Kernels for ASCII string columns: `normalize_text` and token splitting.

On ASCII the criteria's text rules are plain byte maps (NFKD and combining marks do nothing,
lowercase is A–Z → a–z, letters and numbers are `[a-z0-9]`, whitespace is what `str.isspace`
accepts), so they run as NumPy passes over an Arrow string array's data buffer: one per rule, no
per-row work. Callers route non-ASCII strings elsewhere; for them the output here is meaningless.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from auditor.column_idioms import string_bytes

__all__ = ["normalize_ascii", "split_normalized"]

# Byte classes: 0 deleted, 1 kept (letter or digit), 2 whitespace.
_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[
    np.frombuffer(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", np.uint8)
] = 1
# str.isspace on ASCII: \t \n \v \f \r, the information separators \x1c-\x1f, and space.
_WS_BYTES = np.frombuffer(b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ", np.uint8)
_CLASS[_WS_BYTES] = 2
_LOWER = np.arange(256, dtype=np.uint8)
_LOWER[65:91] += 32
# bytes.translate tables: `_KEEP_TABLE` maps kept bytes to 1 and deleted ones to 0; `_LOWER_TABLE`
# lowercases and turns every whitespace byte into a space, and `_DELETE` lists the deleted bytes.
_KEEP_TABLE = (_CLASS != 0).astype(np.uint8).tobytes()
_LOWER_TABLE = np.where(_CLASS == 2, np.uint8(32), _LOWER).astype(np.uint8).tobytes()
_DELETE = bytes(np.flatnonzero(_CLASS == 0).astype(np.uint8).tolist())


def _build(lengths: np.ndarray, data: np.ndarray) -> pa.Array:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.StringArray.from_buffers(
        len(lengths), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data.tobytes())
    )


def _row_counts(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per row, how many bytes of `mask` are set (rows given by `offsets`).

    Counted from the positions of the cleared bytes, which are few (punctuation, spare spaces).
    """
    dropped = np.flatnonzero(~mask)
    rows = offsets.size - 1
    owner = np.searchsorted(offsets, dropped, side="right") - 1
    return np.diff(offsets) - np.bincount(owner, minlength=rows)[:rows]


def _offsets(lengths: np.ndarray) -> np.ndarray:
    out = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


def normalize_ascii(arr: pa.Array) -> pa.Array:
    """`normalize_text` of every (ASCII) string of a null-free `string` array."""
    offsets, data = string_bytes(arr)
    raw = data.tobytes()
    # One C pass each: the byte classes, and the lowered bytes with deleted ones gone.
    kept = np.frombuffer(raw.translate(_KEEP_TABLE), dtype=np.bool_)
    lengths = _row_counts(kept, offsets)
    text = np.frombuffer(raw.translate(_LOWER_TABLE, _DELETE), dtype=np.uint8)
    offsets = _offsets(lengths)
    # Collapse and left-trim: a space survives only right after a letter of its row.
    space = text == 32
    keep = ~space
    keep[1:] |= ~space[:-1]
    keep[offsets[:-1][lengths > 0]] &= ~space[offsets[:-1][lengths > 0]]
    lengths = _row_counts(keep, offsets)
    text = text[keep]
    offsets = _offsets(lengths)
    # Right-trim: what is left of a trailing run is one space, the last byte of its row.
    last = offsets[1:][lengths > 0] - 1
    trailing = last[text[last] == 32]
    keep = np.ones(text.size, dtype=bool)
    keep[trailing] = False
    lengths[np.searchsorted(offsets, trailing, side="right") - 1] -= 1
    return _build(lengths, text[keep])


def split_normalized(arr: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Tokens of normalized strings (single spaces, trimmed; any UTF-8): (entry of each token,
    tokens), without copying strings into lists. A space byte never occurs inside a multi-byte
    UTF-8 character, so splitting bytes at 0x20 splits characters correctly."""
    offsets, data = string_bytes(arr)
    space = data == 32
    starts = ~space
    starts[1:] &= space[:-1]
    nonempty = np.diff(offsets) > 0
    starts[offsets[:-1][nonempty]] = True
    first = np.flatnonzero(starts)
    entry = np.searchsorted(offsets, first, side="right") - 1
    # Before token k of entry e lie k tokens and, in all, k - (nonempty entries before e) spaces.
    nonempty_before: np.ndarray = np.cumsum(nonempty) - nonempty
    new_starts = first - (np.arange(first.size) - nonempty_before[entry])
    token_offsets = np.append(new_starts, data.size - int(space.sum())).astype(np.int32)
    tokens = pa.StringArray.from_buffers(
        first.size, pa.py_buffer(token_offsets.tobytes()), pa.py_buffer(data[~space].tobytes())
    )
    return entry.astype(np.int64), tokens
