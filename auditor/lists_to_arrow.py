"""Python column lists to Arrow arrays from buffers, without `pa.array`.

`pa.array` on Python objects (or a NumPy array) first asks whether pandas is installed, and that
imports pandas: 0.3-0.8 s, as long as parsing a whole 1 MB bibliography, for a command (`auditor
load`) that never uses it. The loader's columns are only strings, lists of strings (or of
structs of strings), integers and booleans, so they are built here from their buffers (NumPy is
already loaded by pyarrow).
Strings that cannot be UTF-8 (a lone surrogate) have the offending characters replaced by `?`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

__all__ = ["to_array"]

_INT_TYPES = {pa.int64(): np.int64, pa.int32(): np.int32}
_STR_OR_NONE = frozenset({str, type(None)})


def _validity(values: Sequence[object]) -> tuple[pa.Buffer | None, int]:
    nulls = values.count(None) if isinstance(values, list) else sum(v is None for v in values)
    if not nulls:
        return None, 0
    present = np.array(values, dtype=object) != None  # noqa: E711 (elementwise, in C)
    return pa.py_buffer(np.packbits(present, bitorder="little")), nulls


def _texts(values: Sequence[object]) -> list[str]:
    if set(map(type, values)) <= _STR_OR_NONE:
        return [v or "" for v in values]  # type: ignore[misc]
    return [v if isinstance(v, str) else "" if v is None else str(v) for v in values]


def _offsets(lengths: Sequence[int]) -> np.ndarray[Any, np.dtype[np.int32]]:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
    np.cumsum(np.fromiter(lengths, dtype=np.int32, count=len(lengths)), out=offsets[1:])
    return offsets


def _strings(values: Sequence[object]) -> pa.Array:
    texts = _texts(values)
    joined = "".join(texts)
    data = joined.encode("utf-8", "replace")
    if len(data) == len(joined):  # all ASCII: byte lengths are string lengths
        lengths = list(map(len, texts))
    else:
        try:
            encoded = list(map(str.encode, texts))
        except UnicodeEncodeError:  # a lone surrogate
            encoded = [t.encode("utf-8", "replace") for t in texts]
        data = b"".join(encoded)
        lengths = list(map(len, encoded))
    if len(data) >= 2**31:
        return pa.array(texts, type=pa.string())  # too big for 32-bit offsets: let Arrow chunk
    validity, nulls = _validity(list(values))
    return pa.Array.from_buffers(
        pa.string(),
        len(texts),
        [validity, pa.py_buffer(_offsets(lengths)), pa.py_buffer(data)],
        null_count=nulls,
    )


def _string_lists(values: Sequence[object]) -> pa.Array:
    lists = [v if isinstance(v, list | tuple) else [] for v in values]
    flat = [item for sub in lists for item in sub]
    validity, nulls = _validity(list(values))
    return pa.Array.from_buffers(
        pa.list_(pa.string()),
        len(lists),
        [validity, pa.py_buffer(_offsets(list(map(len, lists))))],
        null_count=nulls,
        children=[_strings(flat)],
    )


def _struct_lists(values: Sequence[object], type_: pa.ListType) -> pa.Array:
    """A list of structs of strings (`author_names`): entries are dicts or `None`."""
    lists = [v if isinstance(v, list | tuple) else [] for v in values]
    flat = [item for sub in lists for item in sub]
    struct = type_.value_type
    names = [struct.field(i).name for i in range(struct.num_fields)]
    children = [_strings([d.get(n) if isinstance(d, dict) else None for d in flat]) for n in names]
    inner_validity, inner_nulls = _validity([d if isinstance(d, dict) else None for d in flat])
    inner = pa.StructArray.from_buffers(
        struct, len(flat), [inner_validity], null_count=inner_nulls, children=children
    )
    validity, nulls = _validity(list(values))
    return pa.Array.from_buffers(
        type_,
        len(lists),
        [validity, pa.py_buffer(_offsets(list(map(len, lists))))],
        null_count=nulls,
        children=[inner],
    )


def _is_string_struct_list(type_: pa.DataType) -> bool:
    if not pa.types.is_list(type_) or not pa.types.is_struct(type_.value_type):
        return False
    struct = type_.value_type
    return all(struct.field(i).type == pa.string() for i in range(struct.num_fields))


def _ints(values: Sequence[object], type_: pa.DataType) -> pa.Array:
    numbers = np.fromiter(
        (v if isinstance(v, int) else 0 for v in values), dtype=_INT_TYPES[type_], count=len(values)
    )
    validity, nulls = _validity(list(values))
    return pa.Array.from_buffers(
        type_, len(values), [validity, pa.py_buffer(numbers)], null_count=nulls
    )


def _bools(values: Sequence[object]) -> pa.Array:
    truth = np.fromiter((v is True for v in values), dtype=bool, count=len(values))
    validity, nulls = _validity(list(values))
    bits = pa.py_buffer(np.packbits(truth, bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), len(values), [validity, bits], null_count=nulls)


def _floats(values: Sequence[object]) -> pa.Array:
    numbers = np.fromiter(
        (v if isinstance(v, float | int) else 0.0 for v in values),
        dtype=np.float32,
        count=len(values),
    )
    validity, nulls = _validity(list(values))
    return pa.Array.from_buffers(
        pa.float32(), len(values), [validity, pa.py_buffer(numbers)], null_count=nulls
    )


def _float_structs(values: Sequence[object], type_: pa.StructType) -> pa.Array:
    """A struct of float32 fields (`field_confidence`): entries are dicts or `None`."""
    dicts = [v if isinstance(v, dict) else None for v in values]
    names = [type_.field(i).name for i in range(type_.num_fields)]
    children = [_floats([d.get(n) if d is not None else None for d in dicts]) for n in names]
    validity, nulls = _validity(dicts)
    return pa.StructArray.from_buffers(
        type_, len(dicts), [validity], null_count=nulls, children=children
    )


def _is_float_struct(type_: pa.DataType) -> bool:
    return pa.types.is_struct(type_) and all(
        type_.field(i).type == pa.float32() for i in range(type_.num_fields)
    )


def to_array(values: Sequence[object], type_: pa.DataType) -> pa.Array:
    """`values` (Python objects, `None` for null) as an Arrow array of `type_`.

    Strings, lists of strings, lists of structs of strings, structs of float32, int32/int64 and
    booleans are built from buffers; any other type
    goes through `pa.array`.
    """
    if type_ == pa.string():
        return _strings(values)
    if type_ == pa.list_(pa.string()):
        return _string_lists(values)
    if type_ in _INT_TYPES:
        return _ints(values, type_)
    if type_ == pa.bool_():
        return _bools(values)
    if _is_string_struct_list(type_):
        return _struct_lists(values, type_)
    if _is_float_struct(type_):
        return _float_structs(values, type_)
    return pa.array(values, type=type_)
