"""The title-search stage: references without a usable identifier, found by title in the indexes.

`routing` decides which rows a miss can count against and which indexes to ask in what order;
`answers` keeps search answers in the source tiers (snapshot, cache) as `RECORDS` rows;
`choose` says whether a hit is the cited work; `stage` runs the whole thing over a table.
"""

from __future__ import annotations

from auditor.search.stage import SearchResult, title_search

__all__ = ["SearchResult", "title_search"]
