"""A manuscript as input: which bibliography files it names and which keys it cites, where.

This module holds the `Manuscript` the readers fill and the helpers they share.
`auditor.load.manuscript_reader.read_manuscript` reads a LaTeX file
(`auditor.load.tex_manuscript`: citations by TeX's rules for argument text,
`\\input`/`\\include`, `\\bibliography`, `\\addbibresource`, `filecontents`), a LaTeX `.aux`
file's `\\citation`/`\\bibdata` lines (BibTeX and biblatex forms), a `.bbl`, and Pandoc Markdown,
Quarto `.qmd` and R Markdown `.Rmd` (`auditor.load.markdown_manuscript`). The load stage then
audits exactly the cited entries, in order of first citation (see `select_cited`).

A bibliography file that is named but missing is a warning, and the others are audited (as
BibTeX does). A file named outside the manuscript's own folder tree is a finding, never a read
(`auditor.load.manuscript_tree`). A manuscript that names none takes the bibliographies given
beside it on the command line (`auditor.load.load_files` decides, and refuses when there are
none at all).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from auditor.errors import InputError
from auditor.load.interface import Problem
from auditor.load.manuscript_tree import outside

__all__ = [
    "MARKDOWN_SUFFIXES",
    "MAX_DEPTH",
    "SUFFIXES",
    "Citation",
    "Manuscript",
    "is_manuscript",
    "read_text",
    "with_suffix",
]

#: Extensions read as manuscripts rather than bibliographies (compared lower-cased).
SUFFIXES: tuple[str, ...] = (
    ".tex", ".ltx", ".aux", ".bbl", ".md", ".markdown", ".qmd", ".rmd", ".rmarkdown",
)  # fmt: skip
MARKDOWN_SUFFIXES: tuple[str, ...] = (".md", ".markdown", ".qmd", ".rmd", ".rmarkdown")

#: `\input` depth and file count bounds: a manuscript that includes itself, or thousands of
#: files, is refused with a message instead of recursing without end.
MAX_DEPTH = 16
_MAX_FILES = 500


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
    within: Path | None = None
    """A folder no file of the manuscript may be outside, however it is named (the service:
    the upload's own folder), and where the search for a Quarto project stops."""
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
    refused: dict[str, tuple[str, list[Problem]]] = field(default_factory=dict)
    """Files named outside the manuscript's tree (as joined to their folder) → the name as
    written and the findings in `problems` that say so, one for each place naming it."""
    root: Path = field(init=False)
    """The manuscript's tree: its folder, resolved (a Quarto project's folder, when
    `auditor.load.markdown_manuscript` finds one holding it)."""
    _seen: set[str] = field(default_factory=set, repr=False)
    _files: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(self.path).parent.resolve()
        if self.within is not None and not self.root.is_relative_to(self.within.resolve()):
            raise InputError(f"{self.path}: outside {self.within}")

    def place(self, base: Path, name: str, where: str, line: int | None) -> Path | None:
        """`base / name` when it lies inside the tree; else `None`, with a finding at
        `where:line` (`base` is a folder inside the tree; `name` as the manuscript writes it).
        """
        reason = outside(self.root, base, name)
        if reason is None:
            return base / name
        shown = str(base / name) if reason != "an absolute path" else name
        said = self.refused.setdefault(shown, (name, []))[1]
        if not any(p.path == where and p.line == line for p in said):
            self.warn(
                where,
                line,
                f"{name} is outside the manuscript's folder ({reason}); not read. "
                "Give the file on the command line to audit it",
                "outside the manuscript",
            )
            said.append(self.problems[-1])
        return None

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
