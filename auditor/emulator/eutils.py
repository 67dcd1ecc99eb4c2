"""NCBI E-utilities: `esummary.fcgi` and `esearch.fcgi` for db=pubmed, JSON as NCBI sends it.

An unknown PMID stays in `result.uids` with `{"uid":…,"error":"cannot get document summary"}`;
ESearch counts are strings. ESearch matches terms exactly against `Corpus.esearch`, plus journal
coverage `"TA"[ta]` answered from the `source` of the corpus's PubMed documents.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from auditor.emulator.corpus import Corpus
from auditor.emulator.reply import Reply, json_reply, mangle

JSON_NCBI = "application/json; charset=UTF-8"
_TA_TERM = re.compile(r'^"(?P<ta>[^"]+)"\[ta\]$', re.IGNORECASE)


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


def _search(corpus: Corpus, term: str) -> list[str]:
    if term in corpus.esearch:
        return list(corpus.esearch[term])
    match = _TA_TERM.match(term.strip())
    if match:
        ta = match["ta"].casefold()
        return [
            uid for uid, doc in corpus.pubmed.items() if str(doc.get("source", "")).casefold() == ta
        ]
    return []


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
