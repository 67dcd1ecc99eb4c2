"""NCBI E-utilities: `esummary.fcgi` and `esearch.fcgi` for db=pubmed, JSON as NCBI sends it.

An unknown PMID stays in `result.uids` with `{"uid":…,"error":"cannot get document summary"}`;
ESearch counts are strings. ESearch matches terms exactly against `Corpus.esearch` first; any
other term that is a conjunction of fielded clauses (`[ta]`, `[vi]`, `[ip]`, `[pg]`, `[dp]`,
`[1au]`, `[doi]`, `[uid]`) is answered from the corpus's PubMed documents, so journal coverage
`"TA"[ta]` and coordinate queries work without a table entry. A term with `[ti]` clauses is a
title search: the `pubmed` search index ranked by token overlap, top hits always answered.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from auditor.emulator import ranking
from auditor.emulator.corpus import Corpus
from auditor.emulator.interface import Asked, EmulatedService, Routed
from auditor.emulator.reply import Reply, json_reply, mangle

JSON_NCBI = "application/json; charset=UTF-8"


def _header(kind: str) -> dict[str, str]:
    return {"type": kind, "version": "0.3"}


def esummary_ids(params: Mapping[str, str]) -> list[str]:
    """The distinct ids of an esummary request, in the order asked."""
    ids: list[str] = []
    for raw in params.get("id", "").split(","):
        uid = raw.strip()
        if uid and uid not in ids:
            ids.append(uid)
    return ids


def esummary(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """ESummary JSON for `db=pubmed`; other dbs get NCBI's `esummaryresult` error."""
    db = params.get("db", "")
    if db != "pubmed":
        body = {
            "header": _header("esummary"),
            "esummaryresult": [f"Invalid db name specified: {db}"],
        }
        return json_reply(body, content_type=JSON_NCBI)
    ids = esummary_ids(params)
    bad = [i for i in ids if not i.isdigit()]
    if not ids or bad:
        value = bad[0] if bad else ""
        body = {
            "header": _header("esummary"),
            "esummaryresult": [
                f"Invalid uid {value} at position= {ids.index(value) if bad else 0}"
            ],
        }
        return json_reply(body, content_type=JSON_NCBI)
    result: dict[str, Any] = {"uids": []}
    for uid in ids:
        doc = corpus.pubmed.get(uid)
        key = uid
        if doc is None:
            doc = {"uid": uid, "error": "cannot get document summary"}
        elif uid in wrong_echo:
            # The classic wrong echo: another record's summary under the key asked for.
            doc = copy.deepcopy(doc)
            doc["uid"] = mangle(uid)
        result["uids"].append(key)
        result[key] = doc
    return json_reply({"header": _header("esummary"), "result": result}, content_type=JSON_NCBI)


def _first_page(doc: dict[str, Any]) -> str:
    return str(doc.get("pages", "")).split("-", 1)[0].strip()


def _doi_of(doc: dict[str, Any]) -> str:
    for aid in doc.get("articleids", []):
        if isinstance(aid, dict) and aid.get("idtype") == "doi":
            return str(aid.get("value", "")).casefold()
    return ""


def _first_author(doc: dict[str, Any]) -> str:
    authors = doc.get("authors") or [{}]
    return str(authors[0].get("name", "")).casefold()


#: Field tag → test of a document against the clause's value (both casefolded).
_FIELDS: dict[str, Callable[[dict[str, Any], str], bool]] = {
    "ta": lambda d, v: str(d.get("source", "")).casefold() == v,
    "vi": lambda d, v: str(d.get("volume", "")).casefold() == v,
    "ip": lambda d, v: str(d.get("issue", "")).casefold() == v,
    "pg": lambda d, v: _first_page(d).casefold() == v,
    "dp": lambda d, v: str(d.get("pubdate", "")).casefold().startswith(v),
    "1au": lambda d, v: _first_author(d).startswith(v),
    "doi": lambda d, v: _doi_of(d) == v,
    "uid": lambda d, v: str(d.get("uid", "")) == v,
}
_CLAUSE = re.compile(r'^"?(?P<value>[^"\[\]]+?)"?\[(?P<tag>\w+)\]$')


def _fielded(corpus: Corpus, term: str) -> list[str]:
    """PMIDs matching a conjunction of fielded clauses (`"TA"[ta] AND 88[vi] AND 801[pg]`).

    An unknown tag or a clause of another form matches nothing: the emulator does not guess.
    """
    tests: list[tuple[Callable[[dict[str, Any], str], bool], str]] = []
    for clause in re.split(r"\s+AND\s+", term.strip()):
        match = _CLAUSE.match(clause.strip())
        if match is None or match["tag"].lower() not in _FIELDS:
            return []
        tests.append((_FIELDS[match["tag"].lower()], match["value"].strip().casefold()))
    return [uid for uid, doc in corpus.pubmed.items() if all(t(doc, v) for t, v in tests)]


_TITLE_TAG = re.compile(r"\[(?:ti|title)\]", re.IGNORECASE)


def _title_search(corpus: Corpus, term: str) -> list[str]:
    """PMIDs of the `pubmed` index ranked by overlap with the words of a `[ti]` term."""
    words = re.sub(r"\b(?:AND|OR|NOT)\b|[()\"]", " ", _TITLE_TAG.sub(" ", term))
    index = corpus.search.get("pubmed", [])
    hits = ranking.rank(index, words, len(index))
    return [
        str(index[i].get("pmid")) for i, _ in hits if str(index[i].get("pmid")) in corpus.pubmed
    ]


def _search(corpus: Corpus, term: str) -> list[str]:
    if term in corpus.esearch:
        return list(corpus.esearch[term])
    if _TITLE_TAG.search(term):
        return _title_search(corpus, term)
    return _fielded(corpus, term)


def esearch(corpus: Corpus, params: Mapping[str, str], wrong_echo: set[str]) -> Reply:
    """ESearch JSON: string counts, `idlist`, `querytranslation`; zero hits carry NCBI's notices."""
    db = params.get("db", "")
    term = params.get("term", "")
    if db not in ("pubmed", "nlmcatalog"):
        body = {
            "header": _header("esearch"),
            "esearchresult": {"ERROR": f"Invalid db name specified: {db}"},
        }
        return json_reply(body, content_type=JSON_NCBI)
    hits = _search(corpus, term)
    if term in wrong_echo:
        hits = [mangle(h) for h in hits]
    retmax = int(params.get("retmax", "20") or 20)
    retstart = int(params.get("retstart", "0") or 0)
    page = hits[retstart : retstart + retmax]
    result: dict[str, Any] = {
        "count": str(len(hits)),
        "retmax": str(len(page)),
        "retstart": str(retstart),
        "idlist": page,
        "translationset": [],
        "querytranslation": term,
    }
    if not hits:
        result["errorlist"] = {"phrasesnotfound": [], "fieldsnotfound": []}
        result["warninglist"] = {
            "phrasesignored": [],
            "quotedphrasesnotfound": [],
            "outputmessages": ["No items found."],
        }
    return json_reply(
        {"header": _header("esearch"), "esearchresult": result}, content_type=JSON_NCBI
    )


def rate_limited(limit: tuple[int, float] | None, retry_after: str) -> Reply:
    """NCBI's 429 body: JSON naming the limit (`{"error":"API rate limit exceeded",…}`)."""
    count = limit[0] if limit is not None else 3
    body = {"error": "API rate limit exceeded", "count": str(count + 1), "limit": str(count)}
    reply = json_reply(body, status=429, content_type=JSON_NCBI)
    reply.headers["Retry-After"] = retry_after
    return reply


class EutilsService(EmulatedService):
    """`/eutils`: `esummary.fcgi` (GET or POST) and `esearch.fcgi`; NCBI's JSON 429."""

    name = "eutils"
    url_setting = "eutils_url"
    endpoints = ("esummary", "esearch")

    def route(self, corpus: Corpus, asked: Asked) -> Routed | None:
        """The two E-utilities the registers call."""
        params = asked.params
        if asked.path == "/eutils/esummary.fcgi":
            ids = esummary_ids(params)
            return Routed("esummary", ids, lambda w: esummary(corpus, params, w))
        if asked.path == "/eutils/esearch.fcgi":
            term = params.get("term", "")
            return Routed("esearch", [term], lambda w: esearch(corpus, params, w))
        return None

    def rate_limited(self, limit: tuple[int, float] | None, retry_after: str) -> Reply:
        """NCBI's JSON 429 body."""
        return rate_limited(limit, retry_after)
