"""Writing a corrected bibliography over the user's own file (`auditor fix --in-place`).

The rules, each a way a byte could be lost:

- **unchanged since read**: the file's size, modification time and SHA-256 are taken when it is
  read, before the audit; just before writing they are taken again, and a file an editor or a
  `git pull` changed meanwhile is refused (`InPlaceRefused`), never overwritten from the old copy;
- **no backup overwritten**: the original goes to the first free name of `NAME.bak`,
  `NAME.bak.1`, `NAME.bak.2`, …, created exclusively, so neither a second run nor the user's
  own `.bak` is ever replaced;
- **mode and owner kept**: the new file gets the old one's permission bits (a 0600 file stays
  0600), and its owner and group where the process may set them;
- **read-only is refused**: a file without the owner's write bit (0444) is one the user asked
  not to be changed;
- **hard links kept**: a file with more than one link is written through (the same inode, so
  every name sees the new text) after the backup is made; any other file is replaced
  atomically (temporary file beside it, `os.replace`). A symbolic link is followed: its target
  is written, the link stays a link.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["InPlaceRefused", "ReadState", "check_writable", "read_state", "write_in_place"]

#: Backups tried before giving up (`NAME.bak` … `NAME.bak.999`).
MAX_BACKUPS = 1000


class InPlaceRefused(Exception):
    """The file cannot be written in place without losing something; the message says why."""


@dataclass(frozen=True)
class ReadState:
    """What the file was when it was read: compared again just before writing."""

    size: int
    mtime_ns: int
    sha256: str


def read_state(path: Path, data: bytes) -> ReadState:
    """The state of `path`, whose bytes as read are `data` (stat taken after the read)."""
    info = os.stat(path)
    return ReadState(info.st_size, info.st_mtime_ns, hashlib.sha256(data).hexdigest())


def _current(path: Path) -> tuple[ReadState, bytes]:
    data = path.read_bytes()
    return read_state(path, data), data


def _check_unchanged(path: Path, before: ReadState) -> bytes:
    """The file's bytes now, or `InPlaceRefused` when they (or size or mtime) differ."""
    now, data = _current(path)
    if now != before:
        raise InPlaceRefused(
            f"{path}: the file changed while it was audited (size, modification time or "
            "content differ from when it was read); nothing was written. Run the fix again."
        )
    return data


def _backup(path: Path, data: bytes, mode: int) -> Path:
    """Write `data` to the first free `NAME.bak[.N]` beside `path` (never replacing one)."""
    for n in range(MAX_BACKUPS):
        name = f"{path.name}.bak" if n == 0 else f"{path.name}.bak.{n}"
        backup = path.with_name(name)
        try:
            fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, stat.S_IMODE(mode) | 0o200)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(backup, stat.S_IMODE(mode))
        return backup
    raise InPlaceRefused(f"{path}: {MAX_BACKUPS} backups exist already; remove some first")


def _keep_owner(fd: int, info: os.stat_result) -> None:
    # Only root (or the owner, for the group) may do this; elsewhere the file stays the user's.
    with contextlib.suppress(OSError, AttributeError):
        os.fchown(fd, info.st_uid, info.st_gid)


def _write_through(path: Path, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())


def _replace(path: Path, data: bytes, info: os.stat_result, before: ReadState) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
            _keep_owner(handle.fileno(), info)
            os.fsync(handle.fileno())
        _check_unchanged(path, before)  # the last moment before the rename
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_writable(path: Path) -> os.stat_result:
    """The stat of the file `path` names, or `InPlaceRefused` when it may not be written in place
    (read-only, not a regular file); asked before the audit too, so a refusal costs no lookups."""
    info = os.stat(path.resolve())
    if not stat.S_ISREG(info.st_mode):
        raise InPlaceRefused(f"{path}: not a regular file; give --out instead")
    if not info.st_mode & stat.S_IWUSR or not os.access(path.resolve(), os.W_OK):
        raise InPlaceRefused(
            f"{path}: the file is read-only; nothing was written (make it writable, or give --out)"
        )
    return info


def write_in_place(path: Path, data: bytes, before: ReadState) -> Path:
    """Replace the content of `path` by `data`, keeping a backup; return the backup's path.

    Raises `InPlaceRefused` (changed since read, read-only, too many backups) or `OSError`.
    """
    real = path.resolve()  # a symbolic link's target is written; the link stays
    info = check_writable(real)
    original = _check_unchanged(real, before)
    backup = _backup(real, original, info.st_mode)
    if info.st_nlink > 1:
        # Replacing would give this name a new inode and leave the other links on the old text.
        _check_unchanged(real, before)
        _write_through(real, data)
    else:
        _replace(real, data, info, before)
    return backup
