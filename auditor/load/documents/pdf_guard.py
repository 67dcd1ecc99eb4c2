"""The PDF reader in a child process whose memory and processor time are capped by the system.

pdfminer inflates every stream whole (`zlib.decompress`, LZW): a 10 MB PDF can stand for 10 GB,
and a loop of shared resources or a page of millions of operators can keep it busy for hours.
No check inside the reader can bound all of that, so `pdf_lines` runs in a forked child: its
address space may grow by `pdf_max_memory_bytes` beyond what it inherited (`RLIMIT_AS`), it may
spend `pdf_max_seconds` of processor time (`RLIMIT_CPU`), and the parent gives up (and kills
it) when it has not answered in four times that on the wall clock. The lines come back as JSON
through a pipe (never pickled). Where there is no `fork` (Windows), the reader runs in this
process with only the caps it checks itself (`pdf_text`).

Raises `InputError` naming the file and the cap when the child passes one.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
from typing import Any

from auditor.errors import InputError
from auditor.load.documents.limits import SETTINGS, DocumentLimits
from auditor.load.documents.lines import Line
from auditor.load.documents.pdf_text import pdf_lines

__all__ = ["bounded_pdf_lines"]


def bounded_pdf_lines(data: bytes, path: str, limits: DocumentLimits) -> list[Line]:
    """`pdf_lines(data, path, limits)`, read under the memory and time caps of `limits`."""
    if not hasattr(os, "fork"):
        return pdf_lines(data, path, limits)
    # imported once here, so that no child spends its time importing them
    import pdfminer.converter
    import pdfminer.layout
    import pdfminer.pdfdocument
    import pdfminer.pdfinterp
    import pdfminer.pdfpage  # noqa: F401

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: read, answer, leave without running the parent's exit hooks
        try:
            os.close(read_end)
            _child(data, path, limits, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        payload = _receive(read_end, 4 * limits.pdf_seconds + 10)
    finally:
        os.close(read_end)
        status = _reap(pid, finished=payload is not None)
    return _answer(payload, status, path, limits)


def _child(data: bytes, path: str, limits: DocumentLimits, out: int) -> None:
    import resource

    with open("/proc/self/statm", encoding="ascii") as statm:
        held = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = held + limits.pdf_memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard < 0 else min(cap, hard), hard))
    seconds = math.ceil(limits.pdf_seconds)
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(
        resource.RLIMIT_CPU, (seconds, seconds + 5 if cpu_hard < 0 else min(seconds + 5, cpu_hard))
    )
    answer: dict[str, Any]
    try:
        lines = pdf_lines(data, path, limits)
        answer = {"lines": [[ln.text, ln.number, ln.page, ln.x0, ln.gap, ln.marks] for ln in lines]}
    except InputError as exc:
        answer = {"error": str(exc)}
    except MemoryError:
        answer = {"memory": True}
    body = json.dumps(answer).encode("utf-8")
    with os.fdopen(out, "wb") as stream:
        stream.write(body)


def _receive(fd: int, wall: float) -> bytes | None:
    """All the child wrote, or `None` if it did not finish writing within `wall` seconds."""
    import time

    deadline = time.monotonic() + wall
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int, *, finished: bool) -> int:
    """The child's wait status, once it has exited (killed first if it has not `finished`)."""
    if not finished:
        with contextlib.suppress(ProcessLookupError):  # it may have ended meanwhile
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return status


def _answer(payload: bytes | None, status: int, path: str, limits: DocumentLimits) -> list[Line]:
    seconds = f"{limits.pdf_seconds:,g} processor seconds ({SETTINGS['pdf_seconds']})"
    memory = f"{limits.pdf_memory_bytes:,} bytes of memory ({SETTINGS['pdf_memory_bytes']})"
    if payload is None:
        raise InputError(f"{path}: reading it took longer than the cap of {seconds}: not read")
    if not payload:
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
            raise InputError(f"{path}: reading it took more than the cap of {seconds}: not read")
        raise InputError(
            f"{path}: the PDF reader stopped without an answer (it may have passed the cap "
            f"of {memory}): not read"
        )
    answer = json.loads(payload)
    if "error" in answer:
        raise InputError(str(answer["error"]))
    if "memory" in answer:
        raise InputError(f"{path}: reading it needs more than the cap of {memory}: not read")
    return [
        Line(text=text, number=number, page=page, x0=x0, gap=gap, marks=tuple(marks))
        for text, number, page, x0, gap, marks in answer["lines"]
    ]
