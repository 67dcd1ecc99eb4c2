"""The upload page over plain HTTP: the audit runs, downloads come inline, nothing is kept."""

from __future__ import annotations

import base64
import csv
import io
import re
import tempfile
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from auditor.pipeline import run_audit
from tests.serve.conftest import Served

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_bibs" / "thesis.bib"
SNAPSHOT = str(ROOT / "sample_bibs" / "snapshot.parquet")


@pytest.fixture
async def page_server(
    server_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Served:
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    served: Served = await server_factory(
        offline=True, snapshots=(SNAPSHOT,), upload_max_bytes=50_000
    )
    return served


async def _upload(served: Served, name: str, data: bytes) -> tuple[int, str]:
    return await _upload_all(served, [(name, data)])


async def _upload_all(served: Served, files: list[tuple[str, bytes]]) -> tuple[int, str]:
    form = aiohttp.FormData()
    for name, data in files:
        form.add_field("bibliography", data, filename=name, content_type="application/octet-stream")
    async with served.http.post(served.url + "/audit", data=form) as resp:
        return resp.status, await resp.text()


def _downloads(page: str) -> dict[str, bytes]:
    """The report files in the answer's one ZIP download (#26, 11: no table embedded twice)."""
    links = re.findall(r'download="[^"]*-([a-z]+\.[a-z]+)" href="data:[^;]+;base64,([^"]+)"', page)
    assert [name for name, _ in links] == ["reports.zip"], links
    with zipfile.ZipFile(io.BytesIO(base64.b64decode(links[0][1]))) as bundle:
        return {name: bundle.read(name) for name in bundle.namelist()}


async def test_the_form_is_served(page_server: Served) -> None:
    async with page_server.http.get(page_server.url + "/") as resp:
        assert resp.status == 200
        text = await resp.text()
        assert "default-src 'none'" in resp.headers["Content-Security-Policy"]
    assert 'enctype="multipart/form-data"' in text and 'name="bibliography"' in text
    assert ".bib" in text and ".ris" in text and ".csv" in text
    assert re.search(r'<input id="file"[^>]* multiple', text)  # several files at once


async def test_uploading_the_sample_gives_the_report_and_its_tables(
    page_server: Served, tmp_path: Path
) -> None:
    status, page = await _upload(page_server, "thesis.bib", SAMPLE.read_bytes())
    assert status == 200, page[:500]
    assert 'id="summary-counts"' in page and "Checklist" in page
    files = _downloads(page)
    assert {"verdicts.csv", "checklist.csv", "verdicts.parquet", "checklist.parquet"} <= set(files)
    rows = list(csv.DictReader(io.StringIO(files["verdicts.csv"].decode("utf-8-sig"))))
    expected = await run_audit([str(SAMPLE)], page_server.settings)  # what the CLI computes
    assert Counter(r["verdict"] for r in rows) == Counter(expected.verdicts["verdict"].to_pylist())
    assert {r["source_path"] for r in rows} == {"thesis.bib"}
    assert str(tmp_path) not in page
    assert files["verdicts.parquet"][:4] == b"PAR1"
    assert list((tmp_path / "tmp").iterdir()) == []  # the upload folder is gone


async def test_an_upload_over_the_cap_is_refused_with_a_clear_message(page_server: Served) -> None:
    status, page = await _upload(page_server, "big.bib", b"@misc{a, title={x}}\n" * 5_000)
    assert status == 413
    assert "larger than the limit of 50000 bytes" in page


async def test_other_files_are_refused(page_server: Served) -> None:
    status, page = await _upload(page_server, "notes.exe", b"MZ")
    assert status == 400 and "not a bibliography" in page
    status, page = await _upload(page_server, "empty.bib", b"  ")
    assert status == 400 and "empty" in page
    async with page_server.http.post(page_server.url + "/audit", data=b"x") as resp:
        assert resp.status == 400


async def test_a_hostile_file_name_and_title_are_text(page_server: Served) -> None:
    bib = b"@article{h, title={<script>alert(1)</script>}, doi={10.5555/x}}\n"
    status, page = await _upload(page_server, "<img src=x onerror=alert(1)>.bib", bib)
    assert status == 200
    assert "<script>alert(1)" not in page and "<img src=x" not in page


@pytest.mark.parametrize("name", ["screening.ris", "submissions.csv"])
async def test_the_other_samples_upload_too(page_server: Served, name: str) -> None:
    sample = ROOT / "sample_bibs" / name
    status, page = await _upload(page_server, name, sample.read_bytes())
    assert status == 200, page[:300]
    rows = list(csv.DictReader(io.StringIO(_downloads(page)["verdicts.csv"].decode("utf-8-sig"))))
    expected = await run_audit([str(sample)], page_server.settings)
    assert len(rows) == expected.verdicts.num_rows > 0


async def test_several_files_are_audited_together(page_server: Served, tmp_path: Path) -> None:
    ris = ROOT / "sample_bibs" / "screening.ris"
    status, page = await _upload_all(
        page_server, [("thesis.bib", SAMPLE.read_bytes()), ("screening.ris", ris.read_bytes())]
    )
    assert status == 200, page[:500]
    rows = list(csv.DictReader(io.StringIO(_downloads(page)["verdicts.csv"].decode("utf-8-sig"))))
    expected = await run_audit([str(SAMPLE), str(ris)], page_server.settings)  # the CLI's run
    assert len(rows) == expected.verdicts.num_rows
    assert Counter(r["verdict"] for r in rows) == Counter(expected.verdicts["verdict"].to_pylist())
    assert Counter(r["source_path"] for r in rows) == Counter(
        Path(p).name for p in expected.verdicts["source_path"].to_pylist()
    )
    assert {"thesis.bib", "screening.ris"} <= {r["source_path"] for r in rows}
    assert "<strong>thesis.bib</strong>, <strong>screening.ris</strong>" in page
    assert str(tmp_path) not in page
    assert list((tmp_path / "tmp").iterdir()) == []


async def test_one_database_across_files_and_same_names_kept_apart(page_server: Served) -> None:
    parent = b"@proceedings{conf, title = {Proceedings of the Meeting}, year = {2020}}\n"
    child = b"@inproceedings{talk, title = {A Talk at the Meeting}, crossref = {conf}}\n"
    status, page = await _upload_all(page_server, [("refs.bib", child), ("refs.bib", parent)])
    assert status == 200, page[:500]
    rows = list(csv.DictReader(io.StringIO(_downloads(page)["verdicts.csv"].decode("utf-8-sig"))))
    assert sorted(r["key"] for r in rows) == ["conf", "talk"]
    assert {r["source_path"] for r in rows} == {"refs.bib"}


async def test_the_cap_holds_for_all_files_together(page_server: Served) -> None:
    part = b"@misc{a, title={x}}\n" * 1_500  # 30,000 bytes: under the 50,000 cap alone
    status, page = await _upload_all(page_server, [("a.bib", part), ("b.bib", part)])
    assert status == 413 and "larger than the limit of 50000 bytes" in page


async def test_one_refused_file_refuses_the_upload_naming_it(page_server: Served) -> None:
    status, page = await _upload_all(
        page_server, [("thesis.bib", SAMPLE.read_bytes()), ("notes.pages", b"PK")]
    )
    assert status == 400 and "notes.pages: not a bibliography" in page


async def test_an_answer_past_its_bound_carries_the_report_in_the_zip_only(
    page_server: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    import auditor.serve.page as page_module

    monkeypatch.setattr(page_module, "MAX_ANSWER_BYTES", 20_000)
    status, page = await _upload(page_server, "thesis.bib", SAMPLE.read_bytes())
    assert status == 200
    assert len(page.encode()) < 20_000 + 4 * len(SAMPLE.read_bytes()) * 10
    assert "larger than this page carries" in page and 'id="summary-counts"' in page
    files = _downloads(page)
    assert "report.html" in files and "verdicts.csv" in files
    assert page.count("base64,") == 1  # every table once, in the one ZIP


async def test_the_answer_is_bounded_by_the_upload_not_multiplied(page_server: Served) -> None:
    entries = "".join(
        f"@article{{k{i}, title={{A study of things number {i}}}, author={{Doe, Jane}},"
        f" year={{2020}}, doi={{10.5555/none.{i}}}}}\n"
        for i in range(300)
    ).encode()
    status, page = await _upload(page_server, "many.bib", entries)
    assert status == 200
    # The report inline and every table once, deflated: not every table again in base64.
    assert page.count("base64,") == 1
    nav = re.search(r'<nav id="downloads".*?</nav>', page, re.S)
    assert nav is not None
    tables = sum(len(data) for data in _downloads(page).values())
    assert len(nav.group(0)) < tables / 2, (len(nav.group(0)), tables)


async def test_a_document_and_pasted_text_are_read_as_reference_lists(
    page_server: Served,
) -> None:
    status, page = await _upload(page_server, "broken.docx", b"PK not a zip")
    assert status == 400 and "broken.docx: not a Word .docx" in page
    form = aiohttp.FormData()
    text = "[1] A. Smith and B. Jones. A study of things. In Proc. X, 2020.\n"
    form.add_field("pasted", text, content_type="text/plain")  # as the browser sends the form
    async with page_server.http.post(page_server.url + "/audit", data=form) as resp:
        status, page = resp.status, await resp.text()
    assert status == 200, page[page.find('id="problem') :][:300]
    rows = list(csv.DictReader(io.StringIO(_downloads(page)["verdicts.csv"].decode("utf-8-sig"))))
    assert [(r["source_path"], r["title_claimed"], r["source_label"]) for r in rows] == [
        ("pasted.txt", "A study of things", "1")
    ]
    assert "As printed" in page and "A. Smith and B. Jones" in page


async def test_an_uploaded_manuscript_never_reads_the_servers_disk(
    page_server: Served, tmp_path: Path
) -> None:
    # the server's own files: a bibliography beside its temporary folder, and a Quarto project
    # file in the temporary folder itself, above every upload (#37)
    secret = tmp_path / "secret.bib"
    secret.write_text("@article{secret1, title={Secret Server Title}, doi={10.5555/serve.1}}\n")
    (tmp_path / "tmp" / "_quarto.yml").write_text(f"bibliography: {secret}\n")
    hostile = {
        "absolute.md": f"---\nbibliography: {secret}\n---\nSee [@secret1].\n",
        "climbing.md": "---\nbibliography: ../../../../secret.bib\n---\nSee [@secret1].\n",
        "project.md": "See [@secret1] {{< include ../../../../secret.bib >}}.\n",
    }
    for name, text in hostile.items():
        status, page = await _upload_all(
            page_server, [(name, text.encode()), ("mine.bib", SAMPLE.read_bytes())]
        )
        assert status == 200, (name, page[:500])
        assert "Secret Server Title" not in page, name
        files = _downloads(page)
        assert all(b"Secret Server Title" not in data for data in files.values()), name
        assert "outside the manuscript" in page, name
    # alone, the manuscript names nothing the server may read: refused, nothing read
    status, page = await _upload(page_server, "absolute.md", hostile["absolute.md"].encode())
    assert status == 400 and "outside the manuscript" in page
    assert "Secret Server Title" not in page and str(tmp_path / "tmp") not in page
