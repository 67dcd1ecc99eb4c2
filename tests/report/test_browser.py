"""`report.html` in headless Chromium, driven over the DevTools protocol (aiohttp websocket).

Checks what a reader sees: the summary counts equal the Parquet counts, filtering by verdict
(through the URL hash, as a bookmark would) shows exactly the right rows, the hostile title is
text and never runs, and the page makes no request beyond its own file (every network request
is recorded, and the CSP refuses a scripted fetch). Saves a screenshot to
`tests/artifacts/report.png` for people to look at.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from auditor.report import write_reports
from auditor.report.view import build_view
from auditor.result import AuditResult

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (CI installs it)"),
]

_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
]


class DevTools:
    """A minimal DevTools-protocol client: commands by id, events kept in a list."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: list[dict[str, Any]] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self._ws:
            data = json.loads(msg.data)
            if "id" in data and data["id"] in self._pending:
                self._pending.pop(data["id"]).set_result(data)
            else:
                self.events.append(data)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Run one command; raise on a protocol error."""
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        await self._ws.send_json({"id": ident, "method": method, "params": params})
        reply = await asyncio.wait_for(future, 30)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        return result["result"].get("value")

    async def open(self, url: str) -> None:
        """Navigate and wait for the load event."""
        self.events.clear()
        await self.send("Page.navigate", url=url)
        for _ in range(600):
            if any(e.get("method") == "Page.loadEventFired" for e in self.events):
                return
            await asyncio.sleep(0.05)  # waiting on the browser, not testing time
        raise TimeoutError(f"{url} did not load")

    def close(self) -> None:
        self._reader.cancel()


@pytest.fixture
async def browser() -> AsyncIterator[DevTools]:
    """A fresh headless Chromium with its own profile, and a DevTools session on one page."""
    assert CHROMIUM is not None
    # A short folder of its own: Chromium puts its singleton socket in $TMPDIR and aborts when
    # the socket path passes the 108-byte Unix limit (pytest-xdist's tmp_path is that long).
    home = Path(tempfile.mkdtemp(prefix="cr-"))
    profile = home / "profile"
    proc = subprocess.Popen(
        [CHROMIUM, *_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Chromium leaves an org.chromium.Chromium.* singleton folder in $TMPDIR per launch.
        env={**os.environ, "TMPDIR": str(home)},
    )
    try:
        port_file = profile / "DevToolsActivePort"
        for _ in range(600):
            if port_file.exists() and port_file.read_text().strip():
                break
            if proc.poll() is not None:
                pytest.fail(f"chromium exited with {proc.returncode}")
            await asyncio.sleep(0.05)  # waiting for the browser to start
        port = int(port_file.read_text().splitlines()[0])
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/json/list") as resp:
                targets = await resp.json()
            page = next(t for t in targets if t["type"] == "page")
            async with session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.send("Page.enable")
                await tools.send("Network.enable")
                await tools.send("Runtime.enable")
                try:
                    yield tools
                finally:
                    tools.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(home, ignore_errors=True)


def _requests(tools: DevTools) -> list[str]:
    return [
        e["params"]["request"]["url"]
        for e in tools.events
        if e.get("method") == "Network.requestWillBeSent"
    ]


async def test_report_in_chromium(browser: DevTools, result: AuditResult, tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_reports(build_view(result), out)
    url = (out / "report.html").as_uri()
    verdicts = pq.read_table(out / "verdicts.parquet")

    await browser.open(url)
    # summary counts equal the Parquet counts
    shown = await browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#summary-counts .count')]"
        ".map(e => [e.dataset.verdict, Number(e.querySelector('b').textContent)]))"
    )
    expected = {v["values"]: v["counts"] for v in pc.value_counts(verdicts["verdict"]).to_pylist()}
    assert {k: n for k, n in shown.items() if n} == expected
    assert await browser.evaluate("document.querySelectorAll('tr.ref').length") == 9

    # the hostile title is text: it did not run, it is shown as written
    assert (
        await browser.evaluate("document.title")
        == "Bibliography audit: thesis.bib, submission2.bib"
    )
    assert await browser.evaluate("document.querySelectorAll('img').length") == 0
    summary = await browser.evaluate("document.querySelector('#row-3 summary').textContent")
    assert summary.startswith('<script>document.title="pwned"</script>')

    # no request leaves the page: the only request is the file itself, and the CSP refuses more
    assert _requests(browser) == [url]
    refused = await browser.evaluate(
        "fetch('http://127.0.0.1:9/leak').then(() => 'sent', () => 'refused')"
    )
    assert refused == "refused"
    assert all(u == url for u in _requests(browser)), _requests(browser)

    # a screenshot of the whole report for people to look at, one comparison expanded
    await browser.evaluate("document.querySelector('#row-1 details').open = true")
    height = await browser.evaluate("document.documentElement.scrollHeight")
    await browser.send(
        "Emulation.setDeviceMetricsOverride",
        width=1280,
        height=int(height),
        deviceScaleFactor=1,
        mobile=False,
    )
    shot = await browser.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "report.png").write_bytes(base64.b64decode(shot["data"]))


@pytest.mark.parametrize(
    ("query", "column", "value"),
    [
        ("verdict=DOES-NOT-RESOLVE", "verdict", "DOES-NOT-RESOLVE"),
        ("verdict=NOT%20COVERED", "verdict", "NOT COVERED"),
        ("register=crossref", "register", "crossref"),
        ("priority=P1", "priority", "P1"),
    ],
)
async def test_filter_by_hash_shows_the_right_rows(
    browser: DevTools, result: AuditResult, tmp_path: Path, query: str, column: str, value: str
) -> None:
    out = tmp_path / "out"
    write_reports(build_view(result), out)
    verdicts = pq.read_table(out / "verdicts.parquet").to_pylist()
    want = [str(r["row_id"]) for r in verdicts if r[column] == value]
    assert want, "the synthetic run must have rows to show"
    await browser.open(f"{(out / 'report.html').as_uri()}#{query}")
    visible = await browser.evaluate(
        "[...document.querySelectorAll('tr.ref')].filter(r => !r.hidden && r.offsetParent)"
        ".map(r => r.dataset.row)"
    )
    assert visible == want
    assert await browser.evaluate("document.getElementById('shown').textContent") == (
        f"showing {len(want)} of 9"
    )


async def test_filter_controls_and_sorting(
    browser: DevTools, result: AuditResult, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    write_reports(build_view(result), out)
    await browser.open((out / "report.html").as_uri())
    visible_js = (
        "[...document.querySelectorAll('tr.ref')].filter(r => !r.hidden).map(r => r.dataset.key)"
    )
    await browser.evaluate(
        "(() => { const s = document.getElementById('f-verdict');"
        " s.value = 'RESOLVES-BUT-DIFFERS'; s.dispatchEvent(new Event('change')); })()"
    )
    assert await browser.evaluate(visible_js) == ["wrongtitle", "lecun2015b"]
    assert await browser.evaluate("location.hash") == "#verdict=RESOLVES-BUT-DIFFERS"
    await browser.evaluate(
        "(() => { const s = document.getElementById('f-verdict'); s.value = '';"
        " s.dispatchEvent(new Event('change'));"
        " document.querySelector('section.file button[data-sort=key]').click(); })()"
    )
    keys = await browser.evaluate(
        "[...document.querySelector('section.file tbody').rows].map(r => r.dataset.key)"
    )
    assert keys == sorted(keys)


async def test_readable_without_javascript_and_in_print(
    browser: DevTools, result: AuditResult, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    write_reports(build_view(result), out)
    url = (out / "report.html").as_uri()
    await browser.send("Emulation.setScriptExecutionDisabled", value=True)
    await browser.open(f"{url}#verdict=DOES-NOT-RESOLVE")
    await browser.send("Emulation.setScriptExecutionDisabled", value=False)
    # evaluated from the DevTools side, so it runs though the page's own script did not
    assert not await browser.evaluate("document.documentElement.classList.contains('js')")
    visible = await browser.evaluate(
        "[...document.querySelectorAll('tr.ref')].filter(r => r.offsetParent).length"
    )
    assert visible == 9  # no script: nothing filtered away
    assert (
        await browser.evaluate("getComputedStyle(document.querySelector('.controls')).display")
        == "none"
    )  # controls that cannot work are not shown

    await browser.open("about:blank")  # a hash-only change would not reload the page
    await browser.open(f"{url}#verdict=DOES-NOT-RESOLVE")  # scripted filter hides rows…
    assert await browser.evaluate("document.body.dataset.shown") == "2"
    await browser.send("Emulation.setEmulatedMedia", media="print")
    printed = await browser.evaluate(
        "[...document.querySelectorAll('tr.ref')].filter(r => r.offsetParent).length"
    )
    assert printed == 9  # …but a printout shows every reference
    assert (
        await browser.evaluate("getComputedStyle(document.querySelector('.controls')).display")
        == "none"
    )


async def test_checklist_results_are_recorded_in_the_page_and_exported_as_csv(
    browser: DevTools, result: AuditResult, tmp_path: Path
) -> None:
    import csv
    import io

    out = tmp_path / "out"
    write_reports(build_view(result), out)
    url = (out / "report.html").as_uri()
    await browser.open(url)
    items = await browser.evaluate("document.querySelectorAll('#checklist-items tr.item').length")
    assert items == result.checklist.num_rows > 0
    await browser.evaluate(
        "(() => { const tr = document.querySelector('#checklist-items tr.item');"
        " tr.querySelector('.human-result').value = 'wrong';"
        " tr.querySelector('.human-note').value = '=HYPERLINK(\"x\") \"quoted\", with comma'; })()"
    )
    text = await browser.evaluate("window.auditorResultsCsv()")
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert len(rows) == items
    first = result.checklist.to_pylist()[0]
    assert (
        rows[0]["row_id"] == str(first["row_id"]) and rows[0]["reason_code"] == first["reason_code"]
    )
    assert rows[0]["human_result"] == "wrong"
    assert rows[0]["note"] == '\'=HYPERLINK("x") "quoted", with comma'  # no formula runs
    assert all(r["human_result"] == "" for r in rows[1:])  # the others are still pending
    # the export button downloads from the page itself: no request leaves it
    await browser.evaluate("document.getElementById('export-results').click()")
    assert all(u == url or u.startswith("blob:") for u in _requests(browser)), _requests(browser)


async def test_the_exported_results_guard_every_piece_as_the_csv_does(
    browser: DevTools, result: AuditResult, tmp_path: Path
) -> None:
    # keys and paths as a Word file's Zotero field or a .bib can give them (#37): a formula
    # after a delimiter a spreadsheet may split on, or behind spaces, is guarded too
    import csv
    import dataclasses
    import io
    import re

    import pyarrow as pa

    hostile = ["a;=1+1", " =cmd|/C calc!A0", "x|@SUM(A1)", "k\t-2+3", "ok,+1"]
    checklist = result.checklist
    keys = [hostile[i % len(hostile)] for i in range(checklist.num_rows)]
    i = checklist.schema.get_field_index("key")
    checklist = checklist.set_column(i, checklist.schema.field(i), pa.array(keys, pa.string()))
    out = tmp_path / "out"
    write_reports(build_view(dataclasses.replace(result, checklist=checklist)), out)
    await browser.open((out / "report.html").as_uri())
    text = await browser.evaluate("window.auditorResultsCsv()")
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert {r["key"].replace("'", "") for r in rows} == set(hostile)
    for row in rows:
        pieces = [p.lstrip(" ") for p in re.split(r"[,;\t|]", row["key"])]
        assert not any(p and (p[0] in "=+-@" or ord(p[0]) < 0x20) for p in pieces), row["key"]
    own = (out / "checklist.csv").read_text(encoding="utf-8-sig")  # the same guard as Python's
    python_keys = [r["key"] for r in csv.DictReader(io.StringIO(own))]
    assert sorted(r["key"] for r in rows) == sorted(python_keys)
