"""What each document and dump cap lets a hostile file cost: wall time and peak memory (#37).

Each case builds its hostile file in memory (the builders of `tests/load/documents/
test_bombs.py`; the dumps' here), then is read by `load_files` (a dump: imported by
`import_dump` at the default caps) in a fresh Python process, so the figures are its own:
seconds to the refusal, the peak resident memory of that process and of the PDF reader's child
(`ru_maxrss`), and the error (a dump's first skipped line, if it was not refused). Run:

    PYTHONPATH=$PWD python benchmarks/caps.py            # every case, one process each
    PYTHONPATH=$PWD python benchmarks/caps.py CASE       # one case

Each case runs once: it costs what its cap allows (a few seconds at most at the defaults).
"""

from __future__ import annotations

import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from tests.load.documents import test_bombs as b


def _zip_bomb() -> tuple[str, bytes]:
    return "bomb.docx", b._zip("word/document.xml", b.GOOD, b" " * (1 << 20), repeat=200)


def _deep() -> tuple[str, bytes]:
    deep = b.HEAD + b"<w:p>" * 100_000 + b"</w:p>" * 100_000 + b.TAIL
    return "deep.docx", b._zip("word/document.xml", deep)


def _fields() -> tuple[str, bytes]:
    field = b'<w:p><w:fldSimple w:instr="ADDIN ZOTERO_ITEM CSL_CITATION {}"/></w:p>'
    return "fields.docx", b._zip("word/document.xml", b.HEAD + field * 100_000 + b.TAIL)


def _entities() -> tuple[str, bytes]:
    """A billion laughs: ten entities, each ten of the one before."""
    names = [b"l%d" % i for i in range(10)]
    decls = b'<!ENTITY l0 "lol">' + b"".join(
        b'<!ENTITY %s "%s">' % (names[i], (b"&" + names[i - 1] + b";") * 10) for i in range(1, 10)
    )
    head = b.HEAD.replace(b"?>", b"?><!DOCTYPE w:document [" + decls + b"]>", 1)
    body = b"<w:p><w:r><w:t>&l9;</w:t></w:r></w:p>"
    return "laughs.docx", b._zip("word/document.xml", head + body + b.TAIL)


def _pages() -> tuple[str, bytes]:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", b.FONT, b._stream(b.TEXT)]
    kids = []
    for _ in range(10_000):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>"
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count 10000 >>" % b" ".join(kids)
    return "pages.pdf", b._pdf(objects)


def _huge_page() -> tuple[str, bytes]:
    return "huge.pdf", b._one_page(b._stream(b.TEXT), size=b"1000000 1000000")


def _long_line() -> tuple[str, bytes]:
    line = b"BT /F1 10 Tf 72 740 Td (" + b"A" * 50_000_000 + b") Tj ET\n"
    return "line.pdf", b._one_page(b._stream(line, deflate=True))


def _stream_bomb() -> tuple[str, bytes]:
    squeeze = zlib.compressobj(9)
    packed = b"".join(squeeze.compress(b" " * (1 << 20)) for _ in range(4096)) + squeeze.flush()
    content = b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
        len(packed),
        packed,
    )
    return "stream.pdf", b._one_page(content)


CASES: dict[str, Callable[[], tuple[str, bytes]]] = {
    "docx zip bomb (200 MB of XML)": _zip_bomb,
    "docx 100k deep": _deep,
    "docx 100k fields": _fields,
    "docx entities": _entities,
    "pdf 10,000 pages": _pages,
    "pdf 10^6 x 10^6 pt page": _huge_page,
    "pdf 50 MB line": _long_line,
    "pdf 4 GB stream": _stream_bomb,
}


def _good_line() -> bytes:
    work = {"id": "1706.03762", "title": "Attention Is All You Need", "authors_parsed": []}
    return json.dumps(work).encode() + b"\n"


def _dump_bomb() -> tuple[str, bytes]:
    """Gzip members of 64 MiB of spaces, one after another: 33 MB inflating past 32 GiB."""
    member = gzip.compress(b" " * (64 << 20), compresslevel=9, mtime=0)
    return "bomb.jsonl.gz", gzip.compress(_good_line(), mtime=0) + member * 513


def _dump_long_line() -> tuple[str, bytes]:
    return "line.jsonl.gz", gzip.compress(b'{"id": "' + b"9" * (100 << 20) + b'"}\n', mtime=0)


def _dump_deep() -> tuple[str, bytes]:
    return "deep.jsonl", _good_line() + b'{"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"


def _dump_brackets() -> tuple[str, bytes]:
    """The depth scan's worst line: just under the line cap, every byte a bracket."""
    half = (16 << 20) // 2 - 1
    return "brackets.jsonl", b"[" * half + b"]" * half + b"\n"


def _dump_not_utf8() -> tuple[str, bytes]:
    return "latin1.jsonl", _good_line() * 2 + b'{"id": "1706.00003", "title": "Caf\xe9"}\n'


def _xml_deep() -> tuple[str, bytes]:
    deep = b"<i>" * 100_000 + b"x" + b"</i>" * 100_000
    return "dblp.xml", b'<dblp><article key="a/b"><title>' + deep + b"</title></article></dblp>"


#: Dump cases: name → (dump kind, builder).
DUMPS: dict[str, tuple[str, Callable[[], tuple[str, bytes]]]] = {
    "dump gzip bomb (33 MB past 32 GiB)": ("arxiv", _dump_bomb),
    "dump 100 MB line": ("arxiv", _dump_long_line),
    "dump JSON 100k deep": ("arxiv", _dump_deep),
    "dump 16 MB line of brackets": ("arxiv", _dump_brackets),
    "dump not UTF-8 on line 3": ("arxiv", _dump_not_utf8),
    "dump XML 100k deep": ("dblp", _xml_deep),
}


def _read(name: str, path: Path, folder: str) -> str:
    """What reading `path` as case `name` came to (the error, or what was read)."""
    from auditor.errors import InputError

    try:
        if name not in DUMPS:
            from auditor.load import load_files

            return f"read {load_files([str(path)]).table.num_rows} rows"
        from auditor.dumps import KINDS
        from auditor.dumps.importer import import_dump

        done = import_dump(KINDS[DUMPS[name][0]](), [str(path)], str(Path(folder) / "snap"))
        first = f"; skipped {done.skipped[0].why}" if done.skipped else ""
        return f"imported {done.records} records{first}"
    except InputError as exc:
        return str(exc).replace(str(path), path.name)


def _one(name: str) -> dict[str, object]:
    filename, data = (DUMPS[name][1] if name in DUMPS else CASES[name])()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / filename
        path.write_bytes(data)
        size = len(data)
        del data
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        outcome = _read(name, path, folder)
        seconds = time.perf_counter() - start
    return {
        "case": name,
        "file_bytes": size,
        "seconds": round(seconds, 2),
        "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_before_mib": round(before / 1024, 1),
        "child_peak_mib": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "outcome": outcome,
    }


def main(argv: list[str]) -> None:
    """Every case (or the one named) in its own process, one JSON line each."""
    if argv:
        print(json.dumps(_one(argv[0])))
        return
    for name in [*CASES, *DUMPS]:
        out = subprocess.run(
            [sys.executable, __file__, name], capture_output=True, text=True, check=False
        )
        print(out.stdout.strip() or json.dumps({"case": name, "error": out.stderr[-500:]}))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
