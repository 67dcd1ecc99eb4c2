"""Semantic Scholar Graph API `GET /graph/v1/paper/search/match?query=…&fields=…`.

The match endpoint answers the single closest title: `{"data": [{paperId, title, matchScore,
…requested fields}]}`, or HTTP 404 `{"error": "Title match not found"}` when nothing is close.
Without `fields` only `paperId` and `title` come back, as on the real API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply


def match(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """The best `s2` index entry for `query`, restricted to the requested `fields`."""
    query = params.get("query", "").strip()
    if not query:
        return json_reply({"error": "Missing required parameter: 'query'"}, status=400)
    index = corpus.search.get("s2", [])
    best = ranking.rank(index, query, 1)
    if not best:
        return json_reply({"error": "Title match not found"}, status=404)
    i, score = best[0]
    paper: dict[str, Any] = index[i].get("paper", {})
    fields = [f.strip() for f in params.get("fields", "").split(",") if f.strip()]
    out: dict[str, Any] = {"paperId": paper.get("paperId"), "title": paper.get("title")}
    out.update({f: paper.get(f) for f in fields if f in paper})
    out["matchScore"] = round(score * 20.0, 3)
    return json_reply({"data": [out]})


class S2Service(EmulatedService):
    """`/s2`: Semantic Scholar's title match."""

    name = "s2"
    url_setting = "s2_url"
    endpoints = ("s2_match",)

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/graph/v1/paper/search/match?query=…`."""
        params = asked.params
        if asked.path != "/s2/graph/v1/paper/search/match":
            return None
        text = params.get("query", "")
        return Routed("s2_match", [text], lambda w: match(corpus, params, w))
