"""The page for people: `GET /` is an upload form, `POST /audit` runs the whole audit on the
uploaded files, all of them together as one bibliography (as `auditor audit a.bib b.bib` does).

The answer to `POST /audit` is the same self-contained `report.html` that `auditor audit`
writes (its checklist included), with a bar at the top linking to the CSV, Parquet and JSON
files of the same run. While the audit runs, the form shows a progress bar and the seconds
spent (the browser keeps the form on screen until the answer arrives; no JavaScript is needed to
upload, only to show the progress).

Nothing uploaded outlives the request: each file is streamed into a fresh private temporary
folder (mode 0700, never held in memory: `uploads.receive`), the reports are written beside it,
read back into memory, and the folder is deleted before the answer is sent, on success and on
error. The downloads travel inside the answer as one `data:` link to a ZIP of every report
file, so the server keeps no copy to fetch them from; the only lasting copies are the ones the
user saves. A client has at most `client_queue` uploads in flight (429 past it, before a byte is
read), and the audits run one at a time, the turn passing from client to client. Uploads above
`upload_max_bytes` (all files together) are refused
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
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from aiohttp import web

from auditor.errors import ConfigError, InputError
from auditor.load import FORMATS
from auditor.pipeline import run_audit
from auditor.report import write_reports
from auditor.report.view import build_view
from auditor.result import AuditResult, InputFile, LoadProblem
from auditor.serve.clients import RETRY_AFTER_BUSY, Busy
from auditor.serve.gates import CLIENT, GATE, check_token, client_key
from auditor.serve.state import STATE
from auditor.serve.uploads import (
    FIELD,
    PASTED,
    TOKEN_FIELD,
    Received,
    Refused,
    downloads_zip,
    receive,
)

__all__ = ["ACCEPTED", "routes"]

#: File extensions the upload takes: every format the loader reads (bibliographies, and PDF,
#: Word `.docx` and `.txt` reference lists).
ACCEPTED: tuple[str, ...] = tuple(sorted({s for sfx in FORMATS.values() for s in sfx} | {".txt"}))

#: Multipart framing around the file (boundaries, headers) allowed beyond `upload_max_bytes`.
_FRAMING = 16 * 1024

#: What the answer offers for download: file name → media type.
#: The largest answer page: past it, the report travels inside the ZIP, not inline as well.
MAX_ANSWER_BYTES = 24 * 1024 * 1024

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
    # Before the files: the server reads the token before it reads a byte of them.
    token = (
        '<label for="token">Access token</label><br>'
        f'<input id="token" type="password" name="{TOKEN_FIELD}" autocomplete="off" required>'
        "<br>\n"
        if request.app[GATE].tokens
        else ""
    )
    body = f"""
<h1>Audit a bibliography</h1>
<p>Upload a bibliography: BibTeX, RIS, CSV, CSL-JSON, or a Web of Science, MEDLINE or EndNote
export; several files are audited together, as one bibliography. Every reference is checked
against the register that owns its identifier (Crossref, PubMed, arXiv, the DOI system) under
the criteria <code>{html.escape(criteria)}</code>, and you get the report with its checklist and
the tables to download.</p>
<form id="upload" method="post" action="/audit" enctype="multipart/form-data" data-cap="{cap}">
{token}
<label for="file">Bibliography files ({html.escape(kinds)}; at most {_limit_words(cap)} in all)
</label><br>
<input id="file" type="file" name="{FIELD}" accept="{html.escape(",".join(ACCEPTED))}" multiple>
<br><label for="pasted">or paste a reference list (one reference per numbered item, paragraph
or line)</label><br>
<textarea id="pasted" name="{PASTED}" rows="6" cols="80"></textarea>
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


def _downloads_bar(bundle: bytes, listed: list[str], shown: list[str]) -> str:
    stem = Path(shown[0]).stem if len(shown) == 1 else "bibliographies"
    encoded = base64.b64encode(bundle).decode("ascii")
    names = ", ".join(f"<strong>{html.escape(n)}</strong>" for n in shown)
    return (
        '<nav id="downloads" style="font:14px system-ui,sans-serif;padding:.6rem 1rem;'
        'background:#eef3ff;border-bottom:1px solid #ccd">'
        f'{names}: download <a download="{html.escape(stem)}-reports.zip" '
        f'href="data:application/zip;base64,{encoded}">reports.zip</a> '
        f"({html.escape(', '.join(listed))})"
        ' · <a href="/">audit other files</a></nav>'
    )


def _answer(files: dict[str, bytes], shown: list[str], counts: dict[str, int]) -> web.Response:
    """The report page with its tables in one ZIP; past `MAX_ANSWER_BYTES`, a summary page
    with the ZIP (the full `report.html` inside it) instead of the report inline."""
    order = tuple(name for name, _ in _DOWNLOADS)
    tables = tuple(n for n in order if n != "report.html")  # the page itself is the report
    bundle = downloads_zip(files, tables)
    report = files["report.html"]
    if len(report) + len(bundle) * 4 // 3 <= MAX_ANSWER_BYTES:
        bar = _downloads_bar(bundle, [n for n in tables if n in files], shown)
        text = re.sub(r"<body([^>]*)>", lambda m: m.group(0) + bar, report.decode("utf-8"), count=1)
        return web.Response(
            text=text,
            content_type="text/html",
            charset="utf-8",
            headers={"Content-Security-Policy": _REPORT_CSP},
        )
    bundle = downloads_zip(files, order)
    bar = _downloads_bar(bundle, [n for n in order if n in files], shown)
    rows = "".join(
        f"<tr><td>{html.escape(verdict)}</td><td>{count:,}</td></tr>"
        for verdict, count in sorted(counts.items())
    )
    body = (
        f'{bar}<h1>Audit done</h1><table id="summary-counts">{rows}</table>'
        f"<p>The full report is larger than this page carries ({len(report):,} bytes): "
        "it is <code>report.html</code> in <code>reports.zip</code>, with every table.</p>"
    )
    return _page(body)


def _sized(got: Received) -> list[tuple[tuple[str, Path], int]]:
    return list(zip(got.files, got.sizes, strict=True))


def _refused(exc: Refused, cap: int) -> web.Response:
    if exc.status == 413:
        return _problem(413, f"The upload is larger than the limit of {_limit_words(cap)}.")
    if exc.status == 400 and exc.message.endswith("not a bibliography this page reads"):
        return _problem(400, f"{exc.message} ({', '.join(ACCEPTED)}).")
    return _problem(exc.status, exc.message)


def _token_ok(request: web.Request, token: str | None) -> bool:
    """Whether the client may audit: no tokens set, a valid bearer header, or a valid field."""
    gate = request.app[GATE]
    if not gate.tokens or CLIENT.get() is not None:
        return True
    name = check_token(gate.tokens, token or "")
    if name is not None:
        CLIENT.set(f"token:{name}")  # the middleware resets it after this request
    return name is not None


async def post_audit(request: web.Request) -> web.Response:
    """Audit every uploaded file as one bibliography (as `auditor audit a.bib b.bib` does) and
    answer with its report. A client has at most `client_queue` uploads in flight (429)."""
    state = request.app[STATE]
    cap = state.settings.upload_max_bytes
    declared = request.content_length
    if declared is not None and declared > cap + _FRAMING:
        return _problem(413, f"The upload is larger than the limit of {_limit_words(cap)}.")
    try:
        async with state.in_flight.slot(client_key(request)):
            return await _audit_upload(request, cap)
    except Busy:
        page = _problem(429, "You have other audits running; try again when they finish.")
        page.headers["Retry-After"] = str(RETRY_AFTER_BUSY)
        return page


async def _audit_upload(request: web.Request, cap: int) -> web.Response:
    state = request.app[STATE]
    token_needed = bool(request.app[GATE].tokens) and CLIENT.get() is None
    with tempfile.TemporaryDirectory(prefix="auditor-upload-") as folder:
        try:
            got = await receive(
                request,
                Path(folder),
                cap=cap,
                timeout=state.settings.client_timeout,
                safe_name=_safe_name,
                token_needed=token_needed,
            )
        except Refused as exc:
            return _refused(exc, cap)
        if not _token_ok(request, got.token):
            return _problem(401, "This server needs a valid token.")
        if not any(size and path.read_bytes().strip() for (_, path), size in _sized(got)):
            empty = f"{got.files[0][0]}: the file is empty." if len(got.files) == 1 else ""
            return _problem(400, empty or "Every uploaded file is empty.")
        shown = [_shown_name(name) for name, _ in got.files]
        names = {str(path): shown[i] for i, (_, path) in enumerate(got.files)}
        try:
            # One audit at a time, the turn passing from client to client.
            async with state.turns.turn(client_key(request)):
                # No title worker processes in the service: its requests share the cores.
                run = dataclasses.replace(state.settings, title_workers=False)
                # A manuscript reads nothing outside the upload's folder (#37).
                result = await run_audit(list(names), run, net=state.net, within=Path(folder))
        except (InputError, ConfigError) as exc:
            message = str(exc)
            for written, name in names.items():
                message = message.replace(written, name)
            return _problem(400, message)
        result = _renamed(result, names)
        files = await asyncio.to_thread(_written, result, Path(folder) / "out")
    counts = Counter(result.verdicts.column("verdict").to_pylist())
    return _answer(files, shown, {str(k): v for k, v in counts.items()})


def routes() -> list[web.RouteDef]:
    """`GET /` and `POST /audit`."""
    return [web.get("/", get_page), web.post("/audit", post_audit)]
