"""`Frank G. Bennett, Jr.`: Bennett with the suffix Jr. under auditor/v2, BibTeX's letter under v1.

By BibTeX's grammar that name's last name is `Frank G. Bennett` and its first name `Jr.`; the
citation means Bennett. The records are real Crossref bodies (`realdata/bodies`): H. K. Hall Jr.'s
1957 JACS paper (10.1021/ja01577a030, CSL) and a 12-author paper with Donald Hora Jr.
(10.1002/jor.1100150407, `/works`), both with `"suffix": "Jr."`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from auditor import tables
from auditor.classify import classify
from auditor.compare import compare, v2
from auditor.load import load_files
from auditor.names import cited_surname, name_keys, parse, v1_surname
from auditor.registers.crossref import work_row
from tests.missing_fixtures import REALDATA, needs

HALL = REALDATA / "bodies" / "csl" / "10.1021_ja01577a030.json"
HORA = REALDATA / "bodies" / "crossref" / "10.1002_jor.1100150407.json"

pytestmark = needs(REALDATA)


def _message(path: Path) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return body.get("message", body)


def _record(path: Path) -> dict[str, Any]:
    message = _message(path)
    return {**work_row(message["DOI"].lower(), message, "-"), "tier": "snapshot"}


def _bib(tmp_path: Path, doi: str, title: str, authors: list[str]) -> list[dict[str, Any]]:
    entries = "".join(
        f"@article{{k{i},\n  author = {{{a}}},\n  title = {{{title}}},\n  doi = {{{doi}}},\n}}\n"
        for i, a in enumerate(authors)
    )
    path = tmp_path / "refs.bib"
    path.write_text(entries, encoding="utf-8")
    table: Any = classify(load_files([str(path)]).table)
    return list(table.to_pylist())


def _verdicts(refs: list[dict[str, Any]], record: dict[str, Any], criteria: str) -> list[Any]:
    out = compare(
        tables.from_rows(refs, tables.REFERENCES),
        tables.from_rows([record], tables.RECORDS),
        criteria,
    )
    return [r["authors_match"] for r in out.to_pylist()]


@pytest.mark.parametrize(
    ("written", "suffix"),
    [
        ("Bennett, Jr., Frank G.", "Jr."),
        ("Frank G. Bennett, Jr.", "Jr."),
        # Google Scholar's BibTeX export: `Jr` closes BibTeX's last name.
        ("Bennett Jr., Frank G.", "Jr."),
        ("Bennett Jr, Frank G.", "Jr"),
    ],
)
def test_both_bibtex_forms_parse_as_bennett_junior(
    tmp_path: Path, written: str, suffix: str
) -> None:
    (row,) = _bib(tmp_path, "10.1/x", "A title", [written])
    assert row["authors"] == [written]  # as written: what v1 reads
    assert row["author_names"] == [
        {"family": "Bennett", "given": "Frank G.", "particle": None, "suffix": suffix}
    ]


def test_bibtex_letter_is_kept_on_request_and_by_v1() -> None:
    literal = parse("Frank G. Bennett, Jr.", literal=True)
    assert literal is not None and (literal.family, literal.given) == ("Frank G. Bennett", "Jr.")
    assert v1_surname("Frank G. Bennett, Jr.") == "frank g bennett"
    literal = parse("King Jr., Martin Luther", literal=True)
    assert literal is not None and (literal.family, literal.suffix) == ("King Jr.", None)


@pytest.mark.parametrize(
    ("written", "family"),
    [
        ("Frank G. Bennett, Jr.", "Bennett"),
        ("Frank G. Bennett Jr.", "Bennett"),
        ("Jean de la Fontaine, III", "Fontaine"),
        # Not the form: one word before the comma, Vancouver initials, or a given name after it.
        ("Bennett, Jr.", "Bennett"),
        ("Smith JA, Jr.", "Smith JA"),
        ("Bennett, Frank G.", "Bennett"),
    ],
)
def test_suffix_after_comma_forms(written: str, family: str) -> None:
    parsed = parse(written)
    assert parsed is not None and parsed.family == family


def test_search_and_keys_take_the_family_name() -> None:
    assert cited_surname("Frank G. Bennett, Jr.") == "Bennett"
    assert cited_surname("Martin Luther King Jr.") == "King"
    assert cited_surname("Smith JA, Jr.") == "Smith JA"  # the part before the comma, as before
    assert cited_surname("King Jr., Martin Luther") == "King"
    assert cited_surname("Jr., Frank") == "Jr."  # one word before the comma is the family
    assert "bennett" in name_keys("Frank G. Bennett, Jr.")


def test_hall_junior_matches_under_v2_and_stays_literal_under_v1(tmp_path: Path) -> None:
    """A one-author paper: v1's literal surname `h k hall` is not the register's `Hall`."""
    message = _message(HALL)
    written = ["H. K. Hall, Jr.", "Hall, Jr., H. K.", "Hall Jr, H. K."]
    refs = _bib(tmp_path, message["DOI"], message["title"], written)
    record = _record(HALL)
    assert _verdicts(refs, record, tables.CRITERIA_V2) == [True, True, True]
    assert _verdicts(refs, record, tables.CRITERIA_V1)[:2] == [False, True]


def test_hora_junior_inside_a_real_list_matches_under_v2() -> None:
    message = _message(HORA)
    written = [
        f"{a['given']} {a['family']}" + (f", {a['suffix']}" if a.get("suffix") else "")
        for a in message["author"]
    ]
    assert "Donald Hora, Jr." in written
    field = v2.authors_rule(written, False, _record(HORA)["surnames"])
    assert field.match is True and field.finding is None


@pytest.mark.parametrize(
    ("picked", "finding"),
    [
        ((0, 1, 2), None),  # the first three, `and others`: how citations shorten a list
        ((0, 2, 3), "authors_middle_missing"),  # Jacks skipped before `and others`
        ((0, 1, 11), "authors_middle_missing"),  # first two and the last, `and others`
    ],
)
def test_middle_author_missing_from_a_real_list(picked: tuple[int, ...], finding: str) -> None:
    """The 12 authors of 10.1002/jor.1100150407 cited as `Family, Given`, some, `and others`."""
    people = _message(HORA)["author"]
    written = [f"{people[i]['family']}, {people[i]['given']}" for i in picked]
    field = v2.authors_rule(written, True, _record(HORA)["surnames"])
    assert field.finding == finding and field.match is (finding is None)
