"""The real-documents corpus: `manifest.json` read into specs, and where each one's files are.

Every document names its repository, the commit, the document's path, its `.bib` files and
either its `.bbl` or the `.tex` files whose citations say what it prints, its licence and
whether we may redistribute it. Redistributable documents are checked in under `docs/{id}/`;
the others are fetched by `fetch.py` to `fetched/{id}/` (or `$AUDITOR_REALDOCS_DIR/{id}/`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
EXPECTED = HERE / "expected.json"


@dataclass(frozen=True)
class DocSpec:
    """One real document and its truth files, as the manifest gives them."""

    id: str
    repo: str
    commit: str
    document: str
    bibs: tuple[str, ...]
    bbl: str | None
    texs: tuple[str, ...]
    licence: str
    redistribute: bool
    style: str

    @property
    def files(self) -> list[str]:
        """Every repository path this document needs (document, `.bib`, `.bbl` or `.tex`)."""
        return [self.document, *self.bibs, *([self.bbl] if self.bbl else []), *self.texs]

    def folder(self) -> Path:
        """Where the files are: `docs/{id}` when checked in, else the fetched folder."""
        if self.redistribute:
            return HERE / "docs" / self.id
        return Path(os.environ.get("AUDITOR_REALDOCS_DIR", HERE / "fetched")) / self.id

    def local(self, path: str) -> Path:
        """The local copy of repository `path`."""
        return self.folder() / local_name(path)


def local_name(path: str) -> str:
    """A repository path as one file name (`a/b.bib` -> `a__b.bib`)."""
    return path.replace("/", "__")


def load_manifest() -> list[DocSpec]:
    """Every document of `manifest.json`, in its order."""
    items = json.loads(MANIFEST.read_text("utf-8"))
    return [
        DocSpec(
            id=item["id"],
            repo=item["repo"],
            commit=item["commit"],
            document=item["document"],
            bibs=tuple(item["bibs"]),
            bbl=item["bbl"],
            texs=tuple(item["texs"]),
            licence=item["licence"],
            redistribute=item["redistribute"],
            style=item["style"],
        )
        for item in items
    ]


def load_expected() -> dict[str, dict[str, float | int]]:
    """The figures each document reached when they were last written (`benchmarks/realdocs.py
    --write-expected`), by id."""
    if not EXPECTED.exists():
        return {}
    data: dict[str, dict[str, float | int]] = json.loads(EXPECTED.read_text("utf-8"))
    return data
