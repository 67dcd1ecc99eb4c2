"""The emulated-service family: each service answers its own paths, under its own endpoints."""

from __future__ import annotations

import pytest

from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked
from auditor.emulator.services import BASE_PATHS, ENDPOINTS, SERVICE_OF, SERVICES

#: One request per endpoint, as the registers send it.
ASKED: dict[str, tuple[str, dict[str, str]]] = {
    "crossref_work": ("/crossref/works/10.1/x", {}),
    "crossref_filter": ("/crossref/works", {"filter": "doi:10.1/x"}),
    "crossref_search": ("/crossref/works", {"query.bibliographic": "a title"}),
    "datacite_dois": ("/datacite/dois", {"ids": "10.1/x"}),
    "datacite_doi": ("/datacite/dois/10.1/x", {}),
    "esummary": ("/eutils/esummary.fcgi", {"id": "1"}),
    "esearch": ("/eutils/esearch.fcgi", {"term": "x"}),
    "arxiv_query": ("/arxiv/api/query", {"id_list": "1706.03762"}),
    "arxiv_search": ("/arxiv/api/query", {"search_query": "ti:x"}),
    "dblp_search": ("/dblp/search/publ/api", {"q": "x"}),
    "s2_match": ("/s2/graph/v1/paper/search/match", {"query": "x"}),
    "openalex_work": ("/openalex/works/doi:10.1/x", {}),
    "openalex_filter": ("/openalex/works", {"filter": "doi:10.1/x|10.1/y", "per-page": "2"}),
    "openalex_search": ("/openalex/works", {"filter": "title.search:a title"}),
    "doira": ("/doi/doiRA/10.1/x", {}),
    "doi_csl": ("/doi/10.1/x", {}),
    "landing": ("/landing/10.1/x", {}),
    "csl": ("/csl/10.1/x", {}),
    "handle": ("/handle/api/handles/10.1/x", {}),
    "grobid_references": ("/grobid/api/processReferences", {"includeRawCitations": "1"}),
}


def _route(path: str, params: dict[str, str]) -> list[str]:
    asked = Asked(path, params, "", "http://127.0.0.1:1")
    routed = [s.route(Corpus(), asked) for s in SERVICES]
    return [r.endpoint for r in routed if r is not None]


def test_endpoints_are_unique_and_each_has_its_service() -> None:
    assert len(ENDPOINTS) == len(set(ENDPOINTS))
    assert set(ASKED) == set(ENDPOINTS)
    assert all(SERVICE_OF[e] in {s.name for s in SERVICES} for e in ENDPOINTS)


@pytest.mark.parametrize("endpoint", sorted(ASKED))
def test_exactly_one_service_claims_each_request(endpoint: str) -> None:
    assert _route(*ASKED[endpoint]) == [endpoint]


def test_doi_org_s_handle_api_counts_as_the_handle_service() -> None:
    assert _route("/doi/api/handles/10.1/x", {}) == ["handle"]
    assert SERVICE_OF["handle"] == "handle"


def test_a_path_no_service_knows_is_claimed_by_none() -> None:
    assert _route("/nowhere/10.1/x", {}) == []
    assert _route("/crossref/journals", {}) == []


def test_base_paths_are_the_services_prefixes() -> None:
    named = {s.url_setting: s.name for s in SERVICES if s.url_setting}
    assert {setting: f"/{name}" for setting, name in named.items()} == BASE_PATHS
