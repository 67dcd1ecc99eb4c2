"""`load_files`: several files, row ids, format choice, encodings, unreadable files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor import tables
from auditor.errors import InputError
from auditor.load import detect_format, load_files

FIXTURES = Path(__file__).parent / "fixtures"


def test_several_files_concatenate_in_order() -> None:
    paths = [str(FIXTURES / "sample.ris"), str(FIXTURES / "features.bib")]
    outcome = load_files(paths)
    t = outcome.table
    assert t.schema == tables.REFERENCES
    assert t.column("row_id").to_pylist() == list(range(t.num_rows))
    assert t.column("source_path").to_pylist() == [paths[0]] * 4 + [paths[1]] * 16
    assert [(i.path, i.format, i.rows) for i in outcome.inputs] == [
        (paths[0], "ris", 4),
        (paths[1], "bibtex", 16),
    ]
    assert all(len(i.sha256) == 64 for i in outcome.inputs)


def test_missing_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bib"
    with pytest.raises(InputError, match="nope.bib"):
        load_files([str(FIXTURES / "features.bib"), str(missing)])


def test_wrong_encoding_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes("@article{k, title={Caf\u00e9}}".encode("latin-1"))
    with pytest.raises(InputError, match="x.bib.*utf-8"):
        load_files([str(path)], encoding="utf-8")
    with pytest.raises(InputError, match="unknown encoding"):
        load_files([str(path)], encoding="no-such-codec")


def test_forced_format(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_text("title,doi\nA paper,10.1000/x\n", encoding="utf-8")
    row = load_files([str(path)], fmt="csv").table.to_pylist()[0]
    assert (row["source_format"], row["identifier"]) == ("csv", "10.1000/x")
    with pytest.raises(InputError, match="unknown format"):
        load_files([str(path)], fmt="xml")


@pytest.mark.parametrize(
    ("name", "head", "fmt"),
    [
        ("a.bib", "", "bibtex"),
        ("a.RIS", "", "ris"),
        ("a.csv", "", "csv"),
        ("export.txt", "TY  - JOUR\n", "ris"),
        ("export.txt", "% comment\n@article{x,", "bibtex"),
        ("export.txt", "title,doi\n", "csv"),
    ],
)
def test_detect_format(name: str, head: str, fmt: str) -> None:
    assert detect_format(name, head) == fmt


def test_an_empty_file_is_no_references_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "empty.bib"
    path.write_bytes(b"")
    with pytest.raises(InputError, match=f"no references in {re.escape(str(path))}"):
        load_files([str(path)])


def test_garbage_collector_state_is_restored(tmp_path: Path) -> None:
    import gc

    assert gc.isenabled()
    load_files([str(FIXTURES / "features.bib")])
    assert gc.isenabled()
    with pytest.raises(InputError):
        load_files([str(tmp_path / "missing.bib")])
    assert gc.isenabled()
    gc.disable()
    try:
        load_files([str(FIXTURES / "features.bib")])
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_loaded_tables_are_already_classified() -> None:
    from auditor.classify import classify

    for name in ("features.bib", "sample.ris", "sample.csv"):
        table = load_files([str(FIXTURES / name)]).table
        assert classify(table).equals(table), name
