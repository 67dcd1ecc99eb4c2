"""`snapshot import` against hostile dumps and folder names (#26, 16-19)."""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.dumps import KINDS
from auditor.dumps.importer import import_dump
from auditor.dumps.jsonlines import bounded_lines, objects
from auditor.dumps.limits import ImportLimits
from auditor.dumps.title_index import title_candidates
from auditor.transport.snapshot import join_snapshots, literal_path

from .test_import import ARXIV_LINES


def test_an_over_long_line_is_read_only_to_the_cap_then_skipped() -> None:
    stream = io.BufferedReader(io.BytesIO(b"short\n" + b"x" * 5000 + b"\nafter\nlast"))
    assert list(bounded_lines(stream, 100)) == [b"short\n", None, b"after\n", b"last"]
    # A line of exactly the cap plus its newline is too long; one of the cap alone is not.
    exact = io.BufferedReader(io.BytesIO(b"y" * 100 + b"\n" + b"z" * 99 + b"\n"))
    assert list(bounded_lines(exact, 100)) == [None, b"z" * 99 + b"\n"]


def test_a_gzip_whose_first_line_inflates_hugely_costs_the_cap_in_memory(tmp_path: Path) -> None:
    caps = ImportLimits(line_bytes=64 * 1024)
    huge = b'{"id": "' + b"9" * (40 * 1024 * 1024) + b'"}\n'  # 40 MB line, some KB compressed
    good = json.dumps(ARXIV_LINES[0]).encode() + b"\n"
    path = tmp_path / "arxiv.jsonl.gz"
    path.write_bytes(gzip.compress(huge + good))
    del huge
    tracemalloc.start()
    try:
        with gzip.open(path, "rb") as stream:
            found = list(objects(stream, str(path), caps))  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, peak  # never the 40 MB line
    assert "line longer than" in found[0].why  # type: ignore[union-attr]
    assert found[1][1]["id"] == "1706.03762"  # type: ignore[index]
    summary = import_dump(KINDS["arxiv"](caps), [str(path)], str(tmp_path / "snap"))
    assert summary.records == 1 and summary.skipped_count == 1


def test_a_truncated_gzip_is_exit_2_naming_the_file(isolated: Path, tmp_path: Path) -> None:
    data = gzip.compress("\n".join(map(json.dumps, ARXIV_LINES * 50)).encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    result = CliRunner().invoke(
        app, ["snapshot", "import", "arxiv", str(path), "--out", str(tmp_path / "s"), "--quiet"]
    )
    assert result.exit_code == 2, result.output
    assert "cut.jsonl.gz" in result.output and "truncated or corrupt" in result.output
    assert "Aborted" not in result.output


def test_a_gzip_that_is_not_gzip_is_exit_2_too(isolated: Path, tmp_path: Path) -> None:
    path = tmp_path / "fake.jsonl.gz"
    path.write_bytes(b"not gzip at all\n" * 10)
    result = CliRunner().invoke(
        app, ["snapshot", "import", "arxiv", str(path), "--out", str(tmp_path / "s"), "--quiet"]
    )
    assert result.exit_code == 2, result.output
    assert "fake.jsonl.gz" in result.output


@pytest.mark.parametrize("name", ["O'Brien lab", "runs[2024]", "a*b?c", "it's [x] *"])
def test_output_folders_with_quotes_and_glob_characters_work(tmp_path: Path, name: str) -> None:
    lines = "\n".join(map(json.dumps, ARXIV_LINES)).encode()
    path = tmp_path / "arxiv.jsonl"
    path.write_bytes(lines)
    out = tmp_path / name / "snap"
    if "[" in name:  # a sibling a glob of the bracket would match instead
        (tmp_path / name.replace("[2024]", "2")).mkdir()
    summary = import_dump(KINDS["arxiv"](), [str(path)], str(out))
    assert summary.records == 2
    found = title_candidates(str(out), "Attention is all you need")
    assert found and found[0]["identifier"] == "1706.03762"
    import pyarrow as pa

    keys = pa.table({"id_type": ["arxiv"], "identifier": ["1706.03762"]})
    records, _ = join_snapshots([str(out)], keys)
    assert records.column("identifier").to_pylist() == ["1706.03762"]


def test_literal_path_escapes_every_glob_character() -> None:
    assert literal_path("/a/runs[2024]/x*y?.parquet") == "/a/runs[[]2024]/x[*]y[?].parquet"
    assert literal_path("/plain/path.parquet") == "/plain/path.parquet"


def test_an_xml_record_past_the_cap_stops_the_file_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from auditor.dumps import xmlstream

    monkeypatch.setattr(xmlstream, "MAX_RECORD_BYTES", 256 * 1024)
    article = (
        "<PubmedArticle><MedlineCitation><PMID>{pmid}</PMID><Article><ArticleTitle>{title}"
        "</ArticleTitle></Article></MedlineCitation></PubmedArticle>"
    )
    doc = (
        "<?xml version='1.0'?><PubmedArticleSet>"
        + article.format(pmid=1, title="A first title")
        + article.format(pmid=2, title="x" * (20 * 1024 * 1024))
        + "</PubmedArticleSet>"
    ).encode()
    path = tmp_path / "pubmed.xml.gz"
    path.write_bytes(gzip.compress(doc))
    del doc
    tracemalloc.start()
    try:
        summary = import_dump(KINDS["pubmed"](), [str(path)], str(tmp_path / "snap"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert summary.records == 1
    assert any("larger than" in s.why for s in summary.skipped)
    assert peak < 16 * 1024 * 1024, peak  # never the 20 MB title
