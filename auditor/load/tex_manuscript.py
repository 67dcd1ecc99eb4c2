"""What a LaTeX manuscript cites and which bibliographies it names, file by included file.

`read_tex` reads the main file and every file it `\\input`s or `\\include`s (relative to the main
file's folder, as LaTeX runs there; the import package's `\\import{dir/}{file}` too, and
`\\subimport` relative to the file that says it), in text order, with `auditor.load.tex_source`.
Only files inside the main file's folder tree are read (`auditor.load.manuscript_tree`).
Keys are split at commas and trimmed, as natbib and biblatex do; a key holding a macro
(`\\cite{\\mykey}`), or a citation whose brace group never closes, cannot be read and is a
warning naming file and line. A macro parameter (`\\citep{#1}` in a `\\newcommand`) is a
definition, not a citation.

`\\jobname` in a bibliography name is the main file's name without its extension. A
`filecontents` block whose file name is a named bibliography *is* that bibliography (LaTeX writes
it before BibTeX reads it), so its text is used even when no such file exists on disk.
"""

from __future__ import annotations

from pathlib import Path

from auditor.errors import InputError
from auditor.load.manuscript import MAX_DEPTH, Manuscript, read_text, with_suffix
from auditor.load.tex_source import IMPORTS, Command, TexSource, is_citation

__all__ = ["read_tex"]

_INPUTS = frozenset({"input", "include", "subfile"}) | IMPORTS
_BIBLIOGRAPHIES = frozenset(
    {"bibliography", "nobibliography", "addbibresource", "addglobalbib", "addsectionbib"}
)
_WANTED = _INPUTS | _BIBLIOGRAPHIES
_UNREADABLE = frozenset("\\{}$^")


class _Job:
    """One LaTeX run: the main file's folder and name, and the `filecontents` blocks seen."""

    def __init__(self, main: Path, manuscript: Manuscript) -> None:
        self.root = main.parent
        self.jobname = main.stem
        self.manuscript = manuscript
        self.blocks: dict[str, tuple[str, str, int]] = {}
        """File name → (the manuscript file holding it, its text, its first line)."""


def read_tex(path: Path, manuscript: Manuscript) -> None:
    """Fill `manuscript` from the LaTeX file at `path` and what it includes.

    Raises `InputError` for an unreadable file or includes nested deeper than `MAX_DEPTH`.
    """
    job = _Job(path, manuscript)
    _read(path, job, depth=0)


def _read(path: Path, job: _Job, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InputError(f"{path}: \\input nested deeper than {MAX_DEPTH} (a cycle?)")
    shown = str(path)
    source = TexSource(read_text(path, job.manuscript, shown))
    for name, text, line in source.filecontents:
        job.blocks.setdefault(name.replace("\\jobname", job.jobname), (shown, text, line))
    for command in source.commands(_WANTED):
        if command.unclosed:
            job.manuscript.warn(
                shown,
                command.line,
                f"\\{command.name} opens a brace group that never closes; its keys cannot be read",
                "unreadable citation",
            )
        elif is_citation(command.name):
            _cite(command, source, shown, job.manuscript)
        elif command.name in _INPUTS:
            _include(command, job, shown, depth, path.parent)
        else:
            _bibliographies(command, job, shown)


def _cite(command: Command, source: TexSource, shown: str, manuscript: Manuscript) -> None:
    for group, start in command.groups:
        offset = start
        for part in group.split(","):
            key = part.strip()
            line = source.line_at(offset + len(part) - len(part.lstrip()))
            offset += len(part) + 1
            if not key or key.startswith("#"):
                continue  # `\cite{a,}`; `#1` in a macro definition
            if _UNREADABLE.intersection(key) or any(c.isspace() for c in key):
                manuscript.warn(
                    shown,
                    line,
                    f"\\{command.name} key '{key}' cannot be read (a macro or a space in it); "
                    "it is not audited",
                    "unreadable citation",
                )
                continue
            manuscript.cite(key, shown, line)


def _include(command: Command, job: _Job, shown: str, depth: int, here: Path) -> None:
    names = [g[0].strip() for g in command.groups]
    if command.name in IMPORTS:
        if len(names) < 2:
            return
        # `\import` is relative to the main file's folder, `\subimport` to the current file's
        base = here if command.name.startswith("sub") else job.root
        name = str(Path(names[0]) / names[1]) if names[1] else ""
    elif names:
        base, name = job.root, names[0]
    else:
        return
    if not name or _UNREADABLE.intersection(name) or "#" in name:
        return  # `\input{\dir/file}`, `#1`: a macro, which a text reading cannot expand
    manuscript = job.manuscript
    child = manuscript.place(base, with_suffix(name, ".tex"), shown, command.line)
    if child is None:
        return
    if not child.is_file() and with_suffix(name, ".tex") != name:
        # TeX tries `name.tex`, then `name`
        plain = manuscript.place(base, name, shown, command.line)
        if plain is None:
            return
        if plain.is_file():
            child = plain
    if not child.is_file():
        # a file of the TeX distribution (`\input glyphtounicode`) or one not shipped
        manuscript.warn(
            shown,
            command.line,
            f"included file {child} not found; its citations are not read",
            "missing include",
        )
        return
    _read(child, job, depth + 1)


def _bibliographies(command: Command, job: _Job, shown: str) -> None:
    if not command.groups:
        return
    biber = command.name.startswith("add")
    for raw in command.groups[0][0].split(","):
        name = raw.strip().replace("\\jobname", job.jobname)
        if not name:
            continue
        if "://" in name:
            job.manuscript.warn(
                shown, command.line, f"remote bibliography {name} is not fetched", "remote"
            )
            continue
        # `\bibliography{refs}` adds `.bib`; biblatex names the file in full
        file = name if biber else with_suffix(name, ".bib")
        block = job.blocks.get(file) or job.blocks.get(Path(file).name)
        if block is not None:
            _embedded(job, file, block)
            continue
        path = job.manuscript.place(job.root, file, shown, command.line)
        if path is None:
            continue
        if biber and not path.is_file() and with_suffix(file, ".bib") != file:
            # `\addbibresource{refs}`, as people write it
            bib = job.manuscript.place(job.root, with_suffix(file, ".bib"), shown, command.line)
            if bib is None:
                continue
            if bib.is_file():
                path = bib
        job.manuscript.bibliography_at(path, shown, command.line)


def _embedded(job: _Job, file: str, block: tuple[str, str, int]) -> None:
    """Name a `filecontents` block as a bibliography, padded so its lines are the manuscript's."""
    holder, text, line = block
    name = f"{holder} (filecontents {file})"
    if name not in job.manuscript.embedded:
        job.manuscript.embedded[name] = "\n" * (line - 1) + text
        job.manuscript.bibliographies.append(name)
