"""Updates read from records already fetched (Crossref, PubMed, DataCite shapes) and their items."""

from __future__ import annotations

from typing import Any

import pytest

from auditor.checklist import update_items
from auditor.registers.updates import crossref_updates, datacite_updates, pubmed_updates

RETRACTION_WATCH = {
    "updated": {"date-parts": [[2020, 3, 4]], "date-time": "2020-03-04T00:00:00Z"},
    "DOI": "10.1000/notice.1",
    "type": "retraction",
    "source": "retraction-watch",
    "label": "Retraction",
    "record-id": 12345,
}


def test_crossref_updated_by_in_the_real_shape() -> None:
    # Shape of realdata crossref/10.1371_journal.pone.0033693.json
    message = {
        "DOI": "10.1371/journal.pone.0033693",
        "updated-by": [
            {
                "DOI": "10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda",
                "type": "correction",
                "label": "Correction",
                "source": "publisher",
                "updated": {
                    "date-parts": [[2012, 5, 8]],
                    "date-time": "2012-05-08T00:00:00Z",
                    "timestamp": 1336435200000,
                },
            },
            RETRACTION_WATCH,
        ],
    }
    got = crossref_updates(message, "10.1371/journal.pone.0033693")
    assert got == [
        {
            "type": "correction",
            "relation": "updated_by",
            "date": "2012-05-08",
            "doi": "10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda",
            "pmid": None,
            "source": "publisher",
        },
        {
            "type": "retraction",
            "relation": "updated_by",
            "date": "2020-03-04",
            "doi": "10.1000/notice.1",
            "pmid": None,
            "source": "retraction-watch",
        },
    ]


def test_a_self_new_version_is_not_reported() -> None:
    # Shape of realdata crossref/10.1371_journal.ppat.1008184.json
    me = "10.1371/journal.ppat.1008184"
    entry = {
        "DOI": me,
        "type": "new_version",
        "label": "New version",
        "source": "publisher",
        "updated": {"date-parts": [[2020, 1, 30]]},
    }
    message = {
        "updated-by": [entry],
        "update-to": [entry],
        "relation": {"new_version": [{"id-type": "doi", "id": me, "asserted-by": "object"}]},
    }
    assert crossref_updates(message, me) == []


def test_a_withdrawal_under_the_articles_own_doi_is_kept() -> None:
    me = "10.1016/j.x.2020.1"
    message = {"updated-by": [{"DOI": me.upper(), "type": "withdrawal", "source": "publisher"}]}
    (got,) = crossref_updates(message, me)
    assert (got["type"], got["doi"], got["date"]) == ("withdrawal", me, None)


def test_a_retraction_notice_says_what_it_retracts() -> None:
    message = {
        "update-to": [
            {
                "DOI": "10.1000/retracted.work",
                "type": "retraction",
                "source": "publisher",
                "updated": {"date-parts": [[2019, 7]]},
            }
        ]
    }
    (got,) = crossref_updates(message, "10.1000/notice")
    assert got["relation"] == "update_to"
    assert got["date"] == "2019-07"


@pytest.mark.parametrize(
    "bad",
    [
        {"updated-by": "retraction"},
        {"updated-by": [None, 3, {"type": 7}, {"type": "bogus"}]},
        {"updated-by": [{"type": "retraction", "updated": {"date-parts": [["x"]]}}]},
        {"relation": {"retraction": "nope"}},
        {"relation": []},
    ],
)
def test_wrong_shapes_never_raise(bad: dict[str, Any]) -> None:
    for update in crossref_updates(bad, "10.1/x"):
        assert update["type"] == "retraction"
        assert update["date"] is None


def test_pubmed_retracted_publication_names_its_notice() -> None:
    summary = {
        "uid": "9500320",
        "pubtype": ["Journal Article", "Retracted Publication"],
        "references": [
            {
                "refsource": "Lancet. 2010 Feb 6;375(9713):445",
                "reftype": "Retraction in",
                "pmid": 20137807,
                "note": "",
            },
            {"refsource": "Lancet. 1998;351:611", "reftype": "Comment in", "pmid": 9500316},
        ],
    }
    assert pubmed_updates(summary) == [
        {
            "type": "retraction",
            "relation": "updated_by",
            "date": "2010",
            "doi": None,
            "pmid": "20137807",
            "source": "pubmed",
        }
    ]


def test_pubmed_pubtypes_without_references() -> None:
    got = pubmed_updates({"pubtype": ["Retracted Publication"], "references": []})
    assert [(u["type"], u["relation"], u["pmid"]) for u in got] == [
        ("retraction", "updated_by", None)
    ]
    notice = pubmed_updates({"pubtype": ["Retraction of Publication"]})
    assert [(u["type"], u["relation"]) for u in notice] == [("retraction", "update_to")]
    erratum = pubmed_updates({"pubtype": ["Published Erratum"]})
    assert [(u["type"], u["relation"]) for u in erratum] == [("erratum", "update_to")]
    assert pubmed_updates({"pubtype": ["Journal Article"], "references": "x"}) == []


def test_datacite_related_identifiers() -> None:
    me = "10.5281/zenodo.2"
    attributes = {
        "relatedIdentifiers": [
            {
                "relationType": "IsObsoletedBy",
                "relatedIdentifier": "https://doi.org/10.5281/ZENODO.3",
                "relatedIdentifierType": "DOI",
            },
            {
                "relationType": "IsVersionOf",
                "relatedIdentifier": "10.5281/zenodo.1",
                "relatedIdentifierType": "DOI",
            },
            {
                "relationType": "IsNewVersionOf",
                "relatedIdentifier": me,
                "relatedIdentifierType": "DOI",
            },
            {
                "relationType": "IsObsoletedBy",
                "relatedIdentifier": "x",
                "relatedIdentifierType": "URL",
            },
        ]
    }
    got = datacite_updates(attributes, me)
    assert [(u["type"], u["relation"], u["doi"]) for u in got] == [
        ("obsoleted", "updated_by", "10.5281/zenodo.3")
    ]


def _verdict(
    updates: list[dict[str, Any]], verdict: str = "RESOLVES-AND-MATCHES"
) -> dict[str, Any]:
    return {
        "row_id": 4,
        "source_path": "refs.bib",
        "source_line": 9,
        "key": "k",
        "verdict": verdict,
        "id_type": "doi",
        "identifier": "10.1/x",
        "register": "crossref",
        "tier": "live",
        "updates": updates,
    }


def _update(kind: str, relation: str = "updated_by", **extra: Any) -> dict[str, Any]:
    base = {"type": kind, "relation": relation, "date": None, "doi": None, "pmid": None}
    return {**base, "source": "publisher", **extra}


def test_retraction_is_p0_even_when_every_field_matches() -> None:
    items = update_items({}, _verdict([_update("retraction", date="2010-02-06", doi="10.1/n")]))
    (item,) = items
    assert (item["priority"], item["reason_code"]) == ("P0", "work_retracted")
    assert item["text"] == (
        "The cited work was retracted on 2010-02-06; notice: doi:10.1/n; pending human check."
    )
    assert item["outcome"] == "RESOLVES-AND-MATCHES"
    assert item["links"] == ["https://doi.org/10.1/x"]


def test_priorities_by_update_kind() -> None:
    updates = [
        _update("withdrawal", pmid="123"),
        _update("expression_of_concern", date="2021-01-01"),
        _update("correction"),
        _update("erratum"),
        _update("new_version", doi="10.1/y"),
        _update("retraction", "update_to", doi="10.1/work"),
    ]
    got = {
        i["reason_code"]: (i["priority"], i["text"]) for i in update_items({}, _verdict(updates))
    }
    assert set(got) == {
        "work_retracted",
        "work_under_concern",
        "work_corrected",
        "cited_update_notice",
    }
    assert got["work_retracted"][0] == "P0"
    assert "withdrawn (the register gives no date); notice: PMID 123" in got["work_retracted"][1]
    assert got["work_under_concern"][0] == "P1"
    assert got["work_corrected"][0] == "P3"
    assert "correction" in got["work_corrected"][1] and "erratum" in got["work_corrected"][1]
    assert got["cited_update_notice"][0] == "P1"
    assert "doi:10.1/work" in got["cited_update_notice"][1]


def test_no_updates_no_items() -> None:
    assert update_items({}, _verdict([])) == []
    assert update_items({}, {**_verdict([]), "updates": None}) == []
    assert update_items({}, _verdict([_update("new_version", doi="10.1/z")])) == []
