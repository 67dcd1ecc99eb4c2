"""Which format a file is, and the loader that reads it.

The format comes from a trusted extension, else from the content's signature, else from the
extension (`detect_format`); `loader_for` maps a format name to its `Loader`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from auditor.errors import InputError
from auditor.load.bibtex import BibtexLoader
from auditor.load.csl_json import CslJsonLoader, looks_like_csl
from auditor.load.csv import CsvLoader
from auditor.load.endnote import EndnoteLoader
from auditor.load.endnote_xml import EndnoteXmlLoader, looks_like_endnote_xml
from auditor.load.interface import Loader
from auditor.load.manuscript import is_manuscript
from auditor.load.medline import MedlineLoader
from auditor.load.ris import RisLoader
from auditor.load.wos import WosLoader
from auditor.load.wos_tab import WosTabLoader, looks_like_wos_tab

__all__ = ["FORMATS", "detect_format", "is_manuscript_file", "loader_for"]

#: Format name → file extensions that select it when the content does not say.
FORMATS: dict[str, tuple[str, ...]] = {
    "bibtex": (".bib", ".bibtex", ".biblatex"),
    "ris": (".ris",),
    "wos": (".ciw", ".isi"),
    "wos_tab": (),
    "medline": (".nbib", ".medline"),
    "endnote": (".enw",),
    "endnote_xml": (".xml",),
    "csl_json": (".json",),
    "csv": (".csv", ".tsv"),
    "text": (".txt", ".text", ".md", ".markdown"),
    "pdf": (".pdf",),
    "docx": (".docx",),
    "odt": (".odt",),
}
#: Extensions whose format is never second-guessed from the content.
_TRUSTED = (".bib", ".bibtex", ".biblatex", ".csv", ".tsv")
_SIGNATURES = (
    (re.compile(r"^TY  ?- ", re.M), "ris"),
    (re.compile(r"^PT [A-Z]\s*$", re.M), "wos"),
    (re.compile(r"^PMID- ?\d", re.M), "medline"),
    (re.compile(r"^%0 \S", re.M), "endnote"),
    # a line's own leading space only (`^\s*` would run on from every line start of a long
    # blank stretch, the stretch's square; searched for a yes or no, it finds the same files)
    (re.compile(r"^[^\S\n]*@\s*[A-Za-z]+\s*[{(]", re.M), "bibtex"),
)


_HEADER_NAMES = frozenset({"title", "doi", "author", "authors", "year", "key", "pmid", "journal"})


def _csv_header(sample: str) -> bool:
    """Whether the first line is a CSV header: short cells, one of them a known column name."""
    first = sample.split("\n", 1)[0].strip()
    delimiter = next((d for d in (",", "\t", ";") if d in first), None)
    if delimiter is None:
        return False
    cells = [c.strip().strip('"').lower() for c in first.split(delimiter)]
    return all(len(c) <= 40 for c in cells) and bool(_HEADER_NAMES & set(cells))


def detect_format(path: str, head: str) -> str:
    """The format of `path`: by a trusted extension, else by content, else by extension, else CSV.

    A Web of Science tab-delimited header (`PT`, `AU`, … tab-separated on the first line) wins
    even over a trusted `.csv`/`.tsv` extension: it is that export, whatever the file's name.
    Other content signatures are looked for at line starts in `head` (the first 4 KiB):
    `TY  - ` → ris, `PT J` → wos (Web of Science), `PMID- ` → medline, `%0 ` → endnote,
    `@type{` → bibtex; a JSON array or object with CSL keys (`"title":`, `"issued":`, …) →
    csl_json; `<xml><records>` → endnote_xml. A `.txt` with none of these is a reference list
    (`text`) unless its first line is a CSV header naming `title`, `doi`, `author`, … (`csv`).
    """
    suffix = Path(path).suffix.lower()
    if looks_like_wos_tab(head):
        return "wos_tab"
    if suffix in _TRUSTED:
        return next(name for name, sfx in FORMATS.items() if suffix in sfx)
    sample = head[:4096].lstrip("\ufeff")
    if looks_like_csl(sample):
        return "csl_json"
    if looks_like_endnote_xml(sample):
        return "endnote_xml"
    for pattern, name in _SIGNATURES:
        if pattern.search(sample):
            return name
    if suffix in FORMATS["text"] and _csv_header(sample):
        return "csv"  # a table saved as .txt: its first line names CSV columns
    return next((name for name, sfx in FORMATS.items() if suffix in sfx), "csv")


def loader_for(fmt: str, csv_map: Mapping[str, str] | None) -> Loader:
    """The loader of format `fmt` (`csv_map`: the CSV column map)."""
    if fmt == "bibtex":
        return BibtexLoader()
    if fmt == "ris":
        return RisLoader()
    if fmt == "wos":
        return WosLoader()
    if fmt == "wos_tab":
        return WosTabLoader()
    if fmt == "medline":
        return MedlineLoader()
    if fmt == "endnote":
        return EndnoteLoader()
    if fmt == "endnote_xml":
        return EndnoteXmlLoader()
    if fmt == "csl_json":
        return CslJsonLoader()
    if fmt == "csv":
        return CsvLoader(csv_map or {})
    if fmt in ("text", "pdf", "docx", "odt"):
        # imported here: the document readers use this package's loaders (CSL-JSON, EndNote XML)
        from auditor.load.documents import PlainTextLoader, binary_loader

        return PlainTextLoader() if fmt == "text" else binary_loader(fmt)
    raise InputError(f"unknown format {fmt!r} (choose {', '.join(FORMATS)})")


# (a line's own leading space only, as in `_SIGNATURES`)
_MD_MANUSCRIPT_RE = re.compile(
    r"^[^\S\n]*bibliography\s*:|\[[^\]\n]{0,200}@[\w:.#$%&+?<>~/-]", re.M
)


def is_manuscript_file(path: str) -> bool:
    """A manuscript, except a Markdown file naming no bibliography and citing nothing: that is
    a reference list (read by `auditor.load.documents`)."""
    if not is_manuscript(path):
        return False
    if Path(path).suffix.lower() not in (".md", ".markdown"):
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(256 * 1024)
    except OSError:
        return True  # the manuscript reader names the file
    return bool(_MD_MANUSCRIPT_RE.search(head))
