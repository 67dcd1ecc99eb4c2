"""OpenAlex `/works`: a DOI filter, a title search, and one work by DOI.

- `GET /works?filter=doi:A|B&per-page=n`: a list answer `{"meta": {count, db_response_time_ms,
  page, per_page, groups_count}, "results": [work…], "group_by": []}`; absent DOIs are missing.
- `GET /works?filter=title.search:words` or `?search=words`: the same shape, ranked, each work
  with a `relevance_score`; no shared word answers an empty `results`.
- `GET /works/doi:{doi}` (or `/works/https://doi.org/{doi}`): the work, or 404 JSON.
- Another filter, or `per-page` above 200, is OpenAlex's 403 `Invalid query parameters error.`
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.openalex_works import Works, works
from auditor.emulator.reply import Reply, json_reply, mangle

#: OpenAlex caps `per-page` at 200 and `filter=doi:` at 50 ORed values (100 in newer docs).
MAX_PER_PAGE = 200
MAX_OR_VALUES = 100
_PREFIXES = ("https://doi.org/", "http://doi.org/", "doi:")


def _invalid(message: str) -> Reply:
    return json_reply({"error": "Invalid query parameters error.", "message": message}, 403)


def _bare(doi: str) -> str:
    doi = doi.strip()
    for prefix in _PREFIXES:
        if doi.lower().startswith(prefix):
            return doi[len(prefix) :]
    return doi


def _echoed(work: dict[str, Any], wrong_echo: set[str], doi: str) -> dict[str, Any]:
    if doi.lower() not in wrong_echo:
        return work
    out = copy.deepcopy(work)
    out["doi"] = out["ids"]["doi"] = "https://doi.org/" + mangle(doi)
    return out


def _page(results: list[dict[str, Any]], count: int, per_page: int) -> Reply:
    meta = {
        "count": count,
        "db_response_time_ms": 12,
        "page": 1,
        "per_page": per_page,
        "groups_count": None,
    }
    return json_reply({"meta": meta, "results": results, "group_by": []})


def _per_page(params: Mapping[str, str]) -> int | Reply:
    text = params.get("per-page", params.get("per_page", "25"))
    if not text.isdigit() or not 1 <= int(text) <= MAX_PER_PAGE:
        return _invalid(f"per-page parameter must be between 1 and {MAX_PER_PAGE}")
    return int(text)


def filter_of(params: Mapping[str, str]) -> tuple[str, str] | None:
    """`(name, value)` of the one `filter=name:value`, or `None` without a filter."""
    raw = params.get("filter", "")
    if not raw:
        return None
    name, _, value = raw.partition(":")
    return name.strip(), value


def by_dois(oa: Works, dois: list[str], params: Mapping[str, str], wrong: set[str]) -> Reply:
    """The list answer of `filter=doi:A|B`."""
    size = _per_page(params)
    if isinstance(size, Reply):
        return size
    if len(dois) > MAX_OR_VALUES:
        return _invalid(f"Maximum number of values exceeded for doi. Limit is {MAX_OR_VALUES}.")
    found: dict[str, dict[str, Any]] = {}
    for doi in dois:
        work = oa.by_doi.get(doi.lower())
        if work is not None and doi.lower() not in found:
            found[doi.lower()] = _echoed(work, wrong, doi)
    return _page(list(found.values())[:size], len(found), size)


def search(oa: Works, text: str, params: Mapping[str, str]) -> Reply:
    """The ranked list answer of a title search."""
    size = _per_page(params)
    if isinstance(size, Reply):
        return size
    hits = ranking.rank(oa.index, text, size)
    results = [{**oa.index[i]["work"], "relevance_score": round(s * 40.0, 3)} for i, s in hits]
    return _page(results, len(hits), size)


def one(oa: Works, doi: str, wrong: set[str]) -> Reply:
    """`/works/doi:{doi}`."""
    work = oa.by_doi.get(doi.lower())
    if work is None:
        return json_reply({"error": "404 Not Found", "message": f"doi:{doi} not found"}, 404)
    return json_reply(_echoed(work, wrong, doi))


def _list(corpus: Corpus, params: Mapping[str, str]) -> Routed:
    found = filter_of(params)
    if found is None or found[0] == "title.search":
        text = found[1] if found else params.get("search", "")
        return Routed("openalex_search", [text], lambda w: search(works(corpus), text, params))
    name, value = found
    if name != "doi" or "," in value:
        return Routed(
            "openalex_filter", [], lambda w: _invalid(f"{name} is not a valid filter here")
        )
    dois = [_bare(d) for d in value.split("|") if d.strip()]
    return Routed("openalex_filter", dois, lambda w: by_dois(works(corpus), dois, params, w))


class OpenalexService(EmulatedService):
    """`/openalex`: works by DOI (one or a filter list) and title search."""

    name = "openalex"
    url_setting = "openalex_url"
    endpoints = ("openalex_work", "openalex_filter", "openalex_search")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/works/doi:{doi}`, else `/works?filter=…` or `/works?search=…`."""
        path, params = asked.path, asked.params
        if path.startswith("/openalex/works/"):
            d = _bare(path.removeprefix("/openalex/works/"))
            return Routed("openalex_work", [d], lambda w: one(works(corpus), d, w))
        if path in ("/openalex/works", "/openalex/works/"):
            return _list(corpus, params)
        return None
