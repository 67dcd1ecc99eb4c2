"""Surname cuts of a name as written: criteria v1's literal rules, and what other stages take.

`v1_surname` is criteria v1 §authors.claimed_surname ("part before the first ASCII comma if there
is one, else the last whitespace token; then normalize_text"), also over whole columns;
`first_token`/`last_token` are v1's PubMed and arXiv register rules. `cited_surname` (search
queries, `fix`) also reads Vancouver `Smith JA`; `family_first_surname` is the Chinese waterfall's.
Arrow is imported by the column functions only, so the scalar rules cost nothing at start-up.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from auditor.names.parse import SUFFIXES, suffix_after_comma
from auditor.text import normalize_text

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "INITIALS",
    "cited_surname",
    "family_first_surname",
    "first_token",
    "last_token",
    "v1_surname",
    "v1_surname_cut",
    "v1_surname_cut_column",
    "vancouver_surname_cut_column",
]

#: Initials standing for given names: `J`, `JA`, `J.A.`, `J.-P.`.
INITIALS = re.compile(r"^(?:[A-Z]\.?){1,3}$|^(?:[A-Z]\.-?)+[A-Z]?\.?$")


# criteria v1 §authors.claimed_surname: "part before the first ASCII comma if there is one, else
# the last whitespace token; then normalize_text" (pinned to criteria.json by tests/test_names.py).


def v1_surname_cut(name: str | None) -> str:
    """The raw claimed-surname part of a name as written (before `normalize_text`)."""
    if not name:
        return ""
    if "," in name:
        return name.split(",", 1)[0]
    tokens = name.split()
    return tokens[-1] if tokens else ""


def v1_surname(name: str | None) -> str:
    """criteria v1 §authors.claimed_surname of one name as written; `""` when nothing is left."""
    return normalize_text(v1_surname_cut(name)) if name else ""


# `str.split()` whitespace on ASCII, as an RE2 class (its `\s` lacks \v and \x1c-\x1f).
_WS_CLASS = r"\t\n\x0b\x0c\r\x1c-\x1f "
_LAST_TOKEN = f"(?P<token>[^{_WS_CLASS}]*)[{_WS_CLASS}]*$"


def v1_surname_cut_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`v1_surname_cut` over a whole string column (null → `""`), with no Python loop on ASCII."""
    # Imported here: the scalar rules (fix, search, loaders) need no Arrow at start-up.
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(column.type):
        column = column.cast(pa.string())
    values = pc.fill_null(column, "")
    if len(values) == 0:
        return pa.array([], pa.string())
    # Arrow's string kernels (a split and one RE2 pass); the leftmost match of `_LAST_TOKEN` is the
    # last token. They agree with `str.split` on ASCII only: other strings take the Python rule.
    comma = pc.match_substring(values, ",")
    commas = pc.sum(comma).as_py() or 0
    # Each kernel only where some name needs it: a list of `Surname, Given` names has no name
    # to take the last token of (the regex is the costlier of the two).
    before = pc.list_element(pc.split_pattern(values, ",", max_splits=1), 0) if commas else None
    last = (
        pc.struct_field(pc.extract_regex(values, _LAST_TOKEN), [0])
        if commas < len(values)
        else None
    )
    out: pa.Array = (
        pc.if_else(comma, before, last) if before is not None and last is not None
        else before if before is not None else last
    )  # fmt: skip
    other = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if other.size == 0:
        return out
    done = [v1_surname_cut(v) for v in pc.take(values, pa.array(other)).to_pylist()]
    where = np.arange(len(values), dtype=np.int64)
    where[other] = len(values) + np.arange(other.size)
    return pc.take(pa.concat_arrays([out, pa.array(done, pa.string())]), pa.array(where))


_VANCOUVER = r"^([^,]*\S)\s+((?:[A-Z]\.?){1,3})$"


def vancouver_surname_cut_column(names: pa.Array) -> pa.Array:
    """`v1_surname_cut_column` after reading Vancouver `Smith JA` as `Smith, JA`, over a null-free
    string column: auditor/v2's fast path for lists that are the register's exactly."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    # A name with a comma is cut before its first comma whether or not the pattern rewrites it
    # (`X, A.` can only become `X,, A.`), and normalizes alike: only names without one are run
    # through the regex (one C++ pass).
    bare = np.flatnonzero(~pc.match_substring(names, ",").to_numpy(zero_copy_only=False))
    if bare.size:
        rewritten = pc.replace_substring_regex(
            pc.take(names, pa.array(bare)), pattern=_VANCOUVER, replacement=r"\1, \2"
        )
        mask = np.zeros(len(names), dtype=bool)
        mask[bare] = True
        names = pc.replace_with_mask(names, pa.array(mask), rewritten)
    return v1_surname_cut_column(names)


def cited_surname(name: str | None) -> str | None:
    """The surname of a name as cited, as written: the part before a comma, the words before
    trailing Vancouver initials (`Smith JA`), else the last word (`Frank G. Bennett, Jr.` and
    `Frank G. Bennett Jr.` and `King Jr., Martin Luther` → `Bennett`, `King`); `None` when none
    is left.
    Search queries and `fix` use it."""
    if not name or not name.strip():
        return None
    text = name.strip()
    # `Frank G. Bennett, Jr.`: Bennett (v1's literal cut stays `v1_surname_cut`'s).
    text = suffix_after_comma(text) or text
    head, comma, rest = text.partition(",")
    head_words = head.split()
    if comma and len(head_words) >= 2 and head_words[-1].lower() in SUFFIXES:
        return " ".join(head_words[:-1])  # `King Jr., Martin Luther` is King
    words = text.split()
    while "," not in text and len(words) >= 2 and words[-1].lower() in SUFFIXES:
        words.pop()  # `Martin Luther King Jr.` is King
        text = " ".join(words)
    if "," not in text and len(words) >= 2 and INITIALS.match(words[-1]):
        return " ".join(words[:-1])
    cut = v1_surname_cut(text).strip()
    return cut or None


def family_first_surname(name: str | None) -> str | None:
    """The part before a comma, else the first word: a Chinese name romanised family first
    (`Chen Xiaoming`, PubMed's `Chen X`), as the waterfall's `[1au]` query needs it."""
    text = (name or "").strip()
    if "," in text:
        return text.split(",", 1)[0].strip() or None
    words = text.split()
    return words[0] if words else None


def first_token(name: str | None) -> str:
    """criteria v1 register rule for PubMed `authors[].name`: the first whitespace token."""
    tokens = name.split() if isinstance(name, str) else []
    return tokens[0] if tokens else ""


def last_token(name: str | None) -> str:
    """criteria v1 register rule for arXiv `<author><name>`: the last whitespace token."""
    tokens = name.split() if isinstance(name, str) else []
    return tokens[-1] if tokens else ""
