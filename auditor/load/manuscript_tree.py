"""The folder tree a manuscript may read: every file it names is resolved inside it.

A manuscript names other files: `\\input`, `\\include`, `\\import`, `\\bibliography`,
`\\addbibresource`, an `.aux` file's `\\@input` and `\\bibdata`, biber's `.bcf` data sources,
Quarto's `{{< include >}}`, the front matter's `bibliography:` and a project's `_quarto.yml`.
Each is read only when it lies inside the manuscript's tree: the main file's folder, or the
Quarto project folder that holds it, with symbolic links resolved. An absolute path, a `..`
that climbs out, or a link that points out is a finding naming the file and line, never a
read, and nothing is asked of the disk about it first (not even whether it exists): a
manuscript written by someone else (an upload to `auditor serve`, a submission) cannot make
auditor read a file elsewhere, or learn whether there is one.

A file outside the tree that the user wants audited is given on the command line beside the
manuscript; `auditor.load` then reads it as the manuscript's bibliography.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

__all__ = ["outside"]


def _absolute(name: str) -> bool:
    # `C:\refs.bib` and `\\host\share` are absolute on Windows, whatever the running system
    return PurePosixPath(name).is_absolute() or bool(PureWindowsPath(name).anchor)


def outside(root: Path, base: Path, name: str) -> str | None:
    """Why `base / name` is outside the tree at `root` (resolved), or `None` when it is inside.

    `base` is the folder the name is relative to (the tree's root or a folder in it). The
    reasons are words for a message: "an absolute path", "a path that climbs out with `..`",
    "a symbolic link that points outside".
    """
    if _absolute(name):
        return "an absolute path"
    real_base = base.resolve()
    if not Path(os.path.normpath(real_base / name)).is_relative_to(root):
        return "a path that climbs out with `..`"
    if not (real_base / name).resolve().is_relative_to(root):
        return "a symbolic link that points outside"
    return None
