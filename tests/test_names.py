"""`auditor.names`: v1's literal cut pinned to the criteria, parsing, and v2's tolerant keys."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import auditor
from auditor import names
from auditor.names import ParsedName, name_keys, parse, register_name_keys, v1_surname
from auditor.text import normalize_text
from tests.properties import examples

_CRITERIA = Path(auditor.__file__).parent / "compare" / "criteria.json"


def test_v1_cut_is_the_published_rule_text() -> None:
    """The rule `v1_surname` implements is the one the criteria publish, word for word."""
    rules = json.loads(_CRITERIA.read_text(encoding="utf-8"))["rules"]["authors"]
    assert rules["claimed_surname"] == (
        "part before the first ASCII comma if there is one, else the last whitespace token; "
        "then normalize_text"
    )


@pytest.mark.parametrize(
    ("written", "surname"),
    [
        # issue #22: the literal reading, whatever BibTeX's grammar would call the family name.
        ("Paul S. de Vries", "vries"),
        ("Walderi Monteiro da Silva Junior", "junior"),
        ("Vries, Paul S. de", "vries"),
        ("van der Berg, A.", "van der berg"),
        ("Smith JA", "ja"),
        ("Frank G. Bennett, Jr.", "frank g bennett"),
        ("  Müller ,  Hans", "muller"),
        ("World Health Organization", "organization"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_v1_surname_is_literal(written: str, surname: str) -> None:
    assert v1_surname(written) == surname
    column = names.v1_surname_cut_column(pa.array([written]))
    assert normalize_text(column[0].as_py()) == surname


_ASCII = st.text(
    alphabet=st.sampled_from([chr(i) for i in range(128)] + list(" ,.\t-'\x1c\x1f") * 4),
    max_size=30,
)
_ANY = st.none() | _ASCII | st.text(st.characters(exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_ANY, max_size=12), st.integers(0, 3))
def test_v1_cut_column_is_the_scalar_cut(values: list[str | None], skip: int) -> None:
    arr = pa.array(["pad"] * skip + values, pa.string()).slice(skip)  # a non-zero array offset
    got = names.v1_surname_cut_column(arr).to_pylist()
    assert got == [names.v1_surname_cut(v) for v in values]


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ("Paul S. de Vries", ParsedName("Vries", "Paul S.", "de")),
        ("de la Fontaine, Jean", ParsedName("Fontaine", "Jean", "de la")),
        ("{de la Fontaine}, Jean", ParsedName("{de la Fontaine}", "Jean")),
        ("von Last, Jr, First", ParsedName("Last", "First", "von", "Jr")),
        ("Martin Luther King Jr.", ParsedName("King", "Martin Luther", None, "Jr.")),
        ("{World Health Organization}", ParsedName("{World Health Organization}")),
        ("Aristotle", ParsedName("Aristotle")),
        ("a, b, c, d", ParsedName("a", "c, d", None, "b")),  # too many commas: rest is First
        ("", None),
        (" , ", None),
    ],
)
def test_parse_follows_bibtex(raw: str, parsed: ParsedName | None) -> None:
    assert parse(raw) == parsed


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=60))
def test_parse_never_raises(raw: str) -> None:
    out = parse(raw)
    assert out is None or isinstance(out, ParsedName)
    names.parse_family_given(raw)
    name_keys(raw)
    register_name_keys(raw)


def _meet(claimed: str, register: str) -> bool:
    return bool(name_keys(claimed) & register_name_keys(register))


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        # A family name with or without its particle, in either place.
        ("Paul S. de Vries", "de Vries"),
        ("Paul S. de Vries", "Vries"),
        ("Vries, Paul S. de", "de Vries"),
        ("de Vries, Paul", "Vries"),
        ("Paul de Vries", "De Vries"),
        ("Anna van der Berg", "Berg"),
        ("Berg, Anna van der", "van der Berg"),
        ("A. Berg", "van der Berg"),
        ("Vries, P.", "de Vries"),
        ("P. Vries", "De Vries"),
        ("Ludwig van Beethoven", "Van Beethoven"),
        # Compound Iberian surnames, stored whole, without the particle, or only the agnome.
        ("Walderi Monteiro da Silva Junior", "da Silva Junior"),
        ("Walderi Monteiro da Silva Junior", "Silva Junior"),
        ("Walderi Monteiro da Silva Junior", "Junior"),
        ("Walderi Monteiro da Silva Junior", "Silva"),
        ("da Silva Junior, W. M.", "Silva"),
        ("Silva, W. M.", "da Silva Junior"),
        ("W. M. Silva Junior", "da Silva Junior"),
        ("Silva Junior W", "da Silva"),
        ("Junior, Walderi", "da Silva Junior"),
        ("Gabriel García Márquez", "García Márquez"),
        ("García Márquez, Gabriel", "Márquez"),
        # A suffix in the family field or the given field.
        ("Martin Luther King Jr.", "King"),
        ("King, Martin Luther, Jr.", "King Jr."),
        ("King Jr., Martin Luther", "King"),
        # Hyphen and apostrophe variants.
        ("Anna Foltyn-Dumitru", "Foltyn‐Dumitru"),
        ("Anna Foltyn Dumitru", "Foltyn-Dumitru"),
        ("Dumitru, A.", "Foltyn-Dumitru"),
        ("Conan O'Brien", "OBrien"),
        ("O’Brien, C.", "O'Brien"),
        ("Gabriele D'Angelo", "Angelo"),
        # Initials on one side only.
        ("Smith JA", "Smith"),
        ("J. A. Smith", "Smith"),
        ("Smith, J.", "Smith"),
    ],
)
def test_v2_keys_tolerate_register_storage_both_ways(claimed: str, register: str) -> None:
    assert _meet(claimed, register)


@pytest.mark.parametrize(
    ("claimed", "register"),
    [
        ("John Smith", "Jones"),
        ("de Vries, Paul", "Vos"),
        ("Walderi da Silva Junior", "Santos"),
        ("Anna van der Berg", "van der Waals"),
    ],
)
def test_v2_keys_still_tell_different_people_apart(claimed: str, register: str) -> None:
    assert not _meet(claimed, register)


def test_corporate_and_empty_register_names_have_no_key() -> None:
    assert name_keys(", J.") == frozenset()
    assert register_name_keys("") == frozenset()
    assert register_name_keys(None) == frozenset()
    assert name_keys("   ") == frozenset()


def test_vancouver_cut_reads_trailing_initials_as_given() -> None:
    arr = pa.array(["Smith JA", "J. Smith", "Smith, J.", "van der Berg A", "WHO"])
    got = names.vancouver_surname_cut_column(arr).to_pylist()
    assert got == ["Smith", "Smith", "Smith", "van der Berg", "WHO"]


def test_cited_surname_and_family_first() -> None:
    assert names.cited_surname("Smith JA") == "Smith"
    assert names.cited_surname("Paul S. de Vries") == "Vries"
    assert names.cited_surname("van der Berg, A.") == "van der Berg"
    assert names.cited_surname("  ") is None
    assert names.family_first_surname("Chen Xiaoming") == "Chen"
    assert names.family_first_surname("Chen, X.") == "Chen"
    assert names.first_token("Schmidt RJ") == "Schmidt"
    assert names.last_token("Ashish Vaswani") == "Vaswani"
    assert names.first_token(None) == names.last_token("  ") == ""


def test_public_api_is_small() -> None:
    assert sorted(names.__all__) == [
        "ParsedName",
        "cited_surname",
        "family_first_surname",
        "first_token",
        "last_token",
        "name_keys",
        "parse",
        "parse_family_given",
        "register_name_keys",
        "v1_surname",
        "v1_surname_cut",
        "v1_surname_cut_column",
        "vancouver_surname_cut_column",
    ]
