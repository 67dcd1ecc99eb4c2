"""The fields read from one reference string: the value every document reader hands on.

Filled by `refstring.parse` (the rules, then `merge.with_model`) and read by `rows` into the
`references` table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor.load.documents.identifiers import Identifiers

__all__ = ["ParsedReference"]


@dataclass(frozen=True)
class ParsedReference:
    """The fields read from one reference string; `None` where the string claims nothing."""

    text: str
    """The reference as printed, whitespace collapsed (the `reference_text` column)."""
    label: str | None = None
    """Its number or label as printed (`12`, `Agarwal et al., 2021e`), without brackets."""
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    """One string per author as written (family-first names without a comma get one)."""
    et_al: bool = False
    year: int | None = None
    container_title: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    ids: Identifiers = field(default_factory=Identifiers)
    entry_type: str | None = None
    """What the string's shape says the work is (`inproceedings` after `In …`, `article` with a
    volume or pages, `book` with a publisher, `online` for a bare URL, `misc` for a preprint),
    else `reference`: a formatted reference whose kind the string does not say."""
    style: str = "unknown"
    """numbered | author_year | quoted | gbt7714 | unknown: the shape that was recognised."""
    sure: bool = False
    """Whether the authors/title/venue boundaries were marked (year, quotes or a type tag)."""
    confidence: dict[str, float] = field(default_factory=dict)
    """How sure the reading is of `title`, `authors`, `year` and `container_title`, 0..1 (the
    `field_confidence` column); a field not read has none."""
