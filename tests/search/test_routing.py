"""Which rows a title search may settle, and the order of the indexes asked."""

from __future__ import annotations

import pytest

from auditor.search.routing import (
    GENERAL,
    ROUTE_BIOMED,
    ROUTE_CS,
    ROUTE_CS_NO_DOI,
    ROUTE_OTHER,
    ROUTE_PREPRINT,
    miss_counts,
    route,
)


@pytest.mark.parametrize(
    ("entry_type", "venue", "expected"),
    [
        ("inproceedings", "NeurIPS", ROUTE_CS_NO_DOI),
        ("inproceedings", "International Conference on Learning Representations", ROUTE_CS_NO_DOI),
        ("inproceedings", None, ROUTE_CS_NO_DOI),
        ("inproceedings", "CVPR", ROUTE_CS),
        ("article", "IEEE Transactions on Pattern Analysis and Machine Intelligence", ROUTE_CS),
        ("article", "The Lancet", ROUTE_BIOMED),
        ("JOUR", "Circ Genom Precis Med", ROUTE_BIOMED),
        ("article", "Journal of Economic History", ROUTE_OTHER),
        ("article", "arXiv preprint arXiv:2101.00001", ROUTE_PREPRINT),
        ("misc", "CoRR", ROUTE_PREPRINT),
        (None, "Nature", ROUTE_OTHER),
    ],
)
def test_indexed_entries_are_routed(entry_type, venue, expected) -> None:
    assert route(entry_type, venue) == expected


@pytest.mark.parametrize(
    ("entry_type", "venue"),
    [
        ("book", None),
        ("book", "Lecture Notes in Computer Science"),
        ("incollection", "Handbook of Psychology"),
        ("phdthesis", None),
        ("mastersthesis", None),
        ("techreport", "NASA"),
        ("manual", None),
        ("misc", None),
        ("misc", "Zenodo"),
        ("online", "https://example.org"),
        ("software", None),
        ("standard", "ISO"),
        ("BOOK", None),
        ("CHAP", "Springer"),
        ("THES", None),
        ("RPRT", None),
        ("ELEC", None),
        (None, None),
    ],
)
def test_a_miss_does_not_count_for_works_no_index_holds(entry_type, venue) -> None:
    assert route(entry_type, venue) is None


ROUTES = (ROUTE_CS, ROUTE_CS_NO_DOI, ROUTE_BIOMED, ROUTE_OTHER, ROUTE_PREPRINT)


def test_every_route_starts_general_and_two_indexes_cover_it() -> None:
    for found in ROUTES:
        order = found.order
        assert len(set(order)) == len(order) and "s2" in order and set(order) >= GENERAL
        assert order[0] in GENERAL and "openalex_search" in found.covering
        # NOT FOUND needs two covering "no"s: every route holds at least two covering indexes.
        assert len(found.covering) >= 2 and found.covering <= set(order)


def test_crossref_covers_no_venue_without_dois_and_no_preprint() -> None:
    assert "crossref_search" not in ROUTE_CS_NO_DOI.covering
    assert "crossref_search" not in ROUTE_PREPRINT.covering
    assert "crossref_search" in ROUTE_CS.covering and "dblp" not in ROUTE_OTHER.covering


def test_a_miss_counts_for_latin_titles_of_covered_years() -> None:
    assert miss_counts("Deep learning", 2015) and miss_counts("Deep learning", None)
    assert not miss_counts("On the evolution of random graphs", 1949)
    assert not miss_counts("Молибден-медно-золото-порфировое месторождение", 2000)
    assert not miss_counts("Ψ and the wave function", 2000)


def test_the_criteria_document_publishes_the_routes_and_the_two_index_rule() -> None:
    import json
    from pathlib import Path

    import auditor.compare

    doc = Path(auditor.compare.__file__).parent / "criteria_v2.json"
    rule = json.loads(doc.read_text(encoding="utf-8"))["rules"]["title_search"]
    published = {
        "computer_science_venue": ROUTE_CS,
        "computer_science_venue_without_dois_or_none": ROUTE_CS_NO_DOI,
        "biomedical_venue": ROUTE_BIOMED,
        "preprint_venue": ROUTE_PREPRINT,
        "other_venue": ROUTE_OTHER,
    }
    for name, found in published.items():
        assert tuple(rule["indexes_and_order"][name]) == found.order
        assert set(rule["covering"][name]) == found.covering
    assert "two" in rule["not_found"] and "search_fast_pace" in rule["plan"]
