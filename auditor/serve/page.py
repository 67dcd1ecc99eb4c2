"""The page for people: `GET /` is an upload form, `POST /audit` runs the whole audit on the
uploaded files, all of them together as one bibliography (as `auditor audit a.bib b.bib` does).

The answer to `POST /audit` is the same self-contained `report.html` that `auditor audit`
writes (its checklist included), with a bar at the top linking to the CSV, Parquet and JSON
files of the same run. While the audit runs, the form shows a progress bar and the seconds
spent (the browser keeps the form on screen until the answer arrives; no JavaScript is needed to
upload, only to show the progress).

Nothing uploaded outlives the request: each file is written into a fresh private temporary
folder (mode 0700), the reports are written beside it, read back into memory, and the folder is
deleted before the answer is sent, on success and on error. The downloads travel inside the
answer as `data:` links, so the server keeps no copy to fetch them from; the only lasting copies
are the ones the user saves. Uploads above `upload_max_bytes` (all files together) are refused
(413) from `Content-Length` when it says so, else once that many bytes have been read, with a
page saying the limit.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import html
import re
import secrets
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from aiohttp import BodyPartReader, web

from auditor.errors import ConfigError, InputError
from auditor.load import FORMATS
from auditor.pipeline import run_audit
from auditor.report import write_reports
from auditor.report.view import build_view
from auditor.result import AuditResult, InputFile, LoadProblem
from auditor.serve.state import STATE

__all__ = ["ACCEPTED", "routes"]

#: File extensions the upload takes: every format the loader reads, and `.txt` (detected).
ACCEPTED: tuple[str, ...] = (*sorted({s for sfx in FORMATS.values() for s in sfx}), ".txt")

#: The form field that carries the files (one part per file).
FIELD = "bibliography"

#: Multipart framing around the file (boundaries, headers) allowed beyond `upload_max_bytes`.
_FRAMING = 16 * 1024
_CHUNK = 64 * 1024

#: What the answer offers for download: file name → media type.
_DOWNLOADS: tuple[tuple[str, str], ...] = (
    ("verdicts.csv", "text/csv"),
    ("checklist.csv", "text/csv"),
    ("duplicates.csv", "text/csv"),
    ("verdicts.parquet", "application/vnd.apache.parquet"),
    ("checklist.parquet", "application/vnd.apache.parquet"),
    ("duplicates.parquet", "application/vnd.apache.parquet"),
    ("report.json", "application/json"),
    ("report.html", "text/html"),
)

_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'; "
    "base-uri 'none'; form-action 'self'"
)
_REPORT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)

_STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;
color:#1d1d1f}
h1{font-size:1.6rem}form{border:1px solid #ccd;border-radius:8px;padding:1.2rem}
button{font-size:1rem;padding:.4rem 1.2rem;margin-top:1rem}
#busy{display:none;margin-top:1rem}#busy progress{width:100%}
.error{border-left:4px solid #b00020;padding:.6rem 1rem;background:#fdecee}
small{color:#555}
"""

_SCRIPT = """
const form = document.getElementById('upload');
const cap = Number(form.dataset.cap);
form.addEventListener('submit', (event) => {
  const files = [...document.getElementById('file').files];
  const size = files.reduce((sum, f) => sum + f.size, 0);
  const note = document.getElementById('note');
  if (size > cap) {
    event.preventDefault();
    const what = files.length > 1 ? 'These files are ' : 'This file is ';
    note.textContent = what + size + ' bytes; the limit is ' + cap + ' bytes.';
    note.className = 'error';
    return;
  }
  const busy = document.getElementById('busy');
  const spent = document.getElementById('spent');
  busy.style.display = 'block';
  document.getElementById('go').disabled = true;
  const started = Date.now();
  setInterval(() => {
    spent.textContent = Math.round((Date.now() - started) / 1000) + ' s';
  }, 500);
});
"""


def _page(body: str, status: int = 200, *, nonce: str | None = None) -> web.Response:
    nonce = nonce or secrets.token_urlsafe(16)
    text = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>auditor: audit a bibliography</title><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )
    return web.Response(
        text=text,
        status=status,
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": _CSP.format(nonce=nonce)},
    )


def _limit_words(cap: int) -> str:
    return f"{cap / (1024 * 1024):.1f} MB" if cap >= 1024 * 1024 else f"{cap} bytes"


def _problem(status: int, message: str) -> web.Response:
    body = (
        "<h1>The audit did not run</h1>"
        f'<p class="error" id="problem">{html.escape(message)}</p>'
        '<p><a href="/">Try another file</a></p>'
    )
    return _page(body, status)


async def get_page(request: web.Request) -> web.Response:
    """The upload form."""
    cap = request.app[STATE].settings.upload_max_bytes
    criteria = request.app[STATE].settings.criteria
    nonce = secrets.token_urlsafe(16)
    kinds = ", ".join(ACCEPTED)
    body = f"""
<h1>Audit a bibliography</h1>
<p>Upload a bibliography: BibTeX, RIS, CSV, CSL-JSON, or a Web of Science, MEDLINE or EndNote
export; several files are audited together, as one bibliography. Every reference is checked
against the register that owns its identifier (Crossref, PubMed, arXiv, the DOI system) under
the criteria <code>{html.escape(criteria)}</code>, and you get the report with its checklist and
the tables to download.</p>
<form id="upload" method="post" action="/audit" enctype="multipart/form-data" data-cap="{cap}">
<label for="file">Bibliography files ({html.escape(kinds)}; at most {_limit_words(cap)} in all)
</label><br>
<input id="file" type="file" name="{FIELD}" accept="{html.escape(",".join(ACCEPTED))}" multiple
 required>
<br><button id="go" type="submit">Audit</button>
<p id="note"></p>
<div id="busy" role="status" aria-live="polite"><progress></progress>
Auditing… <span id="spent">0 s</span> (the registers are asked at their own pace)</div>
</form>
<p><small>The file is deleted when the answer is sent; the downloads travel inside the answer.
Machine clients: <a href="/openapi.json">/openapi.json</a>, <a href="/criteria">/criteria</a>.
</small></p>
<script nonce="{nonce}">{_SCRIPT}</script>
"""
    return _page(body, nonce=nonce)


class _TooLarge(Exception):
    pass


Upload = tuple[str, bytes]
"""One uploaded file: the name the browser gave and its bytes."""


async def _read_uploads(request: web.Request, cap: int) -> list[Upload] | web.Response:
    """Every uploaded file (in the order sent), or the error page; `cap` bounds their sum."""
    if not request.content_type.startswith("multipart/"):
        return _problem(400, "Send the files from the form (multipart/form-data).")
    uploads: list[Upload] = []
    size = 0
    try:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not (isinstance(part, BodyPartReader) and part.name == FIELD):
                continue
            chunks: list[bytes] = []
            while chunk := await part.read_chunk(_CHUNK):
                size += len(chunk)
                if size > cap:
                    raise _TooLarge
                chunks.append(chunk)
            uploads.append((part.filename or "", b"".join(chunks)))
    except _TooLarge:
        return _problem(413, f"The upload is larger than the limit of {_limit_words(cap)}.")
    except (ValueError, AssertionError) as exc:
        return _problem(400, f"The upload could not be read ({exc}).")
    if not uploads:
        return _problem(400, "No file was uploaded: choose a bibliography first.")
    return uploads


def _safe_name(name: str) -> str | None:
    """A file name safe to write in our folder, keeping the extension; `None` if not accepted."""
    base = Path(name.replace("\\", "/")).name
    suffix = Path(base).suffix.lower()
    if suffix not in ACCEPTED:
        return None
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(base).stem).strip("._") or "bibliography"
    return stem[:80] + suffix


def _shown_name(name: str) -> str:
    """The name the user chose, without any folder the browser sent."""
    return Path(name.replace("\\", "/")).name


def _renamed(result: AuditResult, names: dict[str, str]) -> AuditResult:
    """The result with each temporary path (`names` key) replaced by the name uploaded."""

    def fix(table: pa.Table) -> pa.Table:
        if "source_path" not in table.column_names or table.num_rows == 0:
            return table
        i = table.schema.get_field_index("source_path")
        column = table.column(i)
        for written, shown in names.items():
            column = pc.replace_substring(column, written, shown)
        return table.set_column(i, table.schema.field(i), column)

    def text(message: str) -> str:
        for written, shown in names.items():
            message = message.replace(written, shown)
        return message

    run = result.run
    if run is not None:
        inputs = tuple(
            InputFile(names.get(f.path, f.path), f.sha256, f.format, f.rows) for f in run.inputs
        )
        problems = tuple(
            LoadProblem(names.get(p.path, p.path), p.line, text(p.message), p.severity)
            for p in run.load_problems
        )
        run = type(run)(**{**run.__dict__, "inputs": inputs, "load_problems": problems})
    return AuditResult(
        references=fix(result.references),
        records=result.records,
        verdicts=fix(result.verdicts),
        checklist=fix(result.checklist),
        duplicates=fix(result.duplicates),
        run=run,
    )


def _written(result: AuditResult, out: Path) -> dict[str, bytes]:
    """Every report file of `result`, written into `out` and read back (name → bytes)."""
    write_reports(build_view(result), out)
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


def _downloads_bar(files: dict[str, bytes], shown: list[str]) -> str:
    stem = Path(shown[0]).stem if len(shown) == 1 else "bibliographies"
    links = []
    for name, media in _DOWNLOADS:
        data = files.get(name)
        if data is None:
            continue
        encoded = base64.b64encode(data).decode("ascii")
        links.append(
            f'<a download="{html.escape(stem)}-{name}" href="data:{media};base64,{encoded}">'
            f"{name}</a>"
        )
    names = ", ".join(f"<strong>{html.escape(n)}</strong>" for n in shown)
    return (
        '<nav id="downloads" style="font:14px system-ui,sans-serif;padding:.6rem 1rem;'
        'background:#eef3ff;border-bottom:1px solid #ccd">'
        f"{names}: download {' · '.join(links)}"
        ' · <a href="/">audit other files</a></nav>'
    )


async def post_audit(request: web.Request) -> web.Response:
    """Audit every uploaded file as one bibliography (as `auditor audit a.bib b.bib` does) and
    answer with its report."""
    state = request.app[STATE]
    cap = state.settings.upload_max_bytes
    declared = request.content_length
    if declared is not None and declared > cap + _FRAMING:
        return _problem(413, f"The upload is larger than the limit of {_limit_words(cap)}.")
    uploads = await _read_uploads(request, cap)
    if isinstance(uploads, web.Response):
        return uploads
    kinds = ", ".join(ACCEPTED)
    for name, _ in uploads:
        if _safe_name(name) is None:
            what = name or "The file"
            return _problem(400, f"{what}: not a bibliography this page reads ({kinds}).")
    if not any(data.strip() for _, data in uploads):
        empty = f"{uploads[0][0]}: the file is empty." if len(uploads) == 1 else ""
        return _problem(400, empty or "Every uploaded file is empty.")
    shown = [_shown_name(name) for name, _ in uploads]
    with tempfile.TemporaryDirectory(prefix="auditor-upload-") as folder:
        names: dict[str, str] = {}
        for i, (name, data) in enumerate(uploads):
            # One subfolder per file: two uploads may share a name (refs.bib from two folders).
            path = Path(folder) / "in" / str(i) / (_safe_name(name) or "bibliography.txt")
            path.parent.mkdir(parents=True)
            path.write_bytes(data)
            names[str(path)] = shown[i]
        del uploads
        try:
            async with state.audits:
                # No title worker processes in the service: its requests share the cores.
                run = dataclasses.replace(state.settings, title_workers=False)
                result = await run_audit(list(names), run, net=state.net)
        except (InputError, ConfigError) as exc:
            message = str(exc)
            for written, name in names.items():
                message = message.replace(written, name)
            return _problem(400, message)
        result = _renamed(result, names)
        files = await asyncio.to_thread(_written, result, Path(folder) / "out")
    report = files["report.html"].decode("utf-8")
    bar = _downloads_bar(files, shown)
    page = re.sub(r"<body([^>]*)>", lambda m: m.group(0) + bar, report, count=1)
    return web.Response(
        text=page,
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": _REPORT_CSP},
    )


def routes() -> list[web.RouteDef]:
    """`GET /` and `POST /audit`."""
    return [web.get("/", get_page), web.post("/audit", post_audit)]
