"""Markup is not text: JATS/HTML/MathML tags and character entities removed from titles.

Crossref deposits titles with JATS face markup (`<i>Streptococcus agalactiae</i>`, `<sub>2</sub>`,
`<scp>`), MathML (`<mml:math>…</mml:math>`) and entities (`&amp;`, `&#x2013;`); CSL and DataCite
answers carry the same. None of it is part of the title the register holds, so it is removed
before any rule reads a title, under every criteria. Tags are removed without inserting a space
(`H<sub>2</sub>O` is `H2O`); a MathML `<annotation>` (a TeX or other copy of the formula) goes
with its content, so the formula is not read twice. Only tag names we know are markup are
removed: a literal `<` in a title (`p < 0.05`) stays text.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from auditor import column_idioms

__all__ = ["strip_markup", "strip_markup_column"]

# Face, structure and math elements of JATS 1.x, HTML inline markup, and any namespaced element
# (`mml:`, `jats:`): the names a register's title markup is made of.
_TAGS = (
    "i|b|u|em|strong|sub|sup|sc|scp|small|span|font|italic|bold|underline|overline|monospace|"
    "roman|sans-serif|strike|s|tt|br|p|title|inline-formula|disp-formula|tex-math|"
    "named-content|styled-content|ext-link|xref|math|mi|mn|mo|ms|mrow|msub|msup|msubsup|mfrac|"
    "msqrt|mroot|mtext|mspace|mstyle|mover|munder|munderover|mtable|mtr|mtd|mfenced|semantics|"
    "a|abbr|cite|q|del|ins|mark|wbr"
)
_TAG = re.compile(
    rf"</?(?:[A-Za-z][\w.-]*:[A-Za-z][\w.-]*|(?:{_TAGS}))(?:\s[^<>]*)?/?>", re.IGNORECASE
)
_ANNOTATION = re.compile(
    r"<(?P<tag>(?:[A-Za-z][\w.-]*:)?annotation(?:-xml)?)\b[^<>]*>.*?</(?P=tag)\s*>",
    re.IGNORECASE | re.DOTALL,
)
# Markup can only be present where one of these characters is.
_MARK = b"<&"


def strip_markup(s: str | None) -> str | None:
    """`s` without title markup and with character entities decoded; `None` stays `None`."""
    if not s or ("<" not in s and "&" not in s):
        return s
    out = _ANNOTATION.sub("", s)
    out = _TAG.sub("", out)
    # Entities last, so an escaped `&lt;i&gt;` (text about a tag) is not taken for a tag.
    out = html.unescape(out)
    return " ".join(out.split()) if out != s else out


def strip_markup_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`strip_markup` over a string column; only strings holding `<` or `&` are touched."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    rows = column_idioms.holding(column, _MARK)
    if rows.size == 0:
        return column
    values = pc.take(column, pa.array(rows)).to_pylist()
    stripped = pa.array([strip_markup(v) for v in values], column.type)
    where = np.arange(len(column), dtype=np.int64)
    where[rows] = len(column) + np.arange(rows.size)
    return pc.take(pa.concat_arrays([column, stripped]), pa.array(where))
