"""The input paths a user named, with folders walked for the files auditor reads (`--recursive`).

As ruff and lychee do: a folder argument stands for the files in it, but only when asked
(`--recursive`), so a typo'd folder name never turns into an audit of a whole tree. Hidden files
and folders (`.git`, `.venv`) are skipped, symbolic links to folders are not followed (no loops),
and the order is sorted so two runs on one tree read the same rows in the same order.

A LaTeX root file in the tree (a `.tex` whose first 64 KiB hold `\\documentclass`) is taken as
the manuscript it is, in place of the bibliographies it names: an editor's folder of
submissions, some of them a paper with its `.bib`, then counts each paper's cited references
as a paper, not its `.bib` as a list of its own. A bibliography no manuscript names is still
read on its own, so nothing in the folder is dropped.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from auditor.errors import InputError

__all__ = ["READ_IN_FOLDERS", "expand_paths"]

#: Extensions a folder walk picks up: the bibliography formats `auditor.load.FORMATS` reads by
#: extension, and the documents an editor's submissions folder holds (PDF, Word, ODF): each is
#: its own reference list. Plain `.txt` (too often a README), Markdown and chapter `.tex` files
#: and references tables (`.parquet`) change what a run means, so they are named one by one,
#: never collected from a folder; a LaTeX root file is collected (see above).
READ_IN_FOLDERS: tuple[str, ...] = (
    ".bib",
    ".bibtex",
    ".biblatex",
    ".ris",
    ".ciw",
    ".isi",
    ".nbib",
    ".medline",
    ".enw",
    ".csv",
    ".tsv",
    ".pdf",
    ".docx",
    ".odt",
)


#: How much of a `.tex` file is read to tell a root file (`\\documentclass`) from a chapter.
_HEAD_BYTES = 65536


def _is_root_tex(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return False
    return b"\\documentclass" in head


def _named_by(manuscript: str) -> set[str]:
    """The bibliographies `manuscript` names (resolved); none when it cannot be read, so its
    files stay in the walk and the load reports the manuscript's own error."""
    from auditor.load.manuscript_reader import read_manuscript

    try:
        named = read_manuscript(manuscript).bibliographies
    except (InputError, OSError, ValueError):
        return set()
    return {str(Path(b).resolve()) for b in named}


def _walk(folder: Path) -> list[str]:
    found: list[str] = []
    roots: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(root) / name
            suffix = path.suffix.lower()
            if suffix in READ_IN_FOLDERS:
                found.append(str(path))
            elif suffix == ".tex" and _is_root_tex(path):
                found.append(str(path))
                roots.append(str(path))
    named = set().union(*(_named_by(r) for r in roots)) if roots else set()
    return [p for p in found if str(Path(p).resolve()) not in named]


def expand_paths(paths: Sequence[str], *, recursive: bool) -> list[str]:
    """`paths` with each folder replaced by the bibliography files under it (sorted).

    Raises `InputError` for a folder without `recursive` (saying to pass `--recursive`) and for
    a folder that holds no file auditor reads. Files are kept as given, even unknown kinds.
    """
    expanded: list[str] = []
    for path in paths:
        if not Path(path).is_dir():
            expanded.append(path)
            continue
        if not recursive:
            raise InputError(
                f"{path}: is a folder; pass --recursive to audit the bibliographies in it"
            )
        inside = _walk(Path(path))
        if not inside:
            kinds = ", ".join(READ_IN_FOLDERS)
            raise InputError(f"no references in {path}: no file in it is a bibliography ({kinds})")
        expanded.extend(inside)
    return list(dict.fromkeys(expanded))
