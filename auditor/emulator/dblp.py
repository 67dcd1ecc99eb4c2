"""DBLP publication search `GET /search/publ/api?q=…&format=json&h=n&f=k`, as dblp.org answers.

The body is `{"result": {"query", "status", "time", "completions", "hits"}}`; counts are strings
(`"@total"`, `"@sent"`, …); `hits.hit` is absent when nothing matched. Each hit's
`info.authors.author` is a list, except for a single author, where DBLP gives the object alone.
A `format` other than json is refused (the emulator speaks only the JSON dblp.org serves).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, text_reply

#: DBLP caps `h` at 1000 hits a page.
MAX_HITS = 1000


def _int(value: str, default: int) -> int:
    return int(value) if value.isdigit() else default


def _info(entry: dict[str, Any]) -> dict[str, Any]:
    info: dict[str, Any] = copy.deepcopy(entry.get("info", {}))
    authors = info.get("authors", {}).get("author")
    if isinstance(authors, list) and len(authors) == 1:
        info["authors"]["author"] = authors[0]  # DBLP's single-author shape
    return info


def search(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """The JSON answer to a publication search over the `dblp` index."""
    if params.get("format", "xml") != "json":
        return text_reply("format not emulated", 400)
    query = params.get("q", "")
    first = _int(params.get("f", "0"), 0)
    wanted = min(_int(params.get("h", "30"), 30), MAX_HITS)
    index = corpus.search.get("dblp", [])
    ranked = ranking.rank(index, query, len(index))
    page = ranked[first : first + wanted]
    hits: dict[str, Any] = {
        "@total": str(len(ranked)),
        "@computed": str(len(ranked)),
        "@sent": str(len(page)),
        "@first": str(first),
    }
    if page:
        hits["hit"] = [
            {
                "@score": str(int(score)),
                "@id": str(1000 + i),
                "info": _info(index[i]),
                "url": f"URL{1000 + i}",
            }
            for i, score in page
        ]
    body = {
        "result": {
            "query": query,
            "status": {"@code": "200", "text": "OK"},
            "time": {"@unit": "msecs", "text": "1.00"},
            "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
            "hits": hits,
        }
    }
    return json_reply(body)


class DblpService(EmulatedService):
    """`/dblp`: the publication search API."""

    name = "dblp"
    url_setting = "dblp_url"
    endpoints = ("dblp_search",)

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/search/publ/api?q=…`."""
        params = asked.params
        if asked.path not in ("/dblp/search/publ/api", "/dblp/search/publ/api/"):
            return None
        text = params.get("q", "")
        return Routed("dblp_search", [text], lambda w: search(corpus, params, w))
