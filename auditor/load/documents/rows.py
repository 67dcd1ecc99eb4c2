"""Turn the references cut from a document into `references` rows, the same for every kind.

Each piece is read by `refstring.parse`; its row keeps the string (`reference_text`), where it
was printed (`source_line`: the line or paragraph, `source_page`, `source_label`: its number or
label) and only the fields the string claims. The key is the printed label when there is one,
else `ref<n>` (the piece's position in the list).

A string whose parts could not be told apart carries the `UNSURE` warning, which sends it to
the search by its whole string (`documents.settle`). When no title was read and the string
prints no identifier, `title` holds the whole string (without its label and identifiers), so
the row is searched rather than INVALID; the search reads the real title off the string.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from auditor.load.documents.refstring import ParsedReference, parse, string_query, strip_label
from auditor.load.documents.split import Piece
from auditor.load.interface import Rows
from auditor.names import parse as parse_name

__all__ = ["UNSURE", "rows_from_pieces"]

#: Warning a row carries when its authors/title boundary was not marked in the string.
UNSURE = "reference string read without a year, quotes or type tag to mark its parts"


_DASHES_RE = re.compile(r"[—–_-]{2,}")
# a title the dash's shape marked (quoted, or after the year): as sure as with names before it
_MARKED_TITLE = 0.85
_MARKED_VENUE = 0.6
_SAME_AUTHORS_RE = re.compile(r"^(?:\[[^\]]*\]\s*|\d{1,4}[.)]?\s+)?[—–_-]{2,}")


def author_names(authors: Sequence[str]) -> list[dict[str, str | None] | None] | None:
    """The `author_names` value of names as printed: `Family, Given` or `Given Family`, read by
    the one name parser (`auditor.names.parse`); `None` for no names."""
    parsed = [p.as_row() if (p := parse_name(a)) is not None else None for a in authors]
    return parsed or None


def _same_authors(
    ref: ParsedReference, previous: list[str], previous_confidence: float | None
) -> tuple[list[str], bool, dict[str, float]]:
    """`(authors, sure, confidence)` of `ref`, with `———.` (Chicago, APA 6) or `---, et al.`
    (MLA) read as the authors of the entry before, as sure as they were."""
    authors, sure, confidence = ref.authors, ref.sure, dict(ref.confidence)
    if not _SAME_AUTHORS_RE.match(ref.text) or (authors and not _DASHES_RE.fullmatch(authors[0])):
        return authors, sure, confidence
    authors = previous
    sure = bool(authors and ref.title and ref.style != "plain")
    if sure and ref.title:
        confidence["title"] = max(confidence.get("title", 0.0), _MARKED_TITLE)
        if ref.container_title:
            confidence["container_title"] = max(
                confidence.get("container_title", 0.0), _MARKED_VENUE
            )
    if authors and previous_confidence is not None:
        confidence["authors"] = previous_confidence
    return authors, sure, confidence


def _authors_part(ref: ParsedReference) -> str | None:
    """The author part of `ref` as printed (before its title), when its authors were read."""
    if not ref.authors or not ref.title:
        return None
    _, rest = strip_label(ref.text)
    at = rest.find(ref.title)
    part = rest[:at].rstrip() if at > 0 else ""
    return part if part.endswith(",") else None


def _parse_piece(text: str, before: str | None) -> tuple[ParsedReference, str | None]:
    """`parse(text)` and its author part as printed or meant. A string whose author part is
    empty (`[43] , Title, in ICLR, 2022.`: SIAM draws a rule for "the same authors", which
    leaves no text) is read with `before`, the author part of the reference before it, as its
    printer meant; its `text` stays as printed."""
    ref = parse(text)
    label, rest = strip_label(ref.text)
    if before is None or label is None or not rest.lstrip().startswith(","):
        # unlabelled, a piece that starts with a comma may be a broken-off tail
        return ref, _authors_part(ref)
    meant = parse(f"[{label}] {before} {rest.lstrip()[1:].lstrip()}")
    if not meant.authors:
        return ref, None
    return replace(meant, text=ref.text, label=ref.label), before


def rows_from_pieces(pieces: Sequence[Piece]) -> Rows:
    """One row per piece, in order."""
    rows = Rows()
    seen: set[str] = set()
    previous: list[str] = []
    previous_confidence: float | None = None
    before: str | None = None
    for n, piece in enumerate(pieces, start=1):
        ref, before = _parse_piece(piece.text, before)
        authors, sure, confidence = _same_authors(ref, previous, previous_confidence)
        previous = authors
        previous_confidence = confidence.get("authors")
        ids = ref.ids
        title = ref.title
        if not sure and not title and not (ids.doi or ids.pmid or ids.arxiv):
            title = string_query(ref.text) or None
        key = ref.label or f"ref{n}"
        if key in seen:
            key = f"{key} ({n})"
        seen.add(key)
        rows.add(
            source_line=piece.line,
            source_page=piece.page,
            source_label=ref.label,
            reference_text=ref.text,
            key=key,
            entry_type=ref.entry_type,
            doi=ref.ids.doi,
            pmid=ref.ids.pmid,
            arxiv=ref.ids.arxiv,
            url=ref.ids.url,
            title=title,
            authors=authors,
            author_names=author_names(authors),
            authors_et_al=ref.et_al,
            year=ref.year,
            container_title=ref.container_title,
            volume=ref.volume,
            issue=ref.issue,
            pages=ref.pages,
            warnings=[] if sure else [UNSURE],
            field_confidence=confidence or None,
        )
    return rows
