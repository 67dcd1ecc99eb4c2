"""The DOI system: doiRA (`/doiRA/p1,p2`), content negotiation (`/{doi}` → 302 → `/csl/{doi}`).

doiRA is a JSON array with one row per asked prefix or DOI. Content negotiation with a CSL-JSON
`Accept` redirects to the CSL record on the same server (as doi.org hands over to the RA); an
unregistered DOI is doi.org's HTML 404 "DOI Not Found", a non-DOI its HTML 400 "Not a DOI".
"""

from __future__ import annotations

from functools import partial
from html import escape
from typing import Any
from urllib.parse import quote

from auditor.emulator.corpus import Corpus
from auditor.emulator.handle import route_handle
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, mangle, text_reply

CSL_TYPE = "application/vnd.citationstyles.csl+json"
HTML = "text/html;charset=utf-8"


def doira(corpus: Corpus, names: list[str], wrong_echo: set[str]) -> Reply:
    """One row per asked name: `{"DOI":p,"RA":…}` or `{"DOI":p,"status":"DOI does not exist"}`."""
    rows: list[dict[str, str]] = []
    for name in names:
        echo = mangle(name) if name.lower() in wrong_echo else name
        if not name.startswith("10."):
            rows.append({"DOI": echo, "status": "Invalid DOI"})
            continue
        ra = corpus.agency_of(name)
        if ra is not None:
            rows.append({"DOI": echo, "RA": ra})
        elif "/" in name and corpus.doi_exists(name):
            rows.append({"DOI": echo, "status": "Unknown"})
        else:
            rows.append({"DOI": echo, "status": "DOI does not exist"})
    return json_reply(rows)


def _page(title: str, status: int) -> Reply:
    body = (
        '<!DOCTYPE html>\n<html lang="en-us">\n<head>\n    <meta charset="UTF-8">\n'
        f"    <title>Error: {escape(title)}</title>\n</head>\n<body>\n"
        f"<h1>Error: {escape(title)}</h1>\n</body>\n</html>\n"
    )
    return text_reply(body, status, HTML)


def resolve(corpus: Corpus, doi: str, accept: str, origin: str) -> Reply:
    """`GET /{doi}`: 302 to the CSL record (CSL Accept) or a landing page; else 404/400 HTML."""
    if not doi.startswith("10.") or "/" not in doi:
        return _page("Not a DOI", 400)
    if not corpus.doi_exists(doi):
        return _page("DOI Not Found", 404)
    if CSL_TYPE in accept and (doi.lower() in corpus.csl or doi.lower() in corpus.crossref):
        target = f"{origin}/csl/{quote(doi, safe='/')}"
    else:
        target = f"{origin}/landing/{quote(doi, safe='/')}"
    page = (
        "<html><head><title>Handle Redirect</title></head>\n"
        f'<body><a href="{escape(target)}">{escape(target)}</a></body></html>'
    )
    return text_reply(page, 302, HTML, Location=target)


def crossref_to_csl(message: dict[str, Any]) -> dict[str, Any]:
    """CSL-JSON as Crossref's transform renders a work (Crossref type names, string titles)."""
    csl: dict[str, Any] = {
        "type": message.get("type", "journal-article"),
        "DOI": message.get("DOI"),
        "title": (message.get("title") or [""])[0],
        "container-title": (message.get("container-title") or [""])[0]
        if message.get("container-title")
        else [],
        "publisher": message.get("publisher"),
        "author": message.get("author", []),
        "issued": message.get("issued", {"date-parts": [[None]]}),
    }
    for key in ("volume", "issue", "page", "ISSN", "language", "URL"):
        if key in message:
            csl[key] = message[key]
    return {k: v for k, v in csl.items() if v is not None}


def csl(corpus: Corpus, doi: str, wrong_echo: set[str]) -> Reply:
    """`GET /csl/{doi}`: the CSL-JSON record (from `Corpus.csl`, else transformed from Crossref)."""
    key = doi.lower()
    if key in corpus.csl:
        record = dict(corpus.csl[key])
    elif key in corpus.crossref:
        record = crossref_to_csl(corpus.crossref[key])
    else:
        return text_reply("Resource not found.", 404)
    if key in wrong_echo:
        record["DOI"] = mangle(str(record.get("DOI", doi)))
    return json_reply(record, content_type=CSL_TYPE)


def landing(doi: str) -> Reply:
    """A minimal landing page (what a browser would get)."""
    return text_reply(f"<html><body><h1>{escape(doi)}</h1></body></html>", 200, HTML)


class DoiService(EmulatedService):
    """`/doi`: doiRA, content negotiation (CSL or a redirect), doi.org's Handle API; and the
    `/landing/` pages its redirects send a browser to."""

    name = "doi"
    url_setting = "doi_url"
    endpoints = ("doira", "doi_csl", "landing")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """Handle API first (counted as the `handle` service), then doiRA, then a DOI."""
        path = asked.path
        if path.startswith("/landing/"):
            d = path.removeprefix("/landing/")
            return Routed("landing", [d], lambda w: landing(d))
        if not path.startswith("/doi/"):
            return None
        handled = route_handle(corpus, path)
        if handled is not None:
            return handled
        for prefix in ("/doi/doiRA/", "/doi/ra/"):
            if path.startswith(prefix):
                names = [n.strip() for n in path.removeprefix(prefix).split(",") if n.strip()]
                return Routed("doira", names, partial(doira, corpus, names))
        d = path.removeprefix("/doi/")
        return Routed("doi_csl", [d], lambda w: resolve(corpus, d, asked.accept, asked.origin))


class CslService(EmulatedService):
    """`/csl`: an agency's CSL metadata host, where doi.org's redirects lead."""

    name = "csl"
    url_setting = None
    endpoints = ("csl",)

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """`/csl/{doi}`."""
        if not asked.path.startswith("/csl/"):
            return None
        d = asked.path.removeprefix("/csl/")
        return Routed("csl", [d], lambda w: csl(corpus, d, w))
