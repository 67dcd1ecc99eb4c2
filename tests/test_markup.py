"""Markup is not text: register (and claimed) titles lose JATS/HTML/MathML before any rule."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from auditor import tables
from auditor.compare import compare
from auditor.markup import strip_markup, strip_markup_column

# The shape of a real Crossref deposit (10.1101/2020.12.01.406702): face markup with the
# indentation whitespace of the XML it came from.
CROSSREF_TITLE = (
    "Identification of a novel cationic glycolipid in\n                  <i>Streptococcus "
    "agalactiae</i>\n                  that contributes to brain entry and meningitis"
)
PLAIN = (
    "Identification of a novel cationic glycolipid in Streptococcus agalactiae that "
    "contributes to brain entry and meningitis"
)


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        (CROSSREF_TITLE, PLAIN),
        ("H<sub>2</sub>O and CO<sup>2+</sup>", "H2O and CO2+"),
        ("<scp>Dna</scp> repair", "Dna repair"),
        ("<jats:title>A &amp; B</jats:title>", "A & B"),
        ("Rate &#x2013; distortion", "Rate \u2013 distortion"),
        (
            'Bounds for <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:msub>'
            "<mml:mi>L</mml:mi><mml:mn>2</mml:mn></mml:msub></mml:math> norms",
            "Bounds for L2 norms",
        ),
        (
            "A <mml:math><mml:semantics><mml:mi>x</mml:mi><mml:annotation encoding="
            '"application/x-tex">x</mml:annotation></mml:semantics></mml:math> test',
            "A x test",
        ),
        ("p < 0.05 and q > 1", "p < 0.05 and q > 1"),
        ("The &lt;i&gt; element", "The <i> element"),
        ("Plain title", "Plain title"),
        ("", ""),
        (None, None),
    ],
)
def test_strip_markup(raw: str | None, plain: str | None) -> None:
    assert strip_markup(raw) == plain


def test_column_form_agrees_and_keeps_nulls() -> None:
    values = [CROSSREF_TITLE, None, "plain", "a &amp; b", "x<sub>1</sub>"]
    out = strip_markup_column(pa.chunked_array([pa.array(values, pa.string())]))
    assert out.to_pylist() == [strip_markup(v) for v in values]


def _ref(criteria_title: str) -> dict[str, Any]:
    return {
        "row_id": 0,
        "source_path": "t.bib",
        "key": "k",
        "id_type": "doi",
        "identifier": "10.1101/2020.12.01.406702",
        "title": criteria_title,
        "authors": ["Travis Spencer", "Doran KS"],
        "year": 2020,
    }


def _rec() -> dict[str, Any]:
    return {
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1101/2020.12.01.406702",
        "status": "found",
        "title": CROSSREF_TITLE,
        "surnames": ["Spencer", "Doran"],
        "year": 2020,
    }


@pytest.mark.parametrize("criteria", tables.CRITERIA_IDS)
def test_marked_up_crossref_title_matches_the_plain_citation(criteria: str) -> None:
    refs = tables.from_rows([_ref(PLAIN)], tables.REFERENCES)
    recs = tables.from_rows([_rec()], tables.RECORDS)
    row = compare(refs, recs, criteria).to_pylist()[0]
    assert row["title_match"] is True
    assert row["title_register"] == PLAIN
    assert row["criteria_id"] == criteria
