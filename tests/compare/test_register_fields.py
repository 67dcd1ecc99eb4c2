"""Tests of the criteria's register-side rules (`auditor.compare.register_fields`).

Bodies are small dicts in the shapes of real Crossref `/works`, PubMed esummary and arXiv Atom
records (including the undated `[[null]]` Crossref records that exist in the wild).
"""

from __future__ import annotations

from typing import Any

import pytest

from auditor.compare.register_fields import (
    arxiv_surnames,
    arxiv_year,
    crossref_surnames,
    crossref_year,
    pubmed_surnames,
    pubmed_year,
)


def _dp(*parts: Any) -> dict[str, Any]:
    return {"date-parts": [list(parts)]}


ALL_DATES = {
    "published": _dp(2012, 3, 21),
    "issued": _dp(2011),
    "published-online": _dp(2010, 1),
    "published-print": _dp(2009),
    "created": _dp(2008, 5, 1),
}


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        ((), 2012),
        (("published",), 2011),
        (("published", "issued"), 2010),
        (("published", "issued", "published-online"), 2009),
        (("published", "issued", "published-online", "published-print"), 2008),
        (tuple(ALL_DATES), None),
    ],
)
def test_crossref_year_precedence_falls_through_each_key(
    drop: tuple[str, ...], expected: int | None
) -> None:
    message = {k: v for k, v in ALL_DATES.items() if k not in drop}
    assert crossref_year(message) == expected


def test_crossref_undated_parts_fall_through() -> None:
    # 10.1109/icdcsw.2003.1203662-like: issued [[null]], no published; only created is dated.
    message = {"issued": {"date-parts": [[None]]}, "created": _dp(2004, 6, 22)}
    assert crossref_year(message) == 2004
    assert crossref_year({"issued": {"date-parts": [[]]}, "created": _dp(2015)}) == 2015
    assert crossref_year({"published": {"date-parts": [["2012"]]}, "issued": _dp(2013)}) == 2013
    assert crossref_year({"published": {"date-parts": [[True]]}, "issued": _dp(2013)}) == 2013
    assert crossref_year({"published": "2012", "issued": None}) is None


@pytest.mark.parametrize(
    ("summary", "expected"),
    [
        ({"pubdate": "2024 Mar", "sortpubdate": "2023/03/01 00:00"}, 2024),
        ({"pubdate": "Spring 2019", "sortpubdate": "2019/03/01 00:00"}, 2019),
        ({"pubdate": "", "sortpubdate": "2018/01/01 00:00"}, 2018),
        ({"sortpubdate": "2017/01/01 00:00"}, 2017),
        ({"pubdate": "２０２４ Mar", "sortpubdate": "2024/03/01 00:00"}, 2024),
        ({"pubdate": "201", "sortpubdate": None}, None),
        ({"uid": "40482261", "error": "cannot get document summary"}, None),
    ],
)
def test_pubmed_year(summary: dict[str, Any], expected: int | None) -> None:
    assert pubmed_year(summary) == expected


def test_arxiv_year() -> None:
    assert arxiv_year("2017-06-12T17:57:34Z") == 2017
    assert arxiv_year(None) is None
    assert arxiv_year("June 2017") is None


def test_crossref_surnames_keep_positions() -> None:
    message = {
        "author": [
            {"given": "Ashish", "family": "Vaswani", "sequence": "first"},
            {"name": "The ATLAS Collaboration"},
            {"given": "Enrique S.", "family": "Quintana-Ortí"},
            "not an object",
        ]
    }
    assert crossref_surnames(message) == ["Vaswani", "", "Quintana-Ortí"]
    assert crossref_surnames({}) == []
    assert crossref_surnames({"author": None}) == []


def test_pubmed_surnames_first_token() -> None:
    summary = {
        "authors": [
            {"name": "Schmidt RJ", "authtype": "Author"},
            {"name": "Bayrak-Toydemir P", "authtype": "Author"},
            {"name": "van der Berg A", "authtype": "Author"},
            {"name": "CARDIoGRAM Consortium", "authtype": "CollectiveName"},
            {"name": ""},
        ]
    }
    assert pubmed_surnames(summary) == ["Schmidt", "Bayrak-Toydemir", "van", "CARDIoGRAM", ""]


def test_arxiv_surnames_last_token() -> None:
    assert arxiv_surnames(["Ashish Vaswani", "Aidan N. Gomez", "  ", None, "Łukasz Kaiser"]) == [
        "Vaswani",
        "Gomez",
        "",
        "",
        "Kaiser",
    ]
