"""The DataCite register: JSON:API parsing, the register rules, echoes, 404 as a referral."""

from __future__ import annotations

import json
from typing import Any

import pytest

from auditor.compare.register_fields import csl_surnames, csl_year, datacite_surnames, datacite_year
from auditor.errors import MalformedBody, Reason, Unreachable
from auditor.registers.csl import CslRegister, parse_csl_reply
from auditor.registers.datacite import DataciteRegister, parse_doi, parse_doi_list
from auditor.transport.net import Response

# The shape api.datacite.org serves (lupo's DataciteDoiSerializer), trimmed.
ATTRIBUTES = {
    "doi": "10.5281/zenodo.8242099",
    "identifiers": [],
    "creators": [
        {
            "name": "Willighagen, Lars",
            "nameType": "Personal",
            "givenName": "Lars",
            "familyName": "Willighagen",
            "affiliation": [],
            "nameIdentifiers": [],
        },
        {"name": "Puchkov, Vasily Georgievich", "nameType": "Personal"},
        {"name": "Zenodo Team", "nameType": "Organizational"},
    ],
    "titles": [
        {"title": "Schildwantsen", "titleType": "TranslatedTitle", "lang": "nl"},
        {"title": "Shield bugs (nymphs)"},
    ],
    "publisher": "Zenodo",
    "container": {},
    "publicationYear": 2023,
    "types": {"resourceTypeGeneral": "Dataset", "citeproc": "dataset"},
    "relatedIdentifiers": [
        {
            "relationType": "IsVersionOf",
            "relatedIdentifier": "10.5281/zenodo.8242098",
            "relatedIdentifierType": "DOI",
        },
        {
            "relationType": "IsObsoletedBy",
            "relatedIdentifier": "10.5281/zenodo.9000000",
            "relatedIdentifierType": "DOI",
        },
    ],
    "language": "en",
    "state": "findable",
}


def _resource(doi: str, **changes: Any) -> dict[str, Any]:
    return {"id": doi, "type": "dois", "attributes": {**ATTRIBUTES, "doi": doi, **changes}}


def _response(body: Any, status: int = 200, content_type: str = "application/json") -> Response:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Response(status, {"content-type": content_type}, raw, "https://api.datacite.org/dois")


def test_a_record_in_the_real_shape() -> None:
    doi = "10.5281/zenodo.8242099"
    row = parse_doi(doi, _response({"data": _resource(doi)}))
    assert row["status"] == "found" and row["register"] == "datacite"
    assert row["title"] == "Shield bugs (nymphs)"  # the main title, not the translated one
    assert row["surnames"] == ["Willighagen", "Puchkov", ""]
    assert row["authors"][:2] == ["Lars Willighagen", "Puchkov, Vasily Georgievich"]
    assert row["year"] == 2023
    assert row["container_title"] == "Zenodo" and row["agency"] == "DataCite"
    assert [(u["type"], u["doi"]) for u in row["updates"]] == [
        ("obsoleted", "10.5281/zenodo.9000000")
    ]


def test_a_batch_holds_only_what_was_asked() -> None:
    asked = ["10.5281/zenodo.1", "10.5281/zenodo.2", "10.5281/zenodo.3"]
    body = {"data": [_resource("10.5281/ZENODO.2"), _resource("10.5281/zenodo.1")]}
    rows = parse_doi_list(asked, _response(body))
    assert set(rows) == {"10.5281/zenodo.1", "10.5281/zenodo.2"}
    with pytest.raises(MalformedBody) as info:
        parse_doi_list(asked[:1], _response({"data": [_resource("10.5281/zenodo.7")]}))
    assert info.value.reason is Reason.WRONG_ECHO
    twice = {"data": [_resource(asked[0]), _resource(asked[0])]}
    with pytest.raises(MalformedBody):
        parse_doi_list(asked, _response(twice))


@pytest.mark.parametrize(
    "body",
    [
        b"<html>maintenance</html>",
        {"errors": [{"status": "500"}]},
        {"data": {"id": "10.5281/zenodo.1"}},
        {"data": "nope"},
    ],
)
def test_wrong_shapes_are_failures_to_look(body: Any) -> None:
    with pytest.raises(MalformedBody):
        parse_doi("10.5281/zenodo.1", _response(body))


def test_a_404_is_a_referral_to_the_doi_system() -> None:
    register = DataciteRegister()
    assert register.referred({"status": "not_found", "reason": "not_in_datacite"})
    assert not register.referred({"status": "not_found", "reason": "not_found"})
    assert DataciteRegister.settled_by == "doi"


def test_register_rules() -> None:
    assert datacite_year({"publicationYear": "2019"}) == 2019
    assert datacite_year({"publicationYear": "２０１９"}) is None
    assert datacite_year({"publicationYear": True}) is None
    assert datacite_year({}) is None
    assert datacite_surnames({"creators": [{"name": "Hiro Tanaka"}, "x", {"name": 3}]}) == [
        "Tanaka",
        "",
    ]
    assert csl_surnames({"author": [{"family": " Rossi "}, {"literal": "WHO"}]}) == ["Rossi", ""]
    assert csl_year({"issued": {"date-parts": [["2021", 5]]}}) == 2021
    assert csl_year({"issued": {"date-parts": [[None]]}}) is None


def test_csl_for_an_agency_and_no_csl() -> None:
    doi = "10.3280/ecag2022oa13000"
    body = {
        "DOI": doi.upper(),
        "title": "Farm income",
        "author": [{"family": "Rossi", "given": "G."}],
        "issued": {"date-parts": [[2022]]},
    }
    csl = "application/vnd.citationstyles.csl+json"
    row = parse_csl_reply(doi, _response(body, content_type=csl), "mEDRA")
    assert (row["status"], row["agency"], row["surnames"], row["year"]) == (
        "found",
        "mEDRA",
        ["Rossi"],
        2022,
    )
    # A landing page for the CSL Accept: the agency serves no CSL (never a record, never absence).
    for reply in (
        _response(b"<html></html>", content_type="text/html"),
        _response(b"", status=406, content_type="text/plain"),
    ):
        with pytest.raises(Unreachable) as info:
            parse_csl_reply(doi, reply, "mEDRA")
        assert info.value.reason is Reason.NO_CSL
    register = CslRegister()
    for reason in ("no_csl", "unsafe_redirect"):
        assert register.referred({"status": "unreachable", "reason": reason})
    assert not register.referred({"status": "unreachable", "reason": "timeout"})
