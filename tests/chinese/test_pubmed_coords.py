"""PubMed coordinates: first page and usable coordinates."""

from __future__ import annotations

from auditor.chinese.pubmed_coords import coordinates, first_page


def test_first_page_and_coordinates():
    assert first_page("3967-3971") == "3967"
    assert first_page("e123–e130") == "e123"
    assert coordinates("103", "3967-71", None, None).by_volume_page
    c = coordinates(None, "3967", ["Chen, X."], 2020)
    assert (c.surname, c.year, c.by_author_year) == ("Chen", 2020, True)
