"""The Handle proxy API `api/handles/{doi}`: `responseCode` 1 with `values`, or 100 (HTTP 404)."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import quote

from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, mangle

_STAMP = "2019-05-14T21:42:03Z"


def _values(doi: str, in_crossref: bool) -> list[dict[str, Any]]:
    values: list[dict[str, Any]] = [
        {
            "index": 1,
            "type": "URL",
            "data": {"format": "string", "value": f"https://example.org/landing/{quote(doi)}"},
            "ttl": 86400,
            "timestamp": _STAMP,
        },
        {
            "index": 100,
            "type": "HS_ADMIN",
            "data": {
                "format": "admin",
                "value": {"handle": "0.na/10.emul", "index": 200, "permissions": "111111110010"},
            },
            "ttl": 86400,
            "timestamp": _STAMP,
        },
    ]
    if in_crossref:
        # Crossref-registered handles carry a 700050 timestamp value.
        values.append(
            {
                "index": 700050,
                "type": "700050",
                "data": {"format": "string", "value": "20190514214203"},
                "ttl": 86400,
                "timestamp": _STAMP,
            }
        )
    return values


def handle(corpus: Corpus, doi: str, wrong_echo: set[str]) -> Reply:
    """`GET /api/handles/{doi}` (DOIs match case-insensitively; the echo keeps the asked case)."""
    echo = mangle(doi) if doi.lower() in wrong_echo else doi
    if not corpus.doi_exists(doi):
        return json_reply({"responseCode": 100, "handle": echo}, status=404)
    values = _values(doi, doi.lower() in corpus.crossref)
    return json_reply({"responseCode": 1, "handle": echo, "values": values})


#: Where the Handle proxy API answers: its own host, and doi.org (`doi.org/api/handles/{doi}`).
HANDLE_PREFIXES = ("/handle/api/handles/", "/doi/api/handles/")


def route_handle(corpus: Corpus, path: str) -> Routed | None:
    """The `handle` endpoint for a path under either of `HANDLE_PREFIXES`."""
    for prefix in HANDLE_PREFIXES:
        if path.startswith(prefix):
            d = path.removeprefix(prefix)
            return Routed("handle", [d], partial(handle, corpus, d))
    return None


class HandleService(EmulatedService):
    """`/handle`: the Handle proxy API."""

    name = "handle"
    url_setting = "handle_url"
    endpoints = ("handle",)

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/api/handles/{doi}`."""
        return route_handle(corpus, asked.path) if asked.path.startswith("/handle/") else None
