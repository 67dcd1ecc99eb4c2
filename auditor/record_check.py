"""The last check before a record row is kept: the shape `RECORDS` and the comparison need.

Every row a register builds (`records.row`) and every row read back from the cache passes
`check_row`. A row that would make Arrow refuse the whole table later (a year beyond 32 bits, a
lone surrogate, a number where a title belongs) raises `MalformedBody` here, inside the unit of
work, so it costs only its own identifier (`UNCHECKED`, reason `malformed_body`) and is never
cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyarrow as pa

from auditor.errors import MalformedBody, Reason
from auditor.tables import RECORDS, RecordStatus

#: The range of the `year` column (`int32`).
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

_REQUIRED = ("register", "id_type", "identifier", "status")
# Once: `Schema.names` builds a new list on every access, and this runs per field of every row.
_NAMES = frozenset(RECORDS.names)
_LISTS = frozenset(f.name for f in RECORDS if pa.types.is_list(f.type))
_INTS = frozenset(f.name for f in RECORDS if pa.types.is_integer(f.type))
_STRUCT_LISTS = frozenset(
    f.name for f in RECORDS if pa.types.is_list(f.type) and pa.types.is_struct(f.type.value_type)
)
_STRUCT_FIELDS = {
    name: frozenset(f.name for f in RECORDS.field(name).type.value_type) for name in _STRUCT_LISTS
}
_INT_LISTS = frozenset(
    f.name for f in RECORDS if pa.types.is_list(f.type) and pa.types.is_integer(f.type.value_type)
)
_STATUSES = frozenset(s.value for s in RecordStatus)


def _bad(field: str, why: str) -> MalformedBody:
    return MalformedBody(f"record field {field!r}: {why}", Reason.MALFORMED_BODY)


def _check_text(field: str, value: object) -> None:
    if not isinstance(value, str):
        raise _bad(field, f"expected text, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad(field, "not valid Unicode (lone surrogate)") from None


def _check_int(field: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(field, f"expected an integer, got {type(value).__name__}")
    if not INT32_MIN <= value <= INT32_MAX:
        raise _bad(field, "out of range")


def check_row(row: Mapping[str, Any]) -> None:
    """Raise `MalformedBody` unless `row` fits the `RECORDS` schema and reads as a record."""
    for name in _REQUIRED:
        if row.get(name) is None:
            raise _bad(name, "missing")
    for name, value in row.items():
        if name not in _NAMES:
            raise _bad(name, "not a record column")
        if value is None:
            continue
        if name in _INTS:
            _check_int(name, value)
        elif name in _STRUCT_LISTS:
            # `updates`: a list of objects whose fields are all text (see `tables.UPDATE`).
            if not isinstance(value, list | tuple):
                raise _bad(name, f"expected a list, got {type(value).__name__}")
            for item in value:
                if not isinstance(item, Mapping):
                    raise _bad(name, f"expected an object, got {type(item).__name__}")
                for key, text in item.items():
                    if key not in _STRUCT_FIELDS[name]:
                        raise _bad(name, f"unknown field {key!r}")
                    if text is not None:
                        _check_text(name, text)
        elif name in _INT_LISTS:
            if not isinstance(value, list | tuple):
                raise _bad(name, f"expected a list, got {type(value).__name__}")
            for item in value:
                _check_int(name, item)
        elif name in _LISTS:
            if not isinstance(value, list | tuple):
                raise _bad(name, f"expected a list, got {type(value).__name__}")
            for item in value:
                _check_text(name, item)
        else:
            _check_text(name, value)
    if row["status"] not in _STATUSES:
        raise _bad("status", f"unknown status {row['status']!r}")


def is_valid(row: object) -> bool:
    """Whether `row` is a dict that passes `check_row`."""
    if not isinstance(row, dict):
        return False
    try:
        check_row(row)
    except MalformedBody:
        return False
    return True


__all__ = ["INT32_MAX", "INT32_MIN", "check_row", "is_valid"]
