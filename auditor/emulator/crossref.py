"""Crossref REST: `/works/{doi}`, `/works?filter=doi:A,doi:B` and `/works?query.bibliographic=…`.

Unknown DOI on `/works/{doi}` → HTTP 404 plain text `Resource not found.`; a DOI absent from a
filter query is simply missing from `items`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, mangle, text_reply

#: Crossref caps `rows` at 1000.
MAX_ROWS = 1000


def _validation_failure(kind: str, value: str, message: str) -> Reply:
    body = {
        "status": "failed",
        "message-type": "validation-failure",
        "message": [{"type": kind, "value": value, "message": message}],
    }
    return json_reply(body, status=400, escape_slashes=True)


def _item(corpus: Corpus, doi: str, wrong_echo: set[str]) -> dict[str, Any]:
    message = corpus.crossref[doi.lower()]
    if doi.lower() in wrong_echo:
        message = copy.deepcopy(message)
        message["DOI"] = mangle(str(message.get("DOI", doi)))
    return message


def work(corpus: Corpus, doi: str, wrong_echo: set[str]) -> Reply:
    """`GET /works/{doi}`."""
    if doi.lower() not in corpus.crossref:
        return text_reply("Resource not found.", 404)
    body = {
        "status": "ok",
        "message-type": "work",
        "message-version": "1.0.0",
        "message": _item(corpus, doi, wrong_echo),
    }
    return json_reply(body, escape_slashes=True)


def filter_dois(query: Mapping[str, str]) -> list[str] | Reply:
    """The DOIs of a `filter=doi:A,doi:B` query, or the 400 Crossref gives for another filter."""
    raw = query.get("filter", "")
    dois: list[str] = []
    for part in raw.split(","):
        name, sep, value = part.partition(":")
        if not sep or name != "doi" or not value:
            return _validation_failure(
                "filter-not-available", part, f"Filter {name} specified but there is no such filter"
            )
        dois.append(value)
    return dois


def works(corpus: Corpus, query: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """`GET /works?filter=doi:…&rows=n`: a `work-list`; absent DOIs are just missing."""
    parsed = filter_dois(query)
    if isinstance(parsed, Reply):
        return parsed
    rows_text = query.get("rows", "20")
    if not rows_text.isdigit() or int(rows_text) > MAX_ROWS:
        return _validation_failure(
            "integer-not-valid",
            rows_text,
            f"Integer specified as {rows_text} but must be a positive integer less than or "
            f"equal to {MAX_ROWS}. ",
        )
    found: list[str] = []
    for doi in parsed:
        if doi.lower() in corpus.crossref and doi.lower() not in {f.lower() for f in found}:
            found.append(doi)
    items = [_item(corpus, doi, wrong_echo) for doi in found[: int(rows_text)]]
    body = {
        "status": "ok",
        "message-type": "work-list",
        "message-version": "1.0.0",
        "message": {
            "facets": {},
            "total-results": len(found),
            "items": items,
            "items-per-page": int(rows_text),
            "query": {"start-index": 0, "search-terms": None},
        },
    }
    return json_reply(body, escape_slashes=True)


def rate_headers(limit: tuple[int, float] | None) -> dict[str, str]:
    """`X-Rate-Limit-Limit`/`-Interval` as Crossref sends them: the enforced limit, else 50/1s."""
    count, per = limit if limit is not None else (50, 1.0)
    return {"X-Rate-Limit-Limit": str(count), "X-Rate-Limit-Interval": f"{per:g}s"}


#: Query parameters that make `/works` a search rather than a DOI filter.
QUERY_PARAMS: tuple[str, ...] = ("query.bibliographic", "query.title", "query")


def is_search(query: Mapping[str, str]) -> bool:
    """Whether a `/works` request is a free-text search (`query.bibliographic=…`)."""
    return any(query.get(name) for name in QUERY_PARAMS)


def search(corpus: Corpus, query: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """`GET /works?query.bibliographic=…&rows=n`: the top hits of the `crossref` index.

    Each item is the full work message plus Crossref's relevance `score`; `total-results`
    counts every entry sharing a token with the query, as Crossref counts loose matches.
    """
    text = " ".join(query.get(name, "") for name in QUERY_PARAMS).strip()
    rows_text = query.get("rows", "20")
    if not rows_text.isdigit() or int(rows_text) > MAX_ROWS:
        return _validation_failure(
            "integer-not-valid",
            rows_text,
            f"Integer specified as {rows_text} but must be a positive integer less than or "
            f"equal to {MAX_ROWS}. ",
        )
    index = corpus.search.get("crossref", [])
    hits = ranking.rank(index, text, len(index))
    items: list[dict[str, Any]] = []
    for i, score in hits:
        doi = str(index[i].get("doi", "")).lower()
        if doi in corpus.crossref and len(items) < int(rows_text):
            items.append({**_item(corpus, doi, wrong_echo), "score": round(score * 12.5, 3)})
    body = {
        "status": "ok",
        "message-type": "work-list",
        "message-version": "1.0.0",
        "message": {
            "facets": {},
            "total-results": len(hits),
            "items": items,
            "items-per-page": int(rows_text),
            "query": {"start-index": 0, "search-terms": text},
        },
    }
    return json_reply(body, escape_slashes=True)


class CrossrefService(EmulatedService):
    """`/crossref`: one work, a DOI filter, a bibliographic search; rate-limit headers on all."""

    name = "crossref"
    url_setting = "crossref_url"
    endpoints = ("crossref_work", "crossref_filter", "crossref_search")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/works/{doi}`, then `/works?query.…` (search) or `/works?filter=doi:…`."""
        path, params = asked.path, asked.params
        if path.startswith("/crossref/works/"):
            d = path.removeprefix("/crossref/works/")
            return Routed("crossref_work", [d], lambda w: work(corpus, d, w))
        if path not in ("/crossref/works", "/crossref/works/"):
            return None
        if is_search(params):
            text = params.get("query.bibliographic", "")
            return Routed("crossref_search", [text], lambda w: search(corpus, params, w))
        parsed = filter_dois(params)
        ids = parsed if isinstance(parsed, list) else []
        return Routed("crossref_filter", ids, lambda w: works(corpus, params, w))

    def rate_headers(self, limit: tuple[int, float] | None) -> dict[str, str]:
        """Crossref's `X-Rate-Limit-*` headers."""
        return rate_headers(limit)
