"""Title search over a corpus index: rank entries by token overlap with the query.

Real indexes rank with their own engines; what the emulator must reproduce is that an index
always answers its top hits, also for a fabricated title, so a client cannot take "a hit came
back" for "the work exists". Ranking: the number of distinct query tokens an entry's `text`
holds, ties broken by the shorter entry (the closer one), then by corpus order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_TOKEN = re.compile(r"\w+")

#: Words too common to say anything about which work is meant.
_STOP: frozenset[str] = frozenset(
    ("a", "an", "and", "the", "of", "for", "in", "on", "to", "with", "by", "from", "at", "as")
)

# Token sets and an inverted index per index list, built once per list object (the corpus is
# read-only for searches; a test that edits an index between searches gets a fresh list object or
# stale ranks). The inverted index keeps a search's cost to the entries sharing a token, so the
# emulator's loop is not held up ranking (which would delay and bunch the arrival times its rate
# limiter reads).
_TOKENS: dict[int, tuple[Sequence[dict[str, Any]], list[frozenset[str]], dict[str, list[int]]]] = {}


def tokens(text: str) -> frozenset[str]:
    """Distinct casefolded word tokens of `text`, stop words dropped."""
    return frozenset(t for t in _TOKEN.findall(text.casefold()) if t not in _STOP)


def _entry_tokens(
    entries: Sequence[dict[str, Any]],
) -> tuple[list[frozenset[str]], dict[str, list[int]]]:
    known = _TOKENS.get(id(entries))
    if known is not None and known[0] is entries and len(known[1]) == len(entries):
        return known[1], known[2]
    built = [tokens(str(e.get("text", ""))) for e in entries]
    postings: dict[str, list[int]] = {}
    for i, have in enumerate(built):
        for token in have:
            postings.setdefault(token, []).append(i)
    _TOKENS[id(entries)] = (entries, built, postings)
    return built, postings


def rank(entries: Sequence[dict[str, Any]], query: str, limit: int) -> list[tuple[int, float]]:
    """The best `limit` entries for `query` as (index into `entries`, score), best first.

    Entries sharing no token with the query are never answered; every other entry can be.
    """
    wanted = tokens(query)
    if not wanted or limit <= 0:
        return []
    built, postings = _entry_tokens(entries)
    overlap: dict[int, int] = {}
    for token in wanted:
        for i in postings.get(token, ()):
            overlap[i] = overlap.get(i, 0) + 1
    scored = sorted((-n, len(built[i]), i) for i, n in overlap.items())
    return [(i, float(-neg)) for neg, _, i in scored[:limit]]
