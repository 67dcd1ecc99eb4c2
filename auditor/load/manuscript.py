"""A manuscript as input: which bibliography files it names and which keys it cites, where.

`read_manuscript` follows a LaTeX file's `\\input`/`\\include`, its `\\bibliography` and
`\\addbibresource` commands and every citation command (natbib, biblatex, plain LaTeX), a
LaTeX `.aux` file's `\\citation`/`\\bibdata` lines (BibTeX and biblatex forms), and a Pandoc
Markdown file's `[@key]` citations with its YAML `bibliography:`. The load stage then audits
exactly the cited entries, in order of first citation (see `select_cited`).

A manuscript is read as text with a regular grammar, not run as TeX: macros that expand to
citation commands are not followed. Commented text (`%` to the end of the line, unless escaped
as `\\%`) is ignored, as TeX ignores it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from auditor.errors import InputError

__all__ = ["SUFFIXES", "Citation", "Manuscript", "is_manuscript", "read_manuscript"]

#: Extensions read as manuscripts rather than bibliographies.
SUFFIXES: tuple[str, ...] = (".tex", ".ltx", ".aux", ".bbl", ".md", ".markdown")

#: `\input` depth and file count bounds: a manuscript that includes itself, or thousands of
#: files, is refused with a message instead of recursing without end.
_MAX_DEPTH = 16
_MAX_FILES = 500

_COMMENT = re.compile(r"(?<!\\)%.*")
# A citation command: any control word containing `cite` (natbib \citep, \citet, \citeauthor;
# biblatex \parencite, \textcite, \autocite, \footcite, \cites, …) or \nocite, starred or not,
# then up to two optional arguments and one or more mandatory key groups (biblatex's multicite
# `\cites[p.~1]{a}[p.~2]{b}` has several).
_CITE = re.compile(
    r"\\(?P<cmd>[A-Za-z]*cite[A-Za-z]*|nocite)\*?"
    r"(?P<args>(?:\s*(?:\([^()]*\)|\[[^\[\]]*\]))*\s*\{[^{}]*\}(?:\s*(?:\[[^\[\]]*\])*\s*\{[^{}]*\})*)"
)
_GROUP = re.compile(r"\{([^{}]*)\}")
_OPTIONAL = re.compile(r"\[[^\[\]]*\]|\([^()]*\)")
# Control words containing "cite" that are settings, not citations.
_NOT_CITATIONS = frozenset({"citestyle", "citeindexfalse", "citeindextrue", "citesetup"})
_INPUT = re.compile(r"\\(?:input|include|subfile)\s*\{([^{}]+)\}")
_BIBLIOGRAPHY = re.compile(r"\\bibliography\s*\{([^{}]+)\}")
_ADDBIB = re.compile(
    r"\\(?:addbibresource|addglobalbib|addsectionbib)\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}"
)
_AUX_CITATION = re.compile(r"\\citation\{([^{}]*)\}|\\abx@aux@cite\{[^{}]*\}\{([^{}]*)\}")
_AUX_BIBDATA = re.compile(r"\\bibdata\{([^{}]*)\}")
_AUX_INPUT = re.compile(r"\\@input\{([^{}]+)\}")
# Pandoc: `[@key]`, `[see @key, p. 3; @other]`, `@key` in text, `-@key`; keys start with a
# letter, digit or `_` and may hold internal punctuation (`:.#$%&-+?<>~/`).
_BBL_ITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}|\\entry\{([^{}]+)\}")
_BCF_SOURCE = re.compile(r"<bcf:datasource[^>]*>([^<]+)</bcf:datasource>")
_MD_CITE = re.compile(r"(?<![\w@.])-?@([\w][\w:.#$%&+?<>~/-]*[\w])|(?<![\w@.])-?@(\w)")
_MD_BIB = re.compile(r"^bibliography:\s*(.*)$")
_MD_LIST_ITEM = re.compile(r"^\s*-\s*(.+)$")


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
    _seen: set[str] = field(default_factory=set, repr=False)
    _files: int = field(default=0, repr=False)

    def cite(self, key: str, path: str, line: int) -> None:
        key = key.strip()
        if key == "*":
            self.cite_all = True
        elif key and key not in self._seen:
            self._seen.add(key)
            self.citations.append(Citation(key, path, line))

    def add_bibliography(self, path: Path) -> None:
        name = str(path)
        if name not in self.bibliographies:
            self.bibliographies.append(name)


def is_manuscript(path: str) -> bool:
    """Whether `path` is read as a manuscript (by extension)."""
    return Path(path).suffix.lower() in SUFFIXES


def read_manuscript(path: str) -> Manuscript:
    """The bibliographies and citations of the manuscript at `path`.

    Raises `InputError` naming the file (and the line of the command) for an unreadable file,
    an included file that does not exist, or a manuscript that names no bibliography.
    """
    manuscript = Manuscript(path)
    suffix = Path(path).suffix.lower()
    if suffix == ".aux":
        _read_aux(Path(path), manuscript, depth=0)
    elif suffix == ".bbl":
        _read_bbl(Path(path), manuscript)
    elif suffix in (".md", ".markdown"):
        _read_markdown(Path(path), manuscript)
    else:
        _read_tex(Path(path), Path(path).parent, manuscript, depth=0)
    if not manuscript.bibliographies:
        raise InputError(
            f"{path}: names no bibliography (no \\bibliography, \\addbibresource, \\bibdata "
            "or bibliography: line); give the .bib files on the command line too"
        )
    return manuscript


def _text(path: Path, manuscript: Manuscript, origin: str) -> str:
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


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line with its comment removed, numbered from 1."""
    for number, line in enumerate(text.splitlines(), 1):
        yield number, _COMMENT.sub("", line)


def _keys(args: str) -> Iterator[str]:
    for group in _GROUP.findall(_OPTIONAL.sub("", args)):
        yield from group.split(",")


def _with_suffix(name: str, suffix: str) -> str:
    return name if Path(name).suffix else name + suffix


def _read_tex(path: Path, root: Path, manuscript: Manuscript, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise InputError(f"{path}: \\input nested deeper than {_MAX_DEPTH} (a cycle?)")
    shown = str(path)
    for number, line in _lines(_text(path, manuscript, shown)):
        if "\\" not in line:
            continue
        where = f"{shown}:{number}"
        for match in _CITE.finditer(line):
            if match["cmd"].lower() not in _NOT_CITATIONS:
                for key in _keys(match["args"]):
                    manuscript.cite(key, shown, number)
        for match in _INPUT.finditer(line):
            child = root / _with_suffix(match[1].strip(), ".tex")
            if not child.is_file():
                raise InputError(f"{where}: included file {child} not found")
            _read_tex(child, root, manuscript, depth + 1)
        for match in (*_BIBLIOGRAPHY.finditer(line), *_ADDBIB.finditer(line)):
            for name in match[1].split(","):
                if name.strip():
                    bib = root / _with_suffix(name.strip(), ".bib")
                    if not bib.is_file():
                        raise InputError(f"{where}: bibliography {bib} not found")
                    manuscript.add_bibliography(bib)


def _read_aux(path: Path, manuscript: Manuscript, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise InputError(f"{path}: \\@input nested deeper than {_MAX_DEPTH} (a cycle?)")
    shown, root = str(path), path.parent
    for number, line in enumerate(_text(path, manuscript, shown).splitlines(), 1):
        for match in _AUX_CITATION.finditer(line):
            for key in (match[1] or match[2] or "").split(","):
                manuscript.cite(key, shown, number)
        for match in _AUX_BIBDATA.finditer(line):
            for name in match[1].split(","):
                if name.strip():
                    bib = root / _with_suffix(name.strip(), ".bib")
                    if not bib.is_file():
                        raise InputError(f"{shown}:{number}: bibliography {bib} not found")
                    manuscript.add_bibliography(bib)
        for match in _AUX_INPUT.finditer(line):
            child = root / match[1].strip()
            if child.is_file():  # LaTeX writes \@input for chapters that may not exist yet
                _read_aux(child, manuscript, depth + 1)


def _read_bbl(path: Path, manuscript: Manuscript) -> None:
    """Keys in the order the `.bbl` lists them; the bibliographies from the sibling `.aux`
    (`\\bibdata`, BibTeX) or `.bcf` (`bcf:datasource`, biber), since a `.bbl` holds formatted
    entries, not the source records to compare."""
    shown = str(path)
    for number, line in enumerate(_text(path, manuscript, shown).splitlines(), 1):
        for match in _BBL_ITEM.finditer(line):
            manuscript.cite(match[1] or match[2], shown, number)
    aux, bcf = path.with_suffix(".aux"), path.with_suffix(".bcf")
    if aux.is_file():
        for match in _AUX_BIBDATA.finditer(_text(aux, manuscript, shown)):
            for name in filter(None, (n.strip() for n in match[1].split(","))):
                bib = aux.parent / _with_suffix(name, ".bib")
                if bib.is_file():
                    manuscript.add_bibliography(bib)
    if bcf.is_file():
        for match in _BCF_SOURCE.finditer(_text(bcf, manuscript, shown)):
            bib = bcf.parent / match[1].strip()
            if bib.is_file():
                manuscript.add_bibliography(bib)


def _read_markdown(path: Path, manuscript: Manuscript) -> None:
    shown, root = str(path), path.parent
    lines = _text(path, manuscript, shown).splitlines()
    body_start = 0
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() in ("---", "..."):
                _front_matter(lines[1:end], root, manuscript, shown)
                body_start = end + 1
                break
    fenced = False
    for number, line in enumerate(lines[body_start:], body_start + 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or "@" not in line:
            continue
        for match in _MD_CITE.finditer(line):
            manuscript.cite(match[1] or match[2], shown, number)


def _front_matter(lines: list[str], root: Path, manuscript: Manuscript, shown: str) -> None:
    names: list[str] = []
    for index, line in enumerate(lines):
        match = _MD_BIB.match(line)
        if not match:
            continue
        value = match[1].strip()
        if value.startswith("["):
            names.extend(v.strip(" '\"") for v in value.strip("[]").split(","))
        elif value:
            names.append(value.strip("'\""))
        else:
            for item in lines[index + 1 :]:
                listed = _MD_LIST_ITEM.match(item)
                if not listed:
                    break
                names.append(listed[1].strip(" '\""))
    for name in filter(None, names):
        bib = root / name
        if not bib.is_file():
            raise InputError(f"{shown}: bibliography {bib} not found")
        manuscript.add_bibliography(bib)
