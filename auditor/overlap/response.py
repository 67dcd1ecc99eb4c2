"""The citation-overlap contract's result, built from validated citations.

Key order, constant strings and array shapes follow the `200` response schema of
`spec/citation-overlap-openapi.json`. Ordering rules (the contract fixes none beyond its
examples, so these are ours, chosen to be stable): lists over citations follow input order;
the members of a group are a set and are sorted (as the lineage example shows); shared link
targets appear in order of first appearance; locations in document order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from auditor.overlap.anchors import Anchor

__all__ = ["LIMITATIONS", "Citation", "build_result", "encode_result", "result_bytes"]

LIMITATIONS: tuple[str, ...] = (
    "Supplied lineage is not independently verified.",
    "Links may be navigation or unrelated to the claim; candidates are not verified dependencies.",
    "No URLs are fetched. Missing links do not establish independence.",
    "Claim truth and semantic relevance are not assessed.",
)
"""The contract's fixed `limitations`, in its order."""


@dataclass(frozen=True)
class Citation:
    """One validated citation of a bundle."""

    id: str
    url: str
    """Normalized (`urls.normalize_url`)."""
    has_html: bool
    """Nonempty HTML was supplied (counts in `coverage.html_document_count`)."""
    anchors: tuple[Anchor, ...]
    derives_from: str | None = None
    evidence_locator: str | None = None


def _location(anchor: Anchor) -> dict[str, Any]:
    return {
        "target_url": anchor.target_url,
        "line": anchor.line,
        "column": anchor.column,
        "anchor_text": anchor.anchor_text,
    }


def _origin_groups(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    """Citations joined by identical normalized URL or declared lineage (union-find)."""
    parent = list(range(len(citations)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    by_url: dict[str, int] = {}
    index = {c.id: i for i, c in enumerate(citations)}
    for i, cit in enumerate(citations):
        union(i, by_url.setdefault(cit.url, i))
        if cit.derives_from is not None:
            union(i, index[cit.derives_from])
    members: dict[int, list[int]] = {}
    for i in range(len(citations)):
        members.setdefault(find(i), []).append(i)
    groups: list[dict[str, Any]] = []
    for group in members.values():  # in order of each group's first citation
        if len(group) < 2:
            continue
        # The origin is where the declared lineage starts: the first citation with no parent.
        origin = next(i for i in group if citations[i].derives_from is None)
        groups.append(
            {
                "origin_url": citations[origin].url,
                "citation_ids": sorted(citations[i].id for i in group),
                "basis": "supplied_lineage_or_identical_url",
            }
        )
    return groups


def _shared_links(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    """Targets linked from the HTML of at least two different citations."""
    targets: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for cit in citations:
        for anchor in cit.anchors:
            targets.setdefault(anchor.target_url, {}).setdefault(cit.id, []).append(
                _location(anchor)
            )
    return [
        {
            "linked_url": url,
            "documents": [{"id": cid, "locations": locs} for cid, locs in docs.items()],
            "status": "shared_link_candidate",
        }
        for url, docs in targets.items()
        if len(docs) >= 2
    ]


def _citation_links(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    """A supplied document linking to another citation's normalized URL."""
    by_url: dict[str, list[str]] = {}
    for cit in citations:
        by_url.setdefault(cit.url, []).append(cit.id)
    order = {cit.id: i for i, cit in enumerate(citations)}
    found: list[dict[str, Any]] = []
    for cit in citations:
        links: dict[str, list[dict[str, Any]]] = {}
        for anchor in cit.anchors:
            for to_id in by_url.get(anchor.target_url, ()):
                if to_id != cit.id:
                    links.setdefault(to_id, []).append(_location(anchor))
        found.extend(
            {
                "from_id": cit.id,
                "to_id": to_id,
                "locations": links[to_id],
                "status": "citation_link_candidate",
            }
            for to_id in sorted(links, key=order.__getitem__)
        )
    return found


def build_result(citations: Sequence[Citation]) -> dict[str, Any]:
    """The contract's result object for validated `citations`, keys in the schema's order."""
    groups = _origin_groups(citations)
    grouped = {cid for group in groups for cid in group["citation_ids"]}
    return {
        "service": "citation-overlap-checker",
        "schema_version": "1",
        "shared_origin_groups": groups,
        "supplied_lineage_links": [
            {"from_id": c.id, "to_id": c.derives_from, "evidence_locator": c.evidence_locator}
            for c in citations
            if c.derives_from is not None
        ],
        "shared_link_candidates": _shared_links(citations),
        "citation_link_candidates": _citation_links(citations),
        "unresolved_citation_ids": [c.id for c in citations if c.id not in grouped],
        "independence": "unknown",
        "coverage": {
            "citation_count": len(citations),
            "html_document_count": sum(c.has_html for c in citations),
        },
        "limitations": list(LIMITATIONS),
    }


def encode_result(result: dict[str, Any], *, indent: int | None = None) -> str:
    """`result` as JSON text: compact (the wire form) or indented; non-ASCII kept as is."""
    if indent is None:
        return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(result, ensure_ascii=False, indent=indent)


def result_bytes(result: dict[str, Any]) -> int:
    """Size of `result` in its wire form (compact UTF-8 JSON), the measure of the result bound."""
    return len(encode_result(result).encode("utf-8"))
