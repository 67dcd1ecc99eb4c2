"""A references table's cells as the loader's values, over whole columns: trimmed strings,
author lists with their `et al.` flag, four-digit years.

`auditor.load.table` reads Parquet and JSON Lines tables; these are the column kernels it fills
the `references` columns with.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa

# pyarrow.compute is imported in the functions that use it (see `auditor.load.table`).

__all__ = ["clean_authors", "collapse_spaces", "strings", "years"]

_ET_AL = ["others", "et al", "et al.", "et. al.", "etal", "et al..", "and others"]
_ET_AL_TAIL = r"(?i),? et al\.?$"


def strings(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """A column as trimmed strings, blanks null."""
    import pyarrow.compute as pc

    if not pa.types.is_string(column.type) and not pa.types.is_large_string(column.type):
        try:
            column = column.cast(pa.string())
        except pa.ArrowInvalid:
            column = pa.chunked_array(
                [pa.array([_text(v) for v in column.to_pylist()], pa.string())]
            )
    column = column.cast(pa.string())
    trimmed = pc.utf8_trim_whitespace(column) if _may_have_spaces_at_ends(column) else column
    blank = pc.equal(trimmed, "")
    if not pc.any(blank).as_py():
        return trimmed  # nothing to null: no copy of a million titles
    return pc.if_else(blank, pa.scalar(None, pa.string()), trimmed)


# A byte that may begin or end a whitespace character: ASCII space and controls, and any byte
# of a multi-byte character (NBSP, U+2000-U+200A, U+3000 are whitespace too). A string whose
# first and last bytes are none of these is printable ASCII at both ends: nothing to trim.
_MAY_BE_SPACE = np.zeros(256, dtype=bool)
_MAY_BE_SPACE[:0x21] = _MAY_BE_SPACE[0x7F:] = True


def _may_have_spaces_at_ends(column: pa.ChunkedArray) -> bool:
    """Whether trimming may change a string of `column` (`string` type); `False` is certain."""
    from auditor.column_idioms import string_bytes  # with pyarrow.compute, on first use

    for chunk in column.chunks:
        offsets, bytes_ = string_bytes(chunk)
        if bytes_.size == 0:
            continue
        starts, ends = offsets[:-1], offsets[1:]
        filled = ends > starts  # a null slot spanning bytes is checked too: only ever "may"
        if (
            _MAY_BE_SPACE[bytes_[starts[filled]]].any()
            or _MAY_BE_SPACE[bytes_[ends[filled] - 1]].any()
        ):
            return True
    return False


def _text(value: object) -> str | None:
    """A cell Arrow could not cast as text: bytes decoded (bad bytes replaced), else JSON."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return json.dumps(value, default=str)


def clean_authors(column: pa.ChunkedArray) -> tuple[pa.Array, pa.Array]:
    """`(authors, authors_et_al)` of a list or `;`-separated column, as `clean_author_list`
    does per row: names trimmed (and trailing `,;`), empty names and `et al.`/`others` dropped
    (the flag set), `Smith J, et al.` cut to `Smith J`."""
    import pyarrow.compute as pc

    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        lists = column.combine_chunks().cast(pa.list_(pa.string()))
    else:
        lists = pc.split_pattern(strings(column).combine_chunks(), ";")
    n = len(lists)
    if lists.null_count:
        # A null slot may still span values, which `list_parent_indices` would count and
        # `list_flatten` would not: made empty first. (Most tables have none: a quarter second
        # a million rows saved.)
        lists = pc.if_else(pc.is_null(lists), pa.scalar([], pa.list_(pa.string())), lists)
    names = pc.list_flatten(lists)
    rows = pc.list_parent_indices(lists).to_numpy()
    names = pc.utf8_trim_whitespace(pc.utf8_rtrim(pc.utf8_trim_whitespace(names), ",;"))
    # Only a name holding `et` or `others` can be a marker: the rest skip the finer tests.
    maybe = pc.fill_null(pc.match_substring_regex(names, "(?i)et|others"), False)
    at = np.flatnonzero(maybe.to_numpy(zero_copy_only=False))
    flagged = np.zeros(len(names), bool)
    if at.size:
        few = names.take(pa.array(at))
        bare = pc.utf8_lower(pc.utf8_trim_whitespace(pc.utf8_trim(few, "{}")))
        marker = pc.is_in(bare, pa.array(_ET_AL))
        tail = pc.match_substring_regex(few, _ET_AL_TAIL)
        cut = pc.utf8_rtrim(pc.replace_substring_regex(few, _ET_AL_TAIL, ""), " ,")
        few = pc.if_else(marker, pa.scalar("", pa.string()), pc.if_else(tail, cut, few))
        mask = np.zeros(len(names), bool)
        mask[at] = True
        names = pc.replace_with_mask(names, pa.array(mask), few)
        flagged[at] = pc.or_(marker, tail).to_numpy(zero_copy_only=False)
    keep = pc.not_equal(names, "").to_numpy(zero_copy_only=False)
    et_al = np.zeros(n, bool)
    et_al[rows[flagged]] = True
    sizes = np.zeros(n + 1, np.int32)
    sizes[1:] = np.bincount(rows[keep], minlength=n)
    offsets = pa.array(np.cumsum(sizes, dtype=np.int32))
    # `list_flatten` keeps row order, so the kept names are already grouped by row.
    authors = pa.ListArray.from_arrays(offsets, pc.filter(names, pa.array(keep)))
    return authors, pa.array(et_al)


def years(column: pa.ChunkedArray) -> tuple[pa.Array, pa.Array]:
    """`(year, bad)`: an int32 year and a mask of cells that held something else."""
    import pyarrow.compute as pc

    if pa.types.is_integer(column.type) or pa.types.is_floating(column.type):
        values = column.combine_chunks()
        ok = pc.and_(pc.greater_equal(values, 0), pc.less_equal(values, 9999))
        year = pc.if_else(ok, values, pa.scalar(None, values.type)).cast(pa.int32())
        return year, pc.and_(pc.invert(ok), pc.is_valid(values)).fill_null(False)
    text = strings(column).combine_chunks()
    found = pc.extract_regex(text, r"(?:^|\D)(?P<y>\d{4})(?:\D|$)")
    digits = pc.struct_field(found, "y")
    return digits.cast(pa.int32()), pc.and_(pc.is_valid(text), pc.is_null(digits))


#: Runs of whitespace a title collapses to one space (as `" ".join(title.split())` does): two
#: or more, or a single one other than the space itself.
_OTHER_SPACE = (
    r"\t\n\r\f\v\x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}"
    r"\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"
)
_SPACES = f"[ {_OTHER_SPACE}]{{2,}}|[{_OTHER_SPACE}]"


def _may_hold_odd_spaces(title: pa.ChunkedArray) -> bool:
    """Whether a title may match `_SPACES`; `False` is certain. Every `_OTHER_SPACE` is an ASCII
    control or holds bytes above 0x7F, and a run needs two ASCII spaces side by side: a column of
    printable ASCII without two spaces in a row (checked over its bytes, across cell borders
    too) has none, and is not scanned by the regex."""
    from auditor.column_idioms import string_bytes

    for chunk in title.chunks:
        bytes_ = string_bytes(chunk)[1]
        if ((bytes_ < 0x20) | (bytes_ > 0x7E)).any():
            return True
        space = bytes_ == 0x20
        if (space[1:] & space[:-1]).any():
            return True
    return False


def collapse_spaces(title: pa.ChunkedArray) -> pa.ChunkedArray:
    """Runs of `_SPACES` as one space; only the titles that hold one are rewritten (few do, and
    a match scans at twice the speed of a rewrite)."""
    import pyarrow.compute as pc

    if not _may_hold_odd_spaces(title):
        return title
    spaced = pc.fill_null(pc.match_substring_regex(title, _SPACES), False)
    if not pc.any(spaced).as_py():
        return title
    title, spaced = title.combine_chunks(), spaced.combine_chunks()
    fixed = pc.replace_substring_regex(title.filter(spaced), _SPACES, " ")
    return pa.chunked_array([pc.replace_with_mask(title, spaced, fixed)])
