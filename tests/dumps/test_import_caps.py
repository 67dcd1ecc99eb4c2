"""`snapshot import` caps (#37, item 4): bytes inflated, line length, JSON nesting, non-UTF-8,
and a failed import that leaves the snapshot before it byte for byte as it was."""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.dumps import KINDS
from auditor.dumps.importer import import_dump
from auditor.dumps.jsonlines import deeper_than, objects
from auditor.dumps.limits import ImportLimits
from auditor.errors import InputError

from .test_import import ARXIV_LINES


def _line(n: int) -> bytes:
    work = {**ARXIV_LINES[0], "id": f"1706.{n:05d}", "title": f"A title number {n}"}
    return json.dumps(work).encode() + b"\n"


def _import(path: Path, out: Path, *config: str) -> Any:
    toml = out.parent / "auditor.toml"
    toml.write_text("[input]\n" + "\n".join(config) + "\n", encoding="utf-8")
    command = ["snapshot", "import", "arxiv", str(path), "--out", str(out), "--quiet"]
    return CliRunner().invoke(app, [*command, "--config", str(toml)])


def _gzip_of_spaces(megabytes: int) -> bytes:
    """A gzip of `megabytes` MiB of spaces, built a MiB at a time (about 1,000 to 1)."""
    sink = io.BytesIO()
    with gzip.GzipFile(fileobj=sink, mode="wb") as packer:
        packer.write(_line(1))
        for _ in range(megabytes):
            packer.write(b" " * (1 << 20))
    return sink.getvalue()


def test_a_gzip_bomb_stops_at_the_inflated_cap_naming_file_and_setting(
    isolated: Path, tmp_path: Path
) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(_gzip_of_spaces(64))
    assert path.stat().st_size < 200_000
    result = _import(path, tmp_path / "s", "import_max_inflated_bytes = 8388608")
    assert result.exit_code == 2, result.output
    assert "bomb.jsonl.gz: inflates past 8,388,608 bytes" in result.output
    assert "import_max_inflated_bytes" in result.output and "Traceback" not in result.output
    assert not list((tmp_path / "s" / "records").iterdir())


def test_a_line_past_the_line_cap_is_skipped_naming_the_setting(
    isolated: Path, tmp_path: Path
) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(_line(1) + b'{"id": "' + b"9" * 5000 + b'"}\n' + _line(3))
    result = _import(path, tmp_path / "s", "import_max_line_bytes = 1024")
    assert result.exit_code == 0, result.output
    assert "2 records" in result.output
    assert "long.jsonl:2: line longer than 1,024 bytes (import_max_line_bytes)" in result.output


class _Lazy(io.RawIOBase):
    """A 100 MB single line, made as it is read (never held by the test)."""

    def __init__(self, size: int) -> None:
        self._left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self._left)
        buffer[:n] = b"[" * n
        self._left -= n
        return n


def test_a_lazy_100_mb_line_costs_the_default_line_cap_in_memory() -> None:
    stream = io.BufferedReader(_Lazy(100 << 20), 1 << 16)
    tracemalloc.start()
    try:
        found = list(objects(stream, "lazy.jsonl"))  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [getattr(f, "why", "") for f in found] == [
        f"line longer than {ImportLimits().line_bytes:,} bytes (import_max_line_bytes)"
    ]
    assert peak < 2 * ImportLimits().line_bytes + (8 << 20), peak


def test_json_nested_100k_deep_is_skipped_before_it_is_parsed(tmp_path: Path) -> None:
    deep = b'{"id": "1706.00002", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    path = tmp_path / "deep.jsonl"
    path.write_bytes(_line(1) + deep + _line(3))
    summary = import_dump(KINDS["arxiv"](), [str(path)], str(tmp_path / "s"))
    assert summary.records == 2
    assert [(s.where, s.why) for s in summary.skipped] == [
        (f"{path}:2", "JSON nested deeper than 200 (import_max_json_depth)")
    ]


def test_a_crossref_items_file_nested_deep_is_skipped_too(tmp_path: Path) -> None:
    path = tmp_path / "items.json"
    path.write_bytes(b'{"items": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}")
    summary = import_dump(KINDS["crossref"](), [str(path)], str(tmp_path / "s"))
    assert [s.why for s in summary.skipped] == [
        "JSON nested deeper than 200 (import_max_json_depth)"
    ]


@pytest.mark.parametrize(
    ("text", "deeper"),
    [
        (b'{"a": [1]}', False),
        (b'{"a": [[1]]}', True),
        (b'{"t": "[[[[[[[[[[["}', False),  # brackets in a string do not nest
        (b'{"t": "\\"[[[[[[[[[[\\\\"}', False),  # nor past escaped quotes and backslashes
        (b'{"t": "\\\\", "u": [[[1]]]}', True),  # an escaped backslash ends no string
        (b"[]" * 500, False),  # many brackets, never deep
    ],
)
def test_the_depth_scan_reads_strings_and_escapes_as_json_does(text: bytes, deeper: bool) -> None:
    assert deeper_than(text, 2) is deeper


@pytest.mark.parametrize("kind", ["arxiv", "openalex"])
def test_bytes_not_utf8_on_line_3_are_an_error_naming_file_and_line(
    isolated: Path, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(_line(1) + _line(2) + b'{"id": "1706.00003", "title": "Caf\xe9"}\n' + _line(4))
    out = tmp_path / "s"
    command = ["snapshot", "import", kind, str(path), "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2, result.output
    assert f"{path.name}:3: not UTF-8 (byte 0xe9 at column 35)" in result.output.replace("\n", "")
    assert "Traceback" not in result.output


def _snapshot_bytes(out: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(out)): p.read_bytes()
        for folder in ("records", "title_index")
        for p in sorted((out / folder).rglob("*"))
        if p.is_file()
    }


def test_an_import_failing_half_way_leaves_the_previous_snapshot_byte_identical(
    tmp_path: Path,
) -> None:
    path, out = tmp_path / "arxiv.jsonl", tmp_path / "s"
    path.write_bytes(b"".join(_line(n) for n in range(1, 7)))
    import_dump(KINDS["arxiv"](), [str(path)], str(out), part_rows=2)
    before = _snapshot_bytes(out)
    assert len([k for k in before if k.startswith("records")]) == 3
    # A newer dump of the same name: four parts' worth read and kept aside, then a bad line.
    path.write_bytes(b"".join(_line(n) for n in range(10, 18)) + b'{"id": "\xff"}\n')
    with pytest.raises(InputError, match=r"arxiv\.jsonl:9: not UTF-8"):
        import_dump(KINDS["arxiv"](), [str(path)], str(out), part_rows=2)
    assert _snapshot_bytes(out) == before
    assert len(list((out / ".import").glob("*.parquet"))) == 4  # kept for the rerun


def test_a_reimport_with_fewer_parts_drops_the_old_parts_it_replaced(tmp_path: Path) -> None:
    path, out = tmp_path / "arxiv.jsonl", tmp_path / "s"
    path.write_bytes(b"".join(_line(n) for n in range(1, 7)))
    import_dump(KINDS["arxiv"](), [str(path)], str(out), part_rows=2)
    other = tmp_path / "arxiv-2.jsonl"  # imported by a run of its own, into the same folder
    other.write_bytes(_line(50))
    import_dump(KINDS["arxiv"](), [str(other)], str(out), part_rows=2)
    path.write_bytes(_line(40) + _line(41))
    summary = import_dump(KINDS["arxiv"](), [str(path)], str(out), part_rows=2)
    assert summary.records == 2
    assert sorted(p.name for p in (out / "records").iterdir()) == [
        "0000-arxiv-00000.parquet",
        "0000-arxiv-2-00000.parquet",
    ]
    assert not (out / ".import").exists()


_DEEP = b"<i>" * 100_000 + b"x" + b"</i>" * 100_000
_XML = {
    "dblp": b'<?xml version="1.0"?><dblp><article key="a/b"><title>Fine</title></article>'
    b'<article key="a/c"><title>' + _DEEP + b"</title></article></dblp>",
    "pubmed": b'<?xml version="1.0"?><PubmedArticleSet><PubmedArticle><MedlineCitation>'
    b"<PMID>1</PMID><Article><ArticleTitle>" + _DEEP + b"</ArticleTitle></Article>"
    b"</MedlineCitation></PubmedArticle></PubmedArticleSet>",
}


@pytest.mark.parametrize("kind", ["dblp", "pubmed"])
def test_xml_nested_100k_deep_stops_the_file_naming_the_cap(tmp_path: Path, kind: str) -> None:
    # Before the cap the serializer of the record's digest recursed: a `RecursionError`.
    path = tmp_path / f"{kind}.xml"
    path.write_bytes(_XML[kind])
    summary = import_dump(KINDS[kind](), [str(path)], str(tmp_path / "s"))
    assert summary.records == (1 if kind == "dblp" else 0)
    assert summary.skipped[-1].why == (
        "unreadable XML (elements nested deeper than 200 (import_max_xml_depth))"
    )
