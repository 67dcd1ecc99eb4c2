"""A manuscript as input: which bibliography files it names and which keys it cites, where.

`read_manuscript` reads a LaTeX file (`auditor.load.tex_manuscript`: citations by TeX's rules
for argument text, `\\input`/`\\include`, `\\bibliography`, `\\addbibresource`,
`filecontents`), a LaTeX `.aux` file's `\\citation`/`\\bibdata` lines (BibTeX and biblatex
forms), a `.bbl`, and Pandoc Markdown, Quarto `.qmd` and R Markdown `.Rmd`
(`auditor.load.markdown_manuscript`). The load stage then audits exactly the cited entries, in
order of first citation (see `select_cited`).

A bibliography file that is named but missing is a warning, and the others are audited (as
BibTeX does). A manuscript that names none takes the bibliographies given beside it on the
command line (`auditor.load.load_files` decides, and refuses when there are none at all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from auditor.errors import InputError
from auditor.load.interface import Problem

__all__ = ["SUFFIXES", "Citation", "Manuscript", "is_manuscript", "read_manuscript"]

#: Extensions read as manuscripts rather than bibliographies (compared lower-cased).
SUFFIXES: tuple[str, ...] = (
    ".tex", ".ltx", ".aux", ".bbl", ".md", ".markdown", ".qmd", ".rmd", ".rmarkdown",
)  # fmt: skip
MARKDOWN_SUFFIXES: tuple[str, ...] = (".md", ".markdown", ".qmd", ".rmd", ".rmarkdown")

#: `\input` depth and file count bounds: a manuscript that includes itself, or thousands of
#: files, is refused with a message instead of recursing without end.
MAX_DEPTH = 16
_MAX_FILES = 500

_AUX_CITATION = re.compile(r"\\citation\{([^{}]*)\}|\\abx@aux@cite\{[^{}]*\}\{([^{}]*)\}")
_AUX_BIBDATA = re.compile(r"\\bibdata\{([^{}]*)\}")
_AUX_INPUT = re.compile(r"\\@input\{([^{}]+)\}")
_BBL_ITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}|\\entry\{([^{}]+)\}")
_BCF_SOURCE = re.compile(r"<bcf:datasource[^>]*>([^<]+)</bcf:datasource>")


@dataclass(frozen=True)
class Citation:
    """A key's first citation in the manuscript."""

    key: str
    path: str
    line: int


@dataclass
class Manuscript:
    """What a manuscript names: its bibliographies and its citations in order of first use."""

    path: str
    bibliographies: list[str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    cite_all: bool = False
    """`\\nocite{*}`: every entry of the bibliographies is cited."""
    problems: list[Problem] = field(default_factory=list)
    """Warnings: a named bibliography or included file that is missing, a key that cannot be
    read, each naming its file and line."""
    missing: list[str] = field(default_factory=list)
    """Bibliography files named but not found (each also a warning in `problems`)."""
    embedded: dict[str, str] = field(default_factory=dict)
    """Bibliographies written inside the manuscript (`filecontents`): a name in `bibliographies`
    → its BibTeX text, padded with blank lines so that its line numbers are the manuscript's."""
    _seen: set[str] = field(default_factory=set, repr=False)
    _files: int = field(default=0, repr=False)

    def cite(self, key: str, path: str, line: int) -> None:
        """Record `key` cited at `path:line` (only its first citation is kept)."""
        key = key.strip()
        if key == "*":
            self.cite_all = True
        elif key and key not in self._seen:
            self._seen.add(key)
            self.citations.append(Citation(key, path, line))

    def add_bibliography(self, path: Path) -> None:
        """Name `path` as one of the manuscript's bibliographies (once)."""
        name = str(path)
        if name not in self.bibliographies:
            self.bibliographies.append(name)

    def warn(self, path: str, line: int | None, message: str, kind: str) -> None:
        """Add a warning about `path:line`."""
        self.problems.append(Problem(path, line, message, "warning", kind))

    def bibliography_at(self, path: Path, where: str, line: int | None) -> None:
        """Name `path` as a bibliography if it exists; else warn (`where` is the naming file)."""
        if path.is_file():
            self.add_bibliography(path)
        elif str(path) not in self.missing:
            self.missing.append(str(path))
            self.warn(
                where,
                line,
                f"bibliography {path} not found; auditing what the other bibliographies hold",
                "missing bibliography",
            )


def is_manuscript(path: str) -> bool:
    """Whether `path` is read as a manuscript (by extension)."""
    return Path(path).suffix.lower() in SUFFIXES


def read_manuscript(path: str) -> Manuscript:
    """The bibliographies and citations of the manuscript at `path`.

    Raises `InputError` naming the file (and the line of the command) for an unreadable file or
    includes nested too deep. A missing bibliography or included file, or a key that cannot be
    read, is a warning in `problems`; a manuscript may name no bibliography at all (the caller
    decides).
    """
    from auditor.load.markdown_manuscript import read_markdown
    from auditor.load.tex_manuscript import read_tex

    manuscript = Manuscript(path)
    suffix = Path(path).suffix.lower()
    if suffix == ".aux":
        _read_aux(Path(path), manuscript, depth=0)
    elif suffix == ".bbl":
        _read_bbl(Path(path), manuscript)
    elif suffix in MARKDOWN_SUFFIXES:
        read_markdown(Path(path), manuscript)
    else:
        read_tex(Path(path), manuscript)
    return manuscript


def read_text(path: Path, manuscript: Manuscript, origin: str) -> str:
    """The text of one file the manuscript is made of (UTF-8, else Latin-1).

    Raises `InputError` naming `origin` when it cannot be read or the file count bound is passed.
    """
    manuscript._files += 1
    if manuscript._files > _MAX_FILES:
        raise InputError(f"{origin}: more than {_MAX_FILES} included files")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{origin}: cannot read {path} ({exc.strerror or exc})") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def with_suffix(name: str, suffix: str) -> str:
    """`name`, with `suffix` added when it has none (`refs` → `refs.bib`)."""
    return name if Path(name).suffix else name + suffix


def _read_aux(path: Path, manuscript: Manuscript, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InputError(f"{path}: \\@input nested deeper than {MAX_DEPTH} (a cycle?)")
    shown, root = str(path), path.parent
    for number, line in enumerate(read_text(path, manuscript, shown).splitlines(), 1):
        for match in _AUX_CITATION.finditer(line):
            for key in (match[1] or match[2] or "").split(","):
                manuscript.cite(key, shown, number)
        for match in _AUX_BIBDATA.finditer(line):
            for name in filter(None, (n.strip() for n in match[1].split(","))):
                manuscript.bibliography_at(root / with_suffix(name, ".bib"), shown, number)
        for match in _AUX_INPUT.finditer(line):
            child = root / match[1].strip()
            if child.is_file():  # LaTeX writes \@input for chapters that may not exist yet
                _read_aux(child, manuscript, depth + 1)
    if depth == 0 and not manuscript.bibliographies and not manuscript.missing:
        _read_bcf(path.with_suffix(".bcf"), manuscript, shown)  # biblatex: no \bibdata


def _read_bbl(path: Path, manuscript: Manuscript) -> None:
    """Keys in the order the `.bbl` lists them; the bibliographies from the sibling `.aux`
    (`\\bibdata`, BibTeX) or `.bcf` (`bcf:datasource`, biber), since a `.bbl` holds formatted
    entries, not the source records to compare."""
    shown = str(path)
    for number, line in enumerate(read_text(path, manuscript, shown).splitlines(), 1):
        for match in _BBL_ITEM.finditer(line):
            manuscript.cite(match[1] or match[2], shown, number)
    aux = path.with_suffix(".aux")
    if aux.is_file():
        for match in _AUX_BIBDATA.finditer(read_text(aux, manuscript, shown)):
            for name in filter(None, (n.strip() for n in match[1].split(","))):
                manuscript.bibliography_at(aux.parent / with_suffix(name, ".bib"), str(aux), None)
    _read_bcf(path.with_suffix(".bcf"), manuscript, shown)


def _read_bcf(bcf: Path, manuscript: Manuscript, shown: str) -> None:
    """The data sources biber's control file names, where they exist."""
    if bcf.is_file():
        for match in _BCF_SOURCE.finditer(read_text(bcf, manuscript, shown)):
            bib = bcf.parent / match[1].strip()
            if bib.is_file():
                manuscript.add_bibliography(bib)
