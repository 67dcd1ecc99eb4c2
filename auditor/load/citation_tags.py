"""Manubot's citation keys by persistent identifier, and the tags that stand for them.

A manubot manuscript cites `@doi:10.1126/science.aaf5675`, `@pmid:25648772`, `@arxiv:…`,
`@pmcid:…`, `@isbn:…`, `@url:…` or `@wikidata:…` (manubot's own prefixes and their aliases
`pubmed`, `pmc`, `http`, `https`; any case): manubot fetches the metadata itself, so no
bibliography holds these keys. Older manubot also reads `@tag:name`, which
`content/citation-tags.tsv` (a `tag<TAB>citation` table beside the manuscript) maps to one of
those keys. Only a Markdown file's citations are read so: in LaTeX such a key with no entry is
a missing entry like any other (LaTeX prints `[?]`).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path

from auditor.load.manuscript import MARKDOWN_SUFFIXES
from auditor.load.manuscript_tree import outside

__all__ = ["IDENTIFIER_PREFIXES", "TAGS_FILE", "identifier_key", "is_manubot_key", "tag_target"]

#: Manubot's prefix (lowercased) → the `declared_type` its row carries (`auditor.classify`
#: reads doi, pmid and arxiv; the others are types no register covers).
IDENTIFIER_PREFIXES: dict[str, str] = {
    "doi": "doi",
    "pmid": "pmid",
    "pubmed": "pmid",
    "arxiv": "arxiv",
    "pmcid": "pmcid",
    "pmc": "pmcid",
    "isbn": "isbn",
    "url": "url",
    "http": "url",
    "https": "url",
    "wikidata": "wikidata",
}
#: The file, beside the manuscript, that defines `@tag:` keys.
TAGS_FILE = "citation-tags.tsv"
#: A tags file larger than this is not read (a real one holds a few hundred short lines).
_MAX_TAGS_BYTES = 1 << 20


def identifier_key(key: str) -> tuple[str, str] | None:
    """`(declared_type, identifier as written)` of a manubot key by identifier
    (`DOI:10.1126/x` → `("doi", "10.1126/x")`; `@https://a.org` → `("url", "https://a.org")`),
    or `None` for any other key (`tag:…`, `raw:…`, `smith2020`, a prefix with nothing after)."""
    prefix, colon, rest = key.partition(":")
    kind = IDENTIFIER_PREFIXES.get(prefix.lower())
    rest = rest.strip()
    if not colon or kind is None or not rest:
        return None
    if prefix.lower() in ("http", "https"):  # the key is the URL itself
        return kind, f"{prefix.lower()}:{rest}"
    return kind, rest


def is_manubot_key(key: str, path: str) -> bool:
    """Whether `key`, cited in the file `path`, is a manubot key by identifier or a `@tag:`
    key (whatever the tags file says): only in a Markdown file."""
    if Path(path).suffix.lower() not in MARKDOWN_SUFFIXES:
        return False
    return identifier_key(key) is not None or key.lower().startswith("tag:")


def tag_target(
    key: str, manuscript_path: str, read: MutableMapping[str, dict[str, str]]
) -> str | None:
    """The key a `tag:name` key stands for in the `citation-tags.tsv` beside `manuscript_path`,
    or `None` (not a tag, no such file or tag, a file that cannot be read or links out of the
    manuscript's folder). `read` holds the
    files already read by this load (path → tags), so each is read once."""
    prefix, colon, name = key.partition(":")
    if not colon or prefix.lower() != "tag":
        return None
    folder = Path(manuscript_path).parent
    path = str(folder / TAGS_FILE)
    if path not in read:
        # a tags file that links out of the manuscript's folder is not read (#37)
        inside = outside(folder.resolve(), folder, TAGS_FILE) is None
        read[path] = _tags(path) if inside else {}
    return read[path].get(name.strip())


def _tags(path: str) -> dict[str, str]:
    """`tag → citation` of one tags file (header line `tag<TAB>citation` skipped); empty when
    the file is missing, too large or unreadable: a tag it would define stays a missing entry."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_TAGS_BYTES + 1)
    except OSError:
        return {}
    if len(data) > _MAX_TAGS_BYTES:
        return {}
    out: dict[str, str] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        tag, tab, citation = line.partition("\t")
        tag, citation = tag.strip(), citation.strip()
        if tab and tag and citation and (tag, citation) != ("tag", "citation"):
            out.setdefault(tag, citation)
    return out
