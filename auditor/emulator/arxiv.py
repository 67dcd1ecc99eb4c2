"""arXiv API `api/query?id_list=…` and `api/query?search_query=ti:"…"`: an Atom feed (2026).

Well-formed unknown ids are silently dropped (`totalResults` counts what was found); a malformed id
gives HTTP 400 with a single error `<entry>`. `max_results` defaults to 10 as on arXiv. A search
ranks the corpus's `arxiv` index by token overlap with the query's terms (field prefixes such as
`ti:`, `au:`, `all:` and the boolean words dropped) and always answers its top hits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, mangle

ATOM = "application/atom+xml; charset=utf-8"
_NEW = re.compile(r"^(?P<base>\d{4}\.\d{4,5})(?:v(?P<v>\d+))?$")
_OLD = re.compile(r"^(?P<base>[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(?:v(?P<v>\d+))?$")
_STAMP = "2026-04-12T22:10:26Z"
_HEAD = (
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
)


def split_id(raw: str) -> tuple[str, int | None] | None:
    """(base id, version or None) of a well-formed arXiv id, or None if malformed."""
    match = _NEW.match(raw) or _OLD.match(raw)
    if match is None:
        return None
    return match["base"], int(match["v"]) if match["v"] else None


def id_list(params: Mapping[str, str]) -> list[str]:
    """The ids of `id_list`, in order, blanks dropped."""
    return [i.strip() for i in params.get("id_list", "").split(",") if i.strip()]


def _int(params: Mapping[str, str], name: str, default: int) -> int:
    value = params.get(name, "")
    return int(value) if value.isdigit() else default


def _entry(raw_id: str, base: str, version: int, rec: dict[str, Any], echo: str) -> str:
    abs_id = f"{echo}v{version}"
    authors = "".join(
        f"    <author>\n      <name>{escape(str(name))}</name>\n    </author>\n"
        for name in rec.get("authors", [])
    )
    extra = ""
    if rec.get("comment"):
        extra += f"    <arxiv:comment>{escape(str(rec['comment']))}</arxiv:comment>\n"
    if rec.get("doi"):
        extra += f"    <arxiv:doi>{escape(str(rec['doi']))}</arxiv:doi>\n"
    if rec.get("journal_ref"):
        extra += f"    <arxiv:journal_ref>{escape(str(rec['journal_ref']))}</arxiv:journal_ref>\n"
    published = escape(str(rec.get("published", "")))
    category = quoteattr(str(rec.get("category", "cs.IT")))
    return (
        "  <entry>\n"
        f"    <id>http://arxiv.org/abs/{escape(abs_id)}</id>\n"
        f"    <title>{escape(str(rec.get('title', '')))}</title>\n"
        f"    <updated>{escape(str(rec.get('updated', rec.get('published', ''))))}</updated>\n"
        f'    <link href="https://arxiv.org/abs/{escape(abs_id)}" rel="alternate" '
        'type="text/html"/>\n'
        f'    <link href="https://arxiv.org/pdf/{escape(abs_id)}" rel="related" '
        'type="application/pdf" title="pdf"/>\n'
        f"    <summary>{escape(str(rec.get('summary', '')))}</summary>\n"
        f'    <category term={category} scheme="http://arxiv.org/schemas/atom"/>\n'
        f"    <published>{published}</published>\n"
        f"{extra}"
        f"    <arxiv:primary_category term={category}/>\n"
        f"{authors}"
        "  </entry>\n"
    )


def _error_feed(raw_id: str) -> Reply:
    anchor = f"https://arxiv.org/api/errors#incorrect_id_format_for_{quote(raw_id, safe='')}"
    text = (
        _HEAD + "  <id>https://arxiv.org/</id>\n  <title>arXiv Search Results</title>\n"
        f"  <updated>{_STAMP}</updated>\n"
        "  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>\n"
        "  <opensearch:totalResults>1</opensearch:totalResults>\n"
        "  <opensearch:startIndex>0</opensearch:startIndex>\n"
        f"  <entry>\n    <id>{escape(anchor)}</id>\n    <title>Error</title>\n"
        f"    <updated>{_STAMP}</updated>\n"
        f'    <link href="{escape(anchor)}" rel="alternate" type="text/html"/>\n'
        f"    <summary>incorrect id format for {escape(raw_id)}</summary>\n"
        "    <author>\n      <name>arXiv api core</name>\n    </author>\n  </entry>\n</feed>\n"
    )
    return Reply(400, text.encode("utf-8"), ATOM)


_FIELD_PREFIX = re.compile(r"\b(?:ti|au|abs|all|co|jr|cat|rn|id):", re.IGNORECASE)
_BOOLEAN = re.compile(r"\b(?:AND|OR|ANDNOT)\b")


def search_terms(search_query: str) -> str:
    """The free text of a `search_query` (`ti:"A B" AND au:C` → `A B C`)."""
    return _BOOLEAN.sub(" ", _FIELD_PREFIX.sub(" ", search_query)).replace('"', " ")


def _searched(corpus: Corpus, params: Mapping[str, str]) -> list[str]:
    index = corpus.search.get("arxiv", [])
    hits = ranking.rank(index, search_terms(params.get("search_query", "")), len(index))
    ids = [str(index[i].get("id", "")) for i, _ in hits]
    return [i for i in ids if i in corpus.arxiv]


def query(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """The Atom feed answering `id_list`, or `search_query` when no `id_list` is given."""
    ids = id_list(params)
    if not ids and params.get("search_query"):
        ids = _searched(corpus, params)
    for raw in ids:
        if split_id(raw) is None:
            return _error_feed(raw)
    start = _int(params, "start", 0)
    max_results = _int(params, "max_results", 10)
    entries: list[str] = []
    for raw in ids:
        base, version = split_id(raw)  # type: ignore[misc]  # validated above
        rec = corpus.arxiv.get(base)
        latest = int(rec.get("version", 1)) if rec else 0
        if rec is None or (version is not None and version > latest):
            continue  # arXiv drops well-formed ids it does not have
        echo = mangle(base) if raw in wrong_echo or base in wrong_echo else base
        entries.append(_entry(raw, base, version or latest, rec, echo))
    page = entries[start : start + max_results]
    asked = params.get("search_query", "")
    listed = ",".join(id_list(params))
    link_query = escape(
        f"search_query={quote(asked)}&start={start}&max_results={max_results}&id_list={listed}"
    )
    text = (
        _HEAD + "  <id>https://arxiv.org/api/emulated</id>\n"
        f"  <title>arXiv Query: {escape(f'search_query={asked}&id_list={listed}')}</title>\n"
        f"  <updated>{_STAMP}</updated>\n"
        f'  <link href="https://arxiv.org/api/query?{link_query}" type="application/atom+xml"/>\n'
        f"  <opensearch:itemsPerPage>{max_results}</opensearch:itemsPerPage>\n"
        f"  <opensearch:totalResults>{len(entries)}</opensearch:totalResults>\n"
        f"  <opensearch:startIndex>{start}</opensearch:startIndex>\n" + "".join(page) + "</feed>\n"
    )
    return Reply(200, text.encode("utf-8"), ATOM)


class ArxivService(EmulatedService):
    """`/arxiv`: the query API, by `id_list` (lookup) or `search_query` (title search)."""

    name = "arxiv"
    url_setting = "arxiv_url"
    endpoints = ("arxiv_query", "arxiv_search")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """A query without `id_list` is a search; with one, a lookup of those ids."""
        params = asked.params
        if asked.path not in ("/arxiv/api/query", "/arxiv/query"):
            return None
        ids = id_list(params)
        if not ids:
            text = params.get("search_query", "")
            return Routed("arxiv_search", [text], lambda w: query(corpus, params, w))
        bases = [s[0] for s in map(split_id, ids) if s is not None]
        return Routed("arxiv_query", ids + bases, lambda w: query(corpus, params, w))
