"""`auditor load`: the summary on stderr, Parquet with `--out`, exit 2 on unreadable input."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from auditor import tables
from auditor.cli import app

FIXTURES = Path(__file__).parent / "fixtures"


def test_load_writes_parquet_and_summarises(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "refs.parquet"
    args = ["load", str(FIXTURES / "features.bib"), str(FIXTURES / "sample.ris"), "--out", str(out)]
    result = CliRunner().invoke(app, args, env={})
    assert result.exit_code == 0, result.output
    table = pq.read_table(out)
    assert table.schema.names == tables.REFERENCES.names
    assert table.num_rows == 20
    text = result.stderr
    assert "20 references from 2 file(s)" in text
    assert "bibtex 16" in text and "ris 4" in text
    assert "doi " in text and "pmid " in text and "arxiv " in text
    assert "features.bib:89" in text  # the broken entry, with its line
    assert "1 unparseable" in text
    assert list(tmp_path.joinpath("sub").iterdir()) == [out]  # no temp file left behind


def test_csv_map_and_format_flags(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_text("Article Title;PMID\nA paper;123\n", encoding="utf-8")
    out = tmp_path / "r.parquet"
    args = [
        "load",
        str(path),
        "--input-format",
        "csv",
        "--map",
        "title=Article Title",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(app, args, env={})
    assert result.exit_code == 0, result.output
    row = pq.read_table(out).to_pylist()[0]
    assert (row["title"], row["id_type"], row["identifier"]) == ("A paper", "pmid", "123")


def test_unreadable_file_exits_2_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.bib"
    result = CliRunner().invoke(app, ["load", str(missing)], env={})
    assert result.exit_code == 2
    assert "missing.bib" in result.stderr


def test_bad_map_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["load", str(FIXTURES / "sample.csv"), "--map", "nonsense"], env={}
    )
    assert result.exit_code == 2
    assert "--map" in result.stderr


def test_undecodable_csv_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("title\nCaf\u00e9\n".encode("latin-1"))
    result = CliRunner().invoke(app, ["load", str(path)], env={})
    assert result.exit_code == 2
    assert "UTF-8" in result.stderr


_FIXTURE_OF = {
    "bibtex": "features.bib",
    "ris": "sample.ris",
    "wos": "savedrecs.txt",
    "wos_tab": "savedrecs_tab.txt",
    "medline": "pubmed.nbib",
    "endnote": "library.enw",
    "endnote_xml": "library.xml",
    "csl_json": "zotero.json",
    "csv": "scopus.csv",
}


def test_every_format_choice_reads_its_fixture(tmp_path: Path) -> None:
    from auditor.commands import audit
    from auditor.commands.load import InputFormat

    assert audit.InputFormat is InputFormat  # one choice list for `load` and `audit`
    assert set(_FIXTURE_OF) == {f.value for f in InputFormat}
    for fmt, name in _FIXTURE_OF.items():
        copy = tmp_path / f"{fmt}.dat"  # no telling extension: the flag decides
        copy.write_bytes((FIXTURES / name).read_bytes())
        result = CliRunner().invoke(app, ["load", str(copy), "--input-format", fmt], env={})
        assert result.exit_code == 0, (fmt, result.output)
        assert f"formats: {fmt} " in result.stderr, (fmt, result.stderr)
        detected = CliRunner().invoke(app, ["load", str(FIXTURES / name)], env={})
        assert f"formats: {fmt} " in detected.stderr, (name, detected.stderr)
