"""Receiving the upload page's files, and packing its answer's downloads.

`receive(request, folder, …)` streams each file part straight into its own file under `folder`
(never held in memory, so a queued or large upload costs disk, not RAM), refusing a name the
page does not read before its bytes are read, counting every byte against the cap, and giving
each chunk at most `timeout` seconds to arrive. A `token` form field (before the files) stands
for the `Authorization` header, which a plain HTML form cannot send.

`downloads_zip(files)` is every report file in one deflated ZIP: the answer embeds it once, as
one `data:` link, instead of every table again in base64 beside the report.
"""

from __future__ import annotations

import asyncio
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import BodyPartReader, web

__all__ = ["FIELD", "PASTED", "TOKEN_FIELD", "Received", "Refused", "downloads_zip", "receive"]

#: The form field that carries the files (one part per file).
FIELD = "bibliography"
#: The form field of a reference list pasted as text (read as the file `pasted.txt`).
PASTED = "pasted"
#: The form field that may carry the bearer token (for the page, which cannot set headers).
TOKEN_FIELD = "token"
_CHUNK = 64 * 1024
_MAX_TOKEN = 1024


class Refused(Exception):
    """The upload is refused; `status` and a message for the page (no request bytes in it)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Received:
    """What an upload held: each file's name as sent and where it was written, and the token."""

    files: list[tuple[str, Path]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    token: str | None = None


async def _chunk(part: BodyPartReader, timeout: float) -> bytes:
    try:
        async with asyncio.timeout(timeout):
            return await part.read_chunk(_CHUNK)
    except TimeoutError:
        raise Refused(408, f"The upload stalled (no data for {timeout:g} s).") from None


async def _save(part: BodyPartReader, path: Path, room: int, timeout: float) -> int:
    """Write `part` to `path`; its size, or `Refused` (413) past `room` bytes."""
    path.parent.mkdir(parents=True)
    size = 0
    with open(path, "wb") as handle:
        while chunk := await _chunk(part, timeout):
            size += len(chunk)
            if size > room:
                raise Refused(413, "too large")
            handle.write(chunk)
    return size


async def _token(part: BodyPartReader, timeout: float) -> str:
    data = b""
    while chunk := await _chunk(part, timeout):
        data += chunk
        if len(data) > _MAX_TOKEN:
            raise Refused(400, "The token field is too long.")
    return data.decode("utf-8", "replace").strip()


async def receive(
    request: web.Request,
    folder: Path,
    *,
    cap: int,
    timeout: float,
    safe_name: Callable[[str], str | None],
    token_needed: bool,
) -> Received:
    """Every uploaded file written under `folder` (`in/N/NAME`), in the order sent.

    Raises `Refused`: 400 for a body that is not the form's, 401 when `token_needed` and the
    files come before any `token` field, 413 past `cap` bytes in all, 415 for a file the page
    does not read (named), 408 when a chunk is late.
    """
    if not request.content_type.startswith("multipart/"):
        raise Refused(400, "Send the files from the form (multipart/form-data).")
    got = Received()
    try:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == TOKEN_FIELD:
                got.token = await _token(part, timeout)
            elif part.name in (FIELD, PASTED):
                if token_needed and not got.token:
                    raise Refused(401, "This server needs a token: enter it above the files.")
                name = (part.filename or "") if part.name == FIELD else "pasted.txt"
                safe = safe_name(name)
                if safe is None:
                    raise Refused(400, f"{name or 'The file'}: not a bibliography this page reads")
                path = folder / "in" / str(len(got.files)) / safe
                size = await _save(part, path, cap - sum(got.sizes), timeout)
                if part.name == PASTED and not path.read_bytes().strip():
                    path.unlink()  # an empty text box beside chosen files is no upload
                    path.parent.rmdir()
                    continue
                got.sizes.append(size)
                got.files.append((name, path))
    except (ValueError, AssertionError):
        # The parser's message quotes the request's bytes: say only what went wrong.
        raise Refused(400, "The upload could not be read (a malformed form body).") from None
    if not got.files:
        raise Refused(400, "No file was uploaded: choose a bibliography first.")
    return got


def downloads_zip(files: dict[str, bytes], order: tuple[str, ...]) -> bytes:
    """The report files named in `order` (those present), deflated into one ZIP."""
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as bundle:
        for name in order:
            if name in files:
                bundle.writestr(name, files[name])
    return sink.getvalue()
