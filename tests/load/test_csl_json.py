"""CSL-JSON (Zotero, citation-js, manubot): one row per item, with its line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.load import detect_format, load_files
from auditor.load.csl_json import CslJsonLoader

FIXTURES = Path(__file__).parent / "fixtures"


def _load(text: str) -> list[dict[str, object]]:
    rows, _problems = CslJsonLoader().load(text, "x.json")
    columns = rows.columns
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def test_zotero_export_every_item_a_row() -> None:
    outcome = load_files([str(FIXTURES / "zotero.json")])
    article, preprint, book, broken, after, short = outcome.table.to_pylist()
    assert [r["source_line"] for r in outcome.table.to_pylist()] == [2, 22, 32, 40, 46, 56]
    assert {r["source_format"] for r in outcome.table.to_pylist()} == {"csl_json"}
    assert article["title"] == "Boswellia serrata preparations: a systematic review of trials"
    assert article["authors"] == [
        "Abdel-Tawab, Mona",
        "van der Berg, Jan",
        "Bennett, Jr., Frank G.",
    ]
    assert (article["year"], article["volume"], article["issue"], article["pages"]) == (
        2016,
        "11",
        "3",
        "e0150989",
    )
    # the DOI is the item's own, the PMID from Zotero's Extra; the abstract's DOI is ignored
    assert (article["doi"], article["pmid"], article["identifier"]) == (
        "10.1371/journal.pone.0150989",
        "26957754",
        "10.1371/journal.pone.0150989",
    )
    assert (preprint["id_type"], preprint["identifier"]) == ("arxiv", "2101.00001")
    assert book["authors"] == ["World Health Organization"] and book["year"] == 2022
    assert broken["row_state"] == "INVALID" and "Expecting ',' delimiter" in broken["parse_error"]
    assert (after["title"], after["container_title"], after["year"]) == (
        "The Structure of Ordinary Water",
        "Science",
        1970,
    )
    assert short["doi"] is None and short["row_reason"] == "no_identifier"  # a shortDOI URL
    errors = [(p.line, p.severity) for p in outcome.problems]
    assert errors == [(40, "error")]


def test_single_item_and_zotero_api_shape() -> None:
    item = {"type": "book", "title": "One", "author": [{"family": "Roe"}]}
    assert [r["title"] for r in _load(json.dumps(item))] == ["One"]
    wrapped = json.dumps({"items": [item, {**item, "title": "Two"}]}, indent=1)
    assert [(r["title"], r["source_line"]) for r in _load(wrapped)] == [("One", 3), ("Two", 12)]
    assert _load("[]") == [] and _load("  \n") == []


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[{"title": "a"} {"title": "b"}]', "expected `,` or `]` after an item"),
        ('[{"title": "a"}, {"title": ', "not valid JSON: Expecting value"),
        ('[{"title": "a"}', "the array is not closed"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ("not json at all", "not CSL-JSON: the file is not a JSON array"),
        ('{"tests": {"a": 1}}', "not CSL-JSON: an object without CSL fields"),
        ("[3]", "CSL item is a JSON int, not an object"),
    ],
)
def test_broken_json_is_a_named_row_never_a_traceback(text: str, error: str) -> None:
    rows, problems = CslJsonLoader().load(text, "x.json")
    assert any(error in (e or "") for e in rows.columns["parse_error"])
    assert any(error in p.message and p.severity == "error" for p in problems)


def test_odd_values_are_read_or_left_empty() -> None:
    (row,) = _load(
        json.dumps(
            [
                {
                    "title": {"nested": True},
                    "author": "Doe, Jane",
                    "issued": "2019-05",
                    "volume": True,
                    "editor": [{"family": "Ed"}],
                    "URL": "https://pubs.acs.org/doi/abs/10.1021/ja01577a030",
                    "ISSN": ["0002-7863", "1520-5126"],
                }
            ]
        )
    )
    assert (row["title"], row["authors"], row["year"], row["volume"]) == (
        None,
        ["Doe, Jane"],
        2019,
        None,
    )
    assert (row["doi"], row["issn"]) == ("10.1021/ja01577a030", "0002-7863")


@pytest.mark.parametrize(
    ("name", "head", "fmt"),
    [
        ("refs.json", '[\n  {\n    "id": "a",\n    "type": "book"', "csl_json"),
        ("refs.txt", '\ufeff[{"title": "x", "issued": {}}]', "csl_json"),
        ("refs", '{"DOI": "10.1/x", "title": "x"}', "csl_json"),
        ("refs.bib", '[{"title": "x"}]', "bibtex"),
        # a .txt with no bibliography signature: a reference list
        ("refs.txt", "[Fau86]\n    author: J.W. Goethe\n", "text"),
    ],
)
def test_detected_by_content(name: str, head: str, fmt: str) -> None:
    assert detect_format(name, head) == fmt


def test_a_table_saved_as_a_json_array_is_named_not_silently_thinned() -> None:
    rows, problems = CslJsonLoader().load(
        '[{"title": "T", "authors": ["Doe, J"], "year": 2020, "doi": "10.1/x"}]', "t.json"
    )
    assert rows.columns["title"] == ["T"] and rows.columns["doi"] == [None]
    (problem,) = problems
    assert problem.severity == "warning" and "'authors', 'year', 'doi' ignored" in problem.message
    assert ".jsonl" in problem.message


def test_zotero_better_bibtex_json() -> None:
    export = {
        "config": {"label": "BetterBibTeX JSON", "preferences": {"citekeyFormat": "[auth][year]"}},
        "collections": {},
        "items": [
            {
                "itemType": "journalArticle",
                "title": "Increasing resuscitation provision",
                "publicationTitle": "Circulation",
                "volume": "127",
                "pages": "1342-1350",
                "date": "2013-03",
                "extra": "Citation Key: sasson_2013\nPMID: 23439512",
                "DOI": "10.1161/CIR.0b013e318288b4dd",
                "abstractNote": "See doi:10.9999/abstract.doi",
                "creators": [
                    {"firstName": "Comilla", "lastName": "Sasson", "creatorType": "author"},
                    {"name": "Council on Clinical Cardiology", "creatorType": "author"},
                    {"firstName": "Ed", "lastName": "Itor", "creatorType": "editor"},
                ],
                "notes": [{"note": "criticized in https://doi.org/10.9999/note"}],
                "citationKey": "sasson_2013",
                "key": "H2NJVSNY",
            },
            {
                "itemType": "preprint",
                "title": "Attention over sparse graphs",
                "repository": "arXiv",
                "archiveID": "arXiv:2101.00001",
                "creators": [{"firstName": "Chidi", "lastName": "Okoro", "creatorType": "author"}],
                "date": "2021",
            },
        ],
    }
    article, preprint = _load(json.dumps(export, indent=2))
    assert article["source_line"] == 10 and article["key"] == "sasson_2013"
    assert article["authors"] == ["Sasson, Comilla", "Council on Clinical Cardiology"]
    assert (article["container_title"], article["year"], article["pages"]) == (
        "Circulation",
        2013,
        "1342-1350",
    )
    assert (article["doi"], article["pmid"]) == ("10.1161/CIR.0b013e318288b4dd", "23439512")
    assert (preprint["arxiv"], preprint["entry_type"]) == ("2101.00001", "preprint")
