"""The upload page in headless Chromium: upload the sample, see the counts, the hostile title
does not run, the progress shows while the audit runs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
import pytest

from auditor.pipeline import run_audit
from tests.report.test_browser import CHROMIUM, DevTools, browser  # noqa: F401 (fixture)
from tests.serve.conftest import Served

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (CI installs it)"),
]

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_bibs" / "thesis.bib"
SNAPSHOT = str(ROOT / "sample_bibs" / "snapshot.parquet")
HOSTILE = '@article{hostile,\n  title = {<script>document.title="pwned"</script>},\n}\n'


async def _wait_for_load(tools: DevTools) -> None:
    for _ in range(600):
        if any(e.get("method") == "Page.loadEventFired" for e in tools.events):
            return
        await asyncio.sleep(0.05)  # waiting on the browser, not testing time
    raise TimeoutError("the answer page did not load")


async def test_upload_the_sample_in_chromium(
    browser: DevTools,  # noqa: F811
    server_factory: Any,
    tmp_path: Path,
) -> None:
    served: Served = await server_factory(offline=True, snapshots=(SNAPSHOT,))
    upload = tmp_path / "thesis.bib"
    upload.write_text(SAMPLE.read_text(encoding="utf-8") + "\n" + HOSTILE, encoding="utf-8")
    await browser.open(served.url + "/")
    assert await browser.evaluate("document.querySelector('form#upload').method") == "post"

    document = await browser.send("DOM.getDocument")
    node = await browser.send(
        "DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#file"
    )
    await browser.send("DOM.setFileInputFiles", nodeId=node["nodeId"], files=[str(upload)])

    # the progress shows on submit (a listener added after the page's own keeps us here)
    await browser.evaluate(
        "document.getElementById('upload').addEventListener('submit', e => e.preventDefault())"
    )
    await browser.evaluate("document.getElementById('go').click()")
    assert await browser.evaluate("getComputedStyle(document.getElementById('busy')).display") == (
        "block"
    )
    assert await browser.evaluate("document.getElementById('go').disabled") is True

    browser.events.clear()
    await browser.evaluate("document.getElementById('upload').submit()")
    await _wait_for_load(browser)

    shown = await browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#summary-counts .count')]"
        ".map(e => [e.dataset.verdict, Number(e.querySelector('b').textContent)]))"
    )
    expected = await run_audit([str(upload)], served.settings)
    counts = {
        v["values"]: v["counts"] for v in pc.value_counts(expected.verdicts["verdict"]).to_pylist()
    }
    assert {k: n for k, n in shown.items() if n} == counts
    assert await browser.evaluate("document.querySelectorAll('tr.ref').length") == (
        expected.verdicts.num_rows
    )
    # the hostile title is text and never ran
    assert await browser.evaluate("document.title") != "pwned"
    texts = await browser.evaluate("document.body.textContent")
    assert '<script>document.title="pwned"</script>' in texts
    links = await browser.evaluate(
        "[...document.querySelectorAll('#downloads a[download]')].map(a => a.textContent)"
    )
    assert links == ["reports.zip"]  # every table in one ZIP, not each again in base64


async def test_upload_several_files_in_chromium(
    browser: DevTools,  # noqa: F811
    server_factory: Any,
    tmp_path: Path,
) -> None:
    served: Served = await server_factory(offline=True, snapshots=(SNAPSHOT,))
    first = tmp_path / "thesis.bib"
    first.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    second = tmp_path / "screening.ris"
    second.write_bytes((ROOT / "sample_bibs" / "screening.ris").read_bytes())
    await browser.open(served.url + "/")
    assert await browser.evaluate("document.getElementById('file').multiple") is True
    document = await browser.send("DOM.getDocument")
    node = await browser.send(
        "DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#file"
    )
    await browser.send(
        "DOM.setFileInputFiles", nodeId=node["nodeId"], files=[str(first), str(second)]
    )
    assert await browser.evaluate("document.getElementById('file').files.length") == 2
    browser.events.clear()
    await browser.evaluate("document.getElementById('go').click()")  # the page's own submit
    await _wait_for_load(browser)

    expected = await run_audit([str(first), str(second)], served.settings)
    assert await browser.evaluate("document.querySelectorAll('tr.ref').length") == (
        expected.verdicts.num_rows
    )
    shown = await browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#summary-counts .count')]"
        ".map(e => [e.dataset.verdict, Number(e.querySelector('b').textContent)]))"
    )
    counts = {
        v["values"]: v["counts"] for v in pc.value_counts(expected.verdicts["verdict"]).to_pylist()
    }
    assert {k: n for k, n in shown.items() if n} == counts
    names = await browser.evaluate(
        "[...document.querySelectorAll('#downloads strong')].map(e => e.textContent)"
    )
    assert names == ["thesis.bib", "screening.ris"]
