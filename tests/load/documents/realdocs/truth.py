"""The truth of a real document: its own `.bib` entries, filtered to what it cites.

What a document cites comes from its own `.bbl` (`\\bibitem{key}` for BibTeX styles, `\\entry{key}`
for biblatex) or, where the repository committed no `.bbl`, from the `\\cite...{keys}` of its
`.tex` files (`\\nocite{*}` means every entry). The entries' fields are read by the project's
BibTeX loader, which decodes LaTeX; a key cited but absent from the `.bib` is kept as a truth
entry with no fields, so it still counts against recall.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from auditor.load import load_files

_BIBITEM = re.compile(r"\\bibitem\s*(?:\[(?:[^\[\]]|\[[^\]]*\])*\])?\s*\{([^}]+)\}")
_ENTRY = re.compile(r"\\entry\{([^}]+)\}\{")
_CITE = re.compile(r"\\(?:[a-zA-Z]*cite[a-zA-Z]*\*?|nocite)\s*(?:\[[^\]]*\]\s*){0,2}\{([^}]+)\}")
_COMMENT = re.compile(r"(?<!\\)%.*")


@dataclass(frozen=True)
class Truth:
    """One reference the document prints, with its fields from the `.bib`."""

    key: str
    title: str | None
    first_family: str | None
    """The first author's (or editor's) family name, or the whole name of a corporate author."""
    year: str | None


def cited_keys_bbl(text: str) -> list[str]:
    """Keys in the order the `.bbl` prints them (BibTeX `\\bibitem` or biblatex `\\entry`)."""
    keys = _ENTRY.findall(text) or _BIBITEM.findall(text)
    return list(dict.fromkeys(k.strip() for k in keys))


def cited_keys_tex(texts: list[str]) -> list[str] | None:
    """Keys cited in `.tex` sources in order of first citation; `None` for `\\nocite{*}`."""
    keys: list[str] = []
    for text in texts:
        for group in _CITE.findall(_COMMENT.sub("", text)):
            keys.extend(k.strip() for k in group.split(",") if k.strip())
    if "*" in keys:
        return None
    return list(dict.fromkeys(keys))


def _first_family(row: dict[str, object]) -> str | None:
    names = row.get("author_names") or []
    if isinstance(names, list) and names:
        first = names[0]
        if isinstance(first, dict) and first.get("family"):
            return str(first["family"])
    authors = row.get("authors") or []
    if isinstance(authors, list) and authors:
        return str(authors[0])
    return None


def cited_entries(
    bibs: list[Path], bbl: Path | None, texs: list[Path]
) -> list[tuple[str, dict[str, object] | None]]:
    """`(key, its .bib row or None)` for every entry the document prints, in citing order."""
    rows = load_files([str(b) for b in bibs]).table.to_pylist()
    by_key = {str(r["key"]): r for r in rows if r.get("key")}
    by_lower = {k.lower(): r for k, r in by_key.items()}
    if bbl is not None:
        keys: list[str] | None = cited_keys_bbl(bbl.read_text("utf-8", errors="replace"))
    else:
        keys = cited_keys_tex([t.read_text("utf-8", errors="replace") for t in texs])
    if keys is None:
        keys = list(by_key)
    return [(key, by_key.get(key) or by_lower.get(key.lower())) for key in keys]


def read_truth(bibs: list[Path], bbl: Path | None, texs: list[Path]) -> list[Truth]:
    """The entries the document prints: the `.bib` rows whose keys `bbl` (else `texs`) cite."""
    out = []
    for key, row in cited_entries(bibs, bbl, texs):
        if row is None:
            out.append(Truth(key, None, None, None))
            continue
        year = re.search(r"\d{4}", str(row.get("year") or ""))
        out.append(Truth(key, row.get("title"), _first_family(row), year.group() if year else None))
    return out
