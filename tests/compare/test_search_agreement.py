"""`auditor.compare.agreement`: is a search hit the cited work?"""

from __future__ import annotations

from auditor.compare.agreement import AuthorsAgreement, YearAgreement, agreement
from auditor.compare.titles import TitleAgreement

TITLE = "Combinatorial Optimization for Panoptic Segmentation: A Fully Differentiable Approach"
AUTHORS = ["Ahmed Abbas", "Paul Swoboda"]


def test_same_work_in_another_form_is_strong() -> None:
    got = agreement(TITLE.upper(), ["Abbas, A.", "Swoboda P"], 2021, TITLE + ".", AUTHORS, 2021)
    assert got.title is TitleAgreement.SAME
    assert got.authors is AuthorsAgreement.SAME and got.year is YearAgreement.SAME
    assert got.strong


def test_near_miss_with_the_same_first_author_is_the_cited_work() -> None:
    near = TITLE.replace("Panoptic", "Semantic")
    got = agreement(near, AUTHORS, 2021, TITLE, AUTHORS, 2021)
    assert got.title is TitleAgreement.NEAR and got.strong


def test_near_miss_by_other_authors_is_not() -> None:
    near = TITLE.replace("Panoptic", "Semantic")
    got = agreement(near, ["Wei Seo", "Tamara Fu"], 2021, TITLE, AUTHORS, 2021)
    assert got.title is TitleAgreement.NEAR
    assert got.authors is AuthorsAgreement.DIFFERENT and not got.strong


def test_a_similar_topic_is_not_the_cited_work() -> None:
    got = agreement(
        "Toward Calibrated Multi-Modal Retrieval with Active Learning",
        ["Wei Seo"],
        2021,
        "Calibrated Retrieval for Multi-Modal Active Learning Systems",
        ["Wei Seo"],
        2021,
    )
    assert got.title is TitleAgreement.DIFFERENT and not got.strong


def test_short_same_title_needs_an_author() -> None:
    assert not agreement(
        "Introduction", ["Ann Lee"], 2020, "Introduction", ["Bo Chen"], 2020
    ).strong
    assert agreement("Introduction", ["Ann Lee"], 2020, "Introduction", ["A. Lee"], 2020).strong


def test_missing_fields_are_unknown_not_errors() -> None:
    got = agreement(None, [], None, TITLE, AUTHORS, 2021)
    assert got.title is TitleAgreement.EMPTY and not got.strong
    assert got.authors is AuthorsAgreement.UNKNOWN and got.year is YearAgreement.UNKNOWN


def test_family_names_from_the_index() -> None:
    got = agreement(
        TITLE, ["Anna van der Berg"], 2021, TITLE, [], 2022, candidate_surnames=["van der Berg"]
    )
    assert got.authors is AuthorsAgreement.SAME and got.year is YearAgreement.NEAR
