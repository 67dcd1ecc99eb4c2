"""The input paths a user named, with folders walked for the files auditor reads (`--recursive`).

As ruff and lychee do: a folder argument stands for the files in it, but only when asked
(`--recursive`), so a typo'd folder name never turns into an audit of a whole tree. Hidden files
and folders (`.git`, `.venv`) are skipped, symbolic links to folders are not followed (no loops),
and the order is sorted so two runs on one tree read the same rows in the same order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from auditor.errors import InputError

__all__ = ["READ_IN_FOLDERS", "expand_paths"]

#: Extensions a folder walk picks up: the bibliography formats `auditor.load.FORMATS` reads by
#: extension, and the documents an editor's submissions folder holds (PDF, Word, ODF): each is
#: its own reference list. Plain `.txt` (too often a README), manuscripts (`.tex`, `.md`) and
#: references tables (`.parquet`) change what a run means, so they are named one by one, never
#: collected from a folder.
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


def _walk(folder: Path) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(
            str(Path(root) / name)
            for name in sorted(files)
            if not name.startswith(".") and Path(name).suffix.lower() in READ_IN_FOLDERS
        )
    return found


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
