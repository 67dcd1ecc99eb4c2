"""DataCite REST (JSON:API): `/dois?ids=a,b&page[size]=n` and `/dois/{doi}`.

As api.datacite.org answers: `ids` is a comma list matched case-insensitively; without
`page[size]` a page holds 25 records (lupo's default), at most 1,000; a DOI it does not hold is
missing from `data` (the list) or a JSON:API 404 `{"errors": [...]}` (the single record). Each
record is `{"id": doi, "type": "dois", "attributes": {...}}` with the DOI lower-cased.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, mangle

#: lupo's page size when `page[size]` is absent, and its cap.
DEFAULT_PAGE = 25
MAX_PAGE = 1000

JSON_API = "application/vnd.api+json; charset=utf-8"

_NOT_FOUND = {
    "errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]
}


def ids(params: Mapping[str, str]) -> list[str]:
    """The DOIs of an `ids=` query, in order, blanks dropped."""
    return [d.strip() for d in params.get("ids", "").split(",") if d.strip()]


def _record(corpus: Corpus, doi: str, wrong_echo: set[str]) -> dict[str, Any]:
    key = doi.lower()
    attributes = copy.deepcopy(corpus.datacite[key])
    echo = mangle(key) if key in wrong_echo else key
    attributes["doi"] = echo
    return {"id": echo, "type": "dois", "attributes": attributes, "relationships": {}}


def _page_size(params: Mapping[str, str]) -> int:
    raw = params.get("page[size]", "")
    return min(int(raw), MAX_PAGE) if raw.isdigit() else DEFAULT_PAGE


def dois(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """`GET /dois?ids=…`: the held records among `ids`, one page of them."""
    asked = ids(params)
    held = list(dict.fromkeys(d.lower() for d in asked if d.lower() in corpus.datacite))
    size = _page_size(params)
    data = [_record(corpus, d, wrong_echo) for d in held[:size]]
    pages = -(-len(held) // size) if size else 0
    body = {
        "data": data,
        "meta": {"total": len(held), "totalPages": pages, "page": 1},
        "links": {"self": "/dois"},
    }
    return json_reply(body, content_type=JSON_API)


def doi(corpus: Corpus, name: str, wrong_echo: set[str]) -> Reply:
    """`GET /dois/{doi}`: the record, or the JSON:API 404."""
    if name.lower() not in corpus.datacite:
        return json_reply(_NOT_FOUND, status=404, content_type=JSON_API)
    return json_reply({"data": _record(corpus, name, wrong_echo)}, content_type=JSON_API)


class DataciteService(EmulatedService):
    """`/datacite`: `GET /dois?ids=…` and `GET /dois/{doi}`."""

    name = "datacite"
    url_setting = "datacite_url"
    endpoints = ("datacite_dois", "datacite_doi")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """The list endpoint first, then one DOI."""
        path, params = asked.path, asked.params
        if path in ("/datacite/dois", "/datacite/dois/"):
            asked_ids = ids(params)
            return Routed("datacite_dois", asked_ids, lambda w: dois(corpus, params, w))
        if path.startswith("/datacite/dois/"):
            d = path.removeprefix("/datacite/dois/")
            return Routed("datacite_doi", [d], lambda w: doi(corpus, d, w))
        return None
