"""Read a manuscript file by its kind: LaTeX (`auditor.load.tex_manuscript`), Markdown
(`auditor.load.markdown_manuscript`), or the `.aux`/`.bbl` a LaTeX run writes (read here, with
biber's `.bcf` beside them), into one `auditor.load.manuscript.Manuscript`.
"""

from __future__ import annotations

import re
from pathlib import Path

from auditor.errors import InputError
from auditor.load.manuscript import MARKDOWN_SUFFIXES, MAX_DEPTH, Manuscript, read_text, with_suffix
from auditor.load.markdown_manuscript import read_markdown
from auditor.load.tex_manuscript import read_tex

__all__ = ["read_manuscript"]

_AUX_CITATION = re.compile(r"\\citation\{([^{}]*)\}|\\abx@aux@cite\{[^{}]*\}\{([^{}]*)\}")
_AUX_BIBDATA = re.compile(r"\\bibdata\{([^{}]*)\}")
_AUX_INPUT = re.compile(r"\\@input\{([^{}]+)\}")
_BBL_ITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}|\\entry\{([^{}]+)\}")
_BCF_SOURCE = re.compile(r"<bcf:datasource[^>]*>([^<]+)</bcf:datasource>")


def read_manuscript(path: str, *, within: Path | None = None) -> Manuscript:
    """The bibliographies and citations of the manuscript at `path`.

    Every file it names is read only inside its folder tree, and inside `within` when given
    (`Manuscript.place`); one outside is a finding in `problems`.

    Raises `InputError` naming the file (and the line of the command) for an unreadable file or
    includes nested too deep. A missing bibliography or included file, or a key that cannot be
    read, is a warning in `problems`; a manuscript may name no bibliography at all (the caller
    decides).
    """
    manuscript = Manuscript(path, within)
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


def _read_aux(path: Path, manuscript: Manuscript, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InputError(f"{path}: \\@input nested deeper than {MAX_DEPTH} (a cycle?)")
    shown, root = str(path), path.parent
    for number, line in enumerate(read_text(path, manuscript, shown).splitlines(), 1):
        for match in _AUX_CITATION.finditer(line):
            for key in (match[1] or match[2] or "").split(","):
                manuscript.cite(key, shown, number)
        for match in _AUX_BIBDATA.finditer(line):
            _bibdata(match[1], root, manuscript, shown, number)
        for match in _AUX_INPUT.finditer(line):
            child = manuscript.place(root, match[1].strip(), shown, number)
            if child is not None and child.is_file():  # LaTeX writes \@input for chapters
                _read_aux(child, manuscript, depth + 1)  # that may not exist yet
    if depth == 0 and not manuscript.bibliographies and not manuscript.missing:
        _read_bcf(path, manuscript, shown)  # biblatex: no \bibdata


def _bibdata(names: str, root: Path, manuscript: Manuscript, shown: str, line: int | None) -> None:
    for name in filter(None, (n.strip() for n in names.split(","))):
        bib = manuscript.place(root, with_suffix(name, ".bib"), shown, line)
        if bib is not None:
            manuscript.bibliography_at(bib, shown, line)


def _read_bbl(path: Path, manuscript: Manuscript) -> None:
    """Keys in the order the `.bbl` lists them; the bibliographies from the sibling `.aux`
    (`\\bibdata`, BibTeX) or `.bcf` (`bcf:datasource`, biber), since a `.bbl` holds formatted
    entries, not the source records to compare."""
    shown = str(path)
    for number, line in enumerate(read_text(path, manuscript, shown).splitlines(), 1):
        for match in _BBL_ITEM.finditer(line):
            manuscript.cite(match[1] or match[2], shown, number)
    aux = manuscript.place(path.parent, path.with_suffix(".aux").name, shown, None)
    if aux is not None and aux.is_file():
        for match in _AUX_BIBDATA.finditer(read_text(aux, manuscript, shown)):
            _bibdata(match[1], aux.parent, manuscript, str(aux), None)
    _read_bcf(path, manuscript, shown)


def _read_bcf(beside: Path, manuscript: Manuscript, shown: str) -> None:
    """The data sources biber's control file (the `.bcf` beside `beside`) names, where they
    exist."""
    bcf = manuscript.place(beside.parent, beside.with_suffix(".bcf").name, shown, None)
    if bcf is not None and bcf.is_file():
        for match in _BCF_SOURCE.finditer(read_text(bcf, manuscript, shown)):
            bib = manuscript.place(bcf.parent, match[1].strip(), str(bcf), None)
            if bib is not None and bib.is_file():
                manuscript.add_bibliography(bib)
