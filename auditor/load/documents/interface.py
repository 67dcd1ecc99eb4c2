"""The document loader: a `Loader` that reads a file's bytes (PDF, Word) rather than its text.

`load_bytes` is the one method a document kind implements; `load` (decoded text) is for the
kinds that are text (a `.txt` reference list) and otherwise says the bytes are needed.
"""

from __future__ import annotations

import abc

from auditor.errors import InputError
from auditor.load.interface import Loader, Problem, Rows

__all__ = ["DocumentLoader", "no_section"]


class DocumentLoader(Loader):
    """Reads one kind of document into `references` rows."""

    @abc.abstractmethod
    def load_bytes(self, data: bytes, path: str) -> tuple[Rows, list[Problem]]:
        """Rows of the document `data` (file `path`); `InputError` when nothing can be read."""

    def load(self, text: str, path: str) -> tuple[Rows, list[Problem]]:
        """The document as text (UTF-8 bytes of `text`)."""
        return self.load_bytes(text.encode("utf-8"), path)


def no_section(path: str) -> InputError:
    """The error for a document whose references cannot be found."""
    return InputError(
        f"{path}: no references section found (no References/Bibliography heading and no "
        "numbered list at the end); export the reference list as BibTeX, RIS or text"
    )
